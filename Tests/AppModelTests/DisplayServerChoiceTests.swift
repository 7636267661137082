import AppModel
import KeyboardCore
import Testing

/// Which display server the app asks SDL for (issue 14).
@Suite("DisplayServerChoice")
struct DisplayServerChoiceTests {
    /// Decides, recording whether the Wayland compositor was probed.
    static func decide(_ environment: [String: String], probe: DisplayServerChoice.WaylandProbe)
        -> (choice: DisplayServerChoice, probed: Bool) {
        var probed = false
        let choice = DisplayServerChoice.decide(environment: environment) {
            probed = true
            return probe
        }
        return (choice, probed)
    }

    /// SDL is asked for X11 alone: were the X server gone, SDL's Wayland driver would
    /// connect anyway (and libwayland print its own errors).
    @Test func x11SessionIsX11OnlyWithoutTouchingWayland() {
        for probe in [DisplayServerChoice.WaylandProbe.usable, .noSeat, .unreachable] {
            for environment in [["DISPLAY": ":0"], ["DISPLAY": ":0", "XDG_RUNTIME_DIR": "/run/user/1"]] {
                let result = Self.decide(environment, probe: probe)
                #expect(result.choice == .drivers("x11", warning: nil))
                #expect(!result.probed, "an X11 session must not connect to Wayland")
            }
        }
    }

    @Test func waylandSessionPrefersWaylandWithX11AsFallback() {
        let both = Self.decide(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1"], probe: .usable)
        #expect(both.choice == .drivers("wayland,x11", warning: nil))
        #expect(both.probed)
        let waylandOnly = Self.decide(["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1"], probe: .usable)
        #expect(waylandOnly.choice == .drivers("wayland,x11", warning: nil))
    }

    @Test func seatlessCompositorGoesToX11OrIsRefused() {
        let withX11 = Self.decide(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1"], probe: .noSeat)
        guard case .drivers(let drivers, let warning?) = withX11.choice else {
            Issue.record("expected X11 with a warning, got \(withX11.choice)")
            return
        }
        #expect(drivers == "x11")
        #expect(warning.contains("wl_seat") && warning.contains(DisplayServerChoice.noSeatReport))
        let alone = Self.decide(["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1"], probe: .noSeat)
        guard case .refuse(let message) = alone.choice else {
            Issue.record("expected a refusal, got \(alone.choice)")
            return
        }
        #expect(message.contains("no input seat"))
        #expect(!message.contains("\n"))
    }

    /// No compositor at WAYLAND_DISPLAY: X11 alone when there is one, else a line naming
    /// the socket (not "set WAYLAND_DISPLAY": it is set).
    @Test func unreachableCompositorGoesToX11OrIsNamed() {
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1"]
        #expect(Self.decide(runtime.merging(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-9"]) { a, _ in a },
                            probe: .unreachable).choice == .drivers("x11", warning: nil))
        let alone = Self.decide(runtime.merging(["WAYLAND_DISPLAY": "nothing-here"]) { a, _ in a }, probe: .unreachable)
        #expect(alone.choice == .refuse("cannot connect to the Wayland compositor at WAYLAND_DISPLAY 'nothing-here' (is it running?)"))
        // A relative socket without XDG_RUNTIME_DIR is not even tried (libwayland would print
        // its own error); an absolute one is.
        let noRuntime = Self.decide(["WAYLAND_DISPLAY": "wayland-1"], probe: .usable)
        #expect(!noRuntime.probed)
        guard case .refuse(let message) = noRuntime.choice else {
            Issue.record("expected a refusal, got \(noRuntime.choice)")
            return
        }
        #expect(message.contains("XDG_RUNTIME_DIR") && !message.contains("\n"))
        #expect(Self.decide(["WAYLAND_DISPLAY": "/tmp/w"], probe: .usable).choice == .drivers("wayland,x11", warning: nil))
    }

    @Test func explicitDriverStandsButASeatlessWaylandIsRefused() {
        let x11 = Self.decide(["SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": "w", "DISPLAY": ":0"], probe: .usable)
        #expect(x11.choice == .sdlDefault)
        #expect(!x11.probed)
        let offscreen = Self.decide(["SDL_VIDEODRIVER": "offscreen"], probe: .noSeat)
        #expect(offscreen.choice == .sdlDefault && !offscreen.probed)
        #expect(Self.decide(["SDL_VIDEODRIVER": "wayland", "XDG_RUNTIME_DIR": "/run/user/1"], probe: .usable).choice == .sdlDefault)
        #expect(Self.decide(["SDL_VIDEODRIVER": "wayland", "WAYLAND_DISPLAY": "/tmp/w"], probe: .usable).choice == .sdlDefault)
        #expect(Self.decide(["SDL_VIDEODRIVER": "x11", "DISPLAY": ":0"], probe: .unreachable).choice == .sdlDefault)
        guard case .refuse = Self.decide(["SDL_VIDEODRIVER": "Wayland,x11", "XDG_RUNTIME_DIR": "/run/user/1"], probe: .noSeat).choice else {
            Issue.record("a seatless compositor asked for explicitly must be refused, not crashed on")
            return
        }
    }

