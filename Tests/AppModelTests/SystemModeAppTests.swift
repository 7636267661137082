import AppModel
import KeyboardCore
import Testing

/// System mode's command line, stderr notice and trace lines (the app's side of system mode;
/// its key rules are in KeyboardCoreTests' SystemModeTests).
@Suite("System mode: command line and trace")
struct SystemModeAppTests {
    @Test func waylandNotice() throws {
        #expect(SystemModeNotice.message(videoDriver: "x11", environment: [:]) == nil)
        #expect(SystemModeNotice.message(videoDriver: "x11", environment: ["WAYLAND_DISPLAY": ""]) == nil)
        let xwayland = try #require(SystemModeNotice.message(videoDriver: "x11", environment: ["WAYLAND_DISPLAY": "wayland-1"]))
        #expect(xwayland.contains("X11 (XWayland) applications only"))
        #expect(xwayland.contains("zwlr_layer_shell_v1") && xwayland.contains("zwp_virtual_keyboard_manager_v1"))
        let tried = try #require(SystemModeNotice.message(videoDriver: "x11", environment: ["WAYLAND_DISPLAY": "wayland-1"],
                                                          waylandReason: "the compositor lacks zwlr_layer_shell_v1"))
        #expect(tried.hasSuffix("(the compositor lacks zwlr_layer_shell_v1)"))
        #expect(SystemModeNotice.message(videoDriver: "x11", environment: ["XDG_SESSION_TYPE": "wayland"]) == xwayland)
        let native = try #require(SystemModeNotice.message(videoDriver: "wayland", environment: ["WAYLAND_DISPLAY": "wayland-1"]))
        #expect(native.contains("'wayland'") && native.contains("keys are not sent"))
        #expect(!native.contains("\n") && !xwayland.contains("\n"))
    }

    // MARK: Command line and trace

    @Test func systemFlag() throws {
        guard case .run(let options) = try LaunchOptions.parse(["--system"]) else { Issue.record("not run"); return }
        #expect(options.system)
        let configuration = options.configuration(settings: Settings(), environment: [:])
        #expect(configuration.windowSize == KeyboardLayout.defaultSystemWindowSize())
        guard case .run(let sized) = try LaunchOptions.parse(["--size", "320x372", "--system"]) else { return }
        #expect(sized.windowSize == Size(width: 320, height: 372))
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--size", "320x372"]) }
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--system", "--size", "320x300"]) }
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--system=yes"]) }
        #expect(LaunchOptions.usage.contains("--system"))
    }

    @Test func floatFlag() throws {
        guard case .run(let options) = try LaunchOptions.parse(["--system", "--float"]) else { Issue.record("not run"); return }
        #expect(options.system && options.floating)
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--float"]) }
        #expect(LaunchOptions.usage.contains("--float"))
    }

    @Test func waylandTraceFields() {
        #expect(TraceEvent.send(.text("a"), via: "input-method").json(at: 1).serialized
                == #"{"event":"send","t":1,"text":"a","via":"input-method"}"#)
        #expect(TraceEvent.target(nil, inputMethod: "active").json(at: 1).serialized
                == #"{"event":"target","t":1,"window":null,"title":null,"inputMethod":"active"}"#)
        let english = SystemModeText.english
        #expect(english.targetLine(.focusedSurface(textInput: true)) == "Keys go to: a text field (input method)")
        #expect(english.targetLine(.focusedSurface(textInput: nil)) == "Keys go to: the focused window")
    }

    @Test func sendAndTargetTraceLines() {
        #expect(TraceEvent.send(.text("へぇ〜")).json(at: 1.5).serialized == #"{"event":"send","t":1.5,"text":"へぇ〜"}"#)
        #expect(TraceEvent.send(.key(.backSpace)).json(at: 2).serialized == #"{"event":"send","t":2,"key":"BackSpace"}"#)
        #expect(TraceEvent.send(.key(.backSpace, control: true)).json(at: 2).serialized
                == #"{"event":"send","t":2,"key":"ctrl+BackSpace","modifiers":["ctrl"]}"#)
        #expect(TraceEvent.send(.text("a"), dropped: "no window has focus").json(at: 3).serialized
                == #"{"event":"send","t":3,"text":"a","dropped":"no window has focus"}"#)
        #expect(TraceEvent.target(FocusedWindow(id: 4194316, title: "sh")).json(at: 0).serialized
                == #"{"event":"target","t":0,"window":4194316,"title":"sh"}"#)
        #expect(TraceEvent.target(nil).json(at: 0).serialized == #"{"event":"target","t":0,"window":null,"title":null}"#)
        let layout = TraceEvent.layout(KeyboardLayout(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system), scale: 1)
            .json(at: 0).serialized
        #expect(layout.contains(#""return":{"#) && !layout.contains("textField") && !layout.contains("closeKeyboard"))
    }
}

/// One system-mode keyboard per display (issue 28, class 7): the socket's name and lines.
@Suite("System mode: one keyboard per display")
struct SingleInstanceTests {
    @Test func socketPathNamesTheDisplay() {
        let wayland = SingleInstance.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": "wayland-1",
                                                              "DISPLAY": ":0"], wayland: true)
        #expect(wayland == "/run/user/1000/hee-keyboard-system-wayland-wayland-1.socket")
        let x11 = SingleInstance.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/", "DISPLAY": ":0"], wayland: false)
        #expect(x11 == "/run/user/1000/hee-keyboard-system-x11-_0.socket")
        // No runtime directory, a relative one, or no display: no rule.
        #expect(SingleInstance.socketPath(environment: ["DISPLAY": ":0"], wayland: false) == nil)
        #expect(SingleInstance.socketPath(environment: ["XDG_RUNTIME_DIR": "run", "DISPLAY": ":0"], wayland: false) == nil)
        #expect(SingleInstance.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], wayland: true) == nil)
    }

    @Test func longDisplaysAreHashed() throws {
        let socket = "/tmp/hee-wayland-system-abcdefgh/hee-sway-12345678/" + String(repeating: "x", count: 80) + "/wayland-1"
        let environment = ["XDG_RUNTIME_DIR": "/tmp/hee-wayland-system-abcdefgh/client-runtime", "WAYLAND_DISPLAY": socket]
        let path = try #require(SingleInstance.socketPath(environment: environment, wayland: true))
        #expect(path.utf8.count <= SingleInstance.maximumPathBytes)
        #expect(path.hasPrefix("/tmp/hee-wayland-system-abcdefgh/client-runtime/hee-keyboard-system-wayland-"))
        var other = environment
        other["WAYLAND_DISPLAY"] = String(socket.dropLast()) + "2"
        #expect(SingleInstance.socketPath(environment: other, wayland: true) != path)
    }

    @Test func requestAndAnswer() {
        #expect(SingleInstance.request == "show")
        #expect(SingleInstance.pid(inAnswer: SingleInstance.answer(pid: 4321)) == 4321)
        #expect(SingleInstance.pid(inAnswer: "shown") == nil)
        #expect(SingleInstance.pid(inAnswer: "hello 12") == nil)
        #expect(SingleInstance.pid(inAnswer: "shown x") == nil)
        let line = SingleInstance.message(program: "hee-keyboard", firstPID: 4321)
        #expect(line.hasPrefix("hee-keyboard: --system: ") && line.contains("(pid 4321)") && !line.contains("\n"))
        #expect(!SingleInstance.message(program: "hee-keyboard", firstPID: nil).contains("pid"))
        // The first keyboard's trace line when asked.
        #expect(TraceEvent.showRequested.json(at: 2).serialized == #"{"event":"show","t":2}"#)
    }
}
