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

    @Test func x11SessionIsLeftToSDLWithoutTouchingWayland() {
        for probe in [DisplayServerChoice.WaylandProbe.usable, .noSeat, .unreachable] {
            let result = Self.decide(["DISPLAY": ":0"], probe: probe)
            #expect(result.choice == .sdlDefault)
            #expect(!result.probed, "an X11 session must not connect to Wayland")
        }
    }

    @Test func waylandSessionPrefersWaylandWithX11AsFallback() {
        let both = Self.decide(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-1"], probe: .usable)
        #expect(both.choice == .drivers("wayland,x11", warning: nil))
        #expect(both.probed)
        let waylandOnly = Self.decide(["WAYLAND_DISPLAY": "wayland-1"], probe: .usable)
        #expect(waylandOnly.choice == .drivers("wayland,x11", warning: nil))
    }

    @Test func seatlessCompositorGoesToX11OrIsRefused() {
        let withX11 = Self.decide(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-1"], probe: .noSeat)
        guard case .drivers(let drivers, let warning?) = withX11.choice else {
            Issue.record("expected X11 with a warning, got \(withX11.choice)")
            return
        }
        #expect(drivers == "x11")
        #expect(warning.contains("wl_seat") && warning.contains(DisplayServerChoice.noSeatReport))
        let alone = Self.decide(["WAYLAND_DISPLAY": "wayland-1"], probe: .noSeat)
        guard case .refuse(let message) = alone.choice else {
            Issue.record("expected a refusal, got \(alone.choice)")
            return
        }
        #expect(message.contains("no input seat"))
        #expect(!message.contains("\n"))
    }

    @Test func unreachableCompositorIsLeftToSDL() {
        #expect(Self.decide(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-9"], probe: .unreachable).choice == .sdlDefault)
        #expect(Self.decide(["WAYLAND_DISPLAY": "wayland-9"], probe: .unreachable).choice == .sdlDefault)
    }

    @Test func explicitDriverStandsButASeatlessWaylandIsRefused() {
        let x11 = Self.decide(["SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": "w"], probe: .usable)
        #expect(x11.choice == .sdlDefault)
        #expect(!x11.probed)
        let offscreen = Self.decide(["SDL_VIDEODRIVER": "offscreen"], probe: .noSeat)
        #expect(offscreen.choice == .sdlDefault && !offscreen.probed)
        #expect(Self.decide(["SDL_VIDEODRIVER": "wayland"], probe: .usable).choice == .sdlDefault)
        guard case .refuse = Self.decide(["SDL_VIDEODRIVER": "Wayland,x11"], probe: .noSeat).choice else {
            Issue.record("a seatless compositor asked for explicitly must be refused, not crashed on")
            return
        }
    }

    @Test func preferringX11TakesItWhenThereIsOne() {
        var probed = false
        let both = DisplayServerChoice.decide(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "w"], preferX11: true) {
            probed = true
            return .usable
        }
        #expect(both == .sdlDefault && !probed)
        let waylandOnly = DisplayServerChoice.decide(environment: ["WAYLAND_DISPLAY": "w"], preferX11: true) { .usable }
        #expect(waylandOnly == .drivers("wayland,x11", warning: nil))
    }

    @Test func handedOverSocketIsNotProbed() {
        let result = Self.decide(["WAYLAND_SOCKET": "5"], probe: .noSeat)
        #expect(result.choice == .drivers("wayland,x11", warning: nil))
        #expect(!result.probed)
    }

    @Test func noVariablesProbesTheDefaultSocket() {
        let usable = Self.decide([:], probe: .usable)
        #expect(usable.choice == .sdlDefault && usable.probed)
        guard case .refuse = Self.decide([:], probe: .noSeat).choice else {
            Issue.record("a seatless default compositor must be refused")
            return
        }
        #expect(Self.decide(["DISPLAY": ""], probe: .unreachable).choice == .sdlDefault)
    }
}