    /// A driver named alone with nothing to connect to is refused with the reason, not left to
    /// SDL ("wayland not available"; with DISPLAY set the app used to blame the X display).
    @Test func anExplicitDriverWithNothingToReachIsRefusedWithTheReason() {
        func refusal(_ environment: [String: String], _ probe: DisplayServerChoice.WaylandProbe) -> (String?, Bool) {
            let result = Self.decide(environment, probe: probe)
            if case .refuse(let message) = result.choice { return (message, result.probed) }
            return (nil, result.probed)
        }
        let (noDefault, probed) = refusal(["SDL_VIDEODRIVER": "wayland", "DISPLAY": ":61", "XDG_RUNTIME_DIR": "/run/user/1"], .unreachable)
        #expect(noDefault == "SDL_VIDEODRIVER is wayland, but no Wayland compositor answers at the default socket 'wayland-0' (WAYLAND_DISPLAY is not set; is it running?)")
        #expect(probed)
        let (named, _) = refusal(["SDL_VIDEODRIVER": "wayland", "WAYLAND_DISPLAY": "w-9", "XDG_RUNTIME_DIR": "/run/user/1"], .unreachable)
        #expect(named?.contains("at WAYLAND_DISPLAY 'w-9'") == true)
        // Without XDG_RUNTIME_DIR a relative socket cannot be found: refused without connecting
        // (libwayland would print its own two lines).
        let (noRuntime, probedWithout) = refusal(["SDL_VIDEODRIVER": "wayland", "DISPLAY": ":61"], .usable)
        #expect(noRuntime?.contains("XDG_RUNTIME_DIR, where the socket would be, is not set") == true)
        #expect(!probedWithout)
        let (x11, probedX11) = refusal(["SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": "w"], .usable)
        #expect(x11 == "SDL_VIDEODRIVER is x11, but DISPLAY is not set (no X server to open a window on)")
        #expect(!probedX11)
        // A list leaves the fallback to SDL; a handed-over socket is never probed.
        #expect(Self.decide(["SDL_VIDEODRIVER": "wayland,x11", "DISPLAY": ":0", "XDG_RUNTIME_DIR": "/r"], probe: .unreachable).choice == .sdlDefault)
        let handed = Self.decide(["SDL_VIDEODRIVER": "wayland", "WAYLAND_SOCKET": "5"], probe: .unreachable)
        #expect(handed.choice == .sdlDefault && !handed.probed)
    }

    @Test func preferringX11TakesItWhenThereIsOne() {
        var probed = false
        let both = DisplayServerChoice.decide(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "w"], preferX11: true) {
            probed = true
            return .usable
        }
        #expect(both == .drivers("x11", warning: nil) && !probed)
        let waylandOnly = DisplayServerChoice.decide(environment: ["WAYLAND_DISPLAY": "w", "XDG_RUNTIME_DIR": "/r"], preferX11: true) { .usable }
        #expect(waylandOnly == .drivers("wayland,x11", warning: nil))
    }

    @Test func handedOverSocketIsNotProbed() {
        let result = Self.decide(["WAYLAND_SOCKET": "5"], probe: .noSeat)
        #expect(result.choice == .drivers("wayland,x11", warning: nil))
        #expect(!result.probed)
    }

    @Test func noVariablesProbesTheDefaultSocket() {
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1"]
        let usable = Self.decide(runtime, probe: .usable)
        #expect(usable.choice == .sdlDefault && usable.probed)
        guard case .refuse = Self.decide(runtime, probe: .noSeat).choice else {
            Issue.record("a seatless default compositor must be refused")
            return
        }
        let none = DisplayServerChoice.refuse("no display to open a window on (set DISPLAY or WAYLAND_DISPLAY)")
        #expect(Self.decide(["DISPLAY": "", "XDG_RUNTIME_DIR": "/r"], probe: .unreachable).choice == none)
        // Without XDG_RUNTIME_DIR there is no default socket: nothing is probed.
        let bare = Self.decide([:], probe: .usable)
        #expect(bare.choice == none && !bare.probed)
    }

    /// WAYLAND_DISPLAY is shown in a refusal with its control characters escaped: a value
    /// holding a line feed or an escape sequence kept the one-line message from being one line
    /// (found by the launch-options fuzz target, issue 24).
    @Test func aSocketNameIsShownEscaped() {
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1"]
        let odd = "w\n\u{1B}[2J\u{85}"
        for (environment, expected) in [
            (runtime.merging(["WAYLAND_DISPLAY": odd]) { a, _ in a },
             #"cannot connect to the Wayland compositor at WAYLAND_DISPLAY 'w\n\u001b[2J\u0085' (is it running?)"#),
            (runtime.merging(["WAYLAND_DISPLAY": odd, "SDL_VIDEODRIVER": "wayland"]) { a, _ in a },
             #"SDL_VIDEODRIVER is wayland, but no Wayland compositor answers at WAYLAND_DISPLAY 'w\n\u001b[2J\u0085' (is it running?)"#),
        ] {
            #expect(Self.decide(environment, probe: .unreachable).choice == .refuse(expected))
        }
    }
}
