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
        #expect(xwayland.contains("virtual-keyboard-unstable-v1") && xwayland.contains("input-method-v2"))
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
        #expect(configuration.windowSize == KeyboardLayout.defaultSystemWindowSize)
        guard case .run(let sized) = try LaunchOptions.parse(["--size", "320x324", "--system"]) else { return }
        #expect(sized.windowSize == Size(width: 320, height: 324))
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--size", "320x324"]) }
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--system", "--size", "320x300"]) }
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--system=yes"]) }
        #expect(LaunchOptions.usage.contains("--system"))
    }

    @Test func sendAndTargetTraceLines() {
        #expect(TraceEvent.send(.text("へぇ〜")).json(at: 1.5).serialized == #"{"event":"send","t":1.5,"text":"へぇ〜"}"#)
        #expect(TraceEvent.send(.key(.backSpace)).json(at: 2).serialized == #"{"event":"send","t":2,"key":"BackSpace"}"#)
        #expect(TraceEvent.send(.key(.backSpace, control: true)).json(at: 2).serialized
                == #"{"event":"send","t":2,"key":"ctrl+BackSpace"}"#)
        #expect(TraceEvent.send(.text("a"), dropped: "no window has focus").json(at: 3).serialized
                == #"{"event":"send","t":3,"text":"a","dropped":"no window has focus"}"#)
        #expect(TraceEvent.target(FocusedWindow(id: 4194316, title: "sh")).json(at: 0).serialized
                == #"{"event":"target","t":0,"window":4194316,"title":"sh"}"#)
        #expect(TraceEvent.target(nil).json(at: 0).serialized == #"{"event":"target","t":0,"window":null,"title":null}"#)
        let layout = TraceEvent.layout(KeyboardLayout(windowSize: KeyboardLayout.defaultSystemWindowSize, mode: .system), scale: 1)
            .json(at: 0).serialized
        #expect(layout.contains(#""return":{"#) && !layout.contains("textField") && !layout.contains("closeKeyboard"))
    }
}
