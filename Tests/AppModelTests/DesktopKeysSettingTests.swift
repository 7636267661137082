import AppModel
import KeyboardCore
import Testing

/// The desktop row's setting (issue 21): `"desktopKeys": true|false` in settings.json (absent:
/// system mode only), `--desktop-keys` / `--no-desktop-keys` for one run, the window sizes
/// that follow, and the trace lines of the row's keys.
@Suite("Desktop row: setting, flags and trace")
struct DesktopKeysSettingTests {
    static func parse(_ arguments: [String]) throws -> LaunchOptions {
        guard case .run(let options) = try LaunchOptions.parse(arguments) else {
            Issue.record("\(arguments) is not a run")
            return LaunchOptions()
        }
        return options
    }

    /// The usage error's message for `arguments`, if they are refused.
    static func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try LaunchOptions.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    static func settings(_ json: String) throws -> Settings {
        try Settings.decode(Array(json.utf8))
    }

    // MARK: settings.json

    @Test func savedSetting() throws {
        #expect(try Self.settings("{}").desktopKeys == nil)
        #expect(try Self.settings(#"{"desktopKeys": null}"#).desktopKeys == nil)
        #expect(try Self.settings(#"{"desktopKeys": true}"#).desktopKeys == true)
        #expect(try Self.settings(#"{"desktopKeys": false}"#).desktopKeys == false)
        #expect(Settings.keys.contains("desktopKeys"))
    }

    @Test("a desktopKeys that is no flag is corrected to the default, with one warning", arguments: [
        (#""yes""#, #""desktopKeys" "yes" has the wrong type (true or false), using the default (system mode only)"#),
        ("1", #""desktopKeys" 1 has the wrong type (true or false), using the default (system mode only)"#),
        ("[true]", #""desktopKeys" [true] has the wrong type (true or false), using the default (system mode only)"#),
    ])
    func wrongType(value: String, warning: String) throws {
        let members = try #require(try JSONValue.parse(#"{"volume": 50, "desktopKeys": \#(value)}"#).objectMembers)
        let (settings, corrections) = Settings.decodeCorrecting(members: members)
        #expect(settings.desktopKeys == nil)
        #expect(settings.volume == 50, "the other fields are used")
        #expect(corrections.map(\.description) == [warning])
        #expect(throws: Settings.LoadError.self) { try Settings.decode(members: members) }
    }

    @Test func writtenOnlyWhenSet() throws {
        var settings = Settings()
        #expect(!String(decoding: settings.encoded, as: UTF8.self).contains("desktopKeys"))
        settings.desktopKeys = false
        let text = String(decoding: settings.encoded, as: UTF8.self)
        #expect(text.contains(#""desktopKeys" : false"#))
        #expect(try Settings.decode(settings.encoded) == settings)
        // A save that changes something else leaves the user's choice as written.
        var document = try SettingsDocument(parsing: Array(#"{"desktopKeys": true, "volume": 80}"#.utf8))
        let loaded = try document.settings()
        var changed = loaded
        changed.volume = 70
        document.update(from: loaded, to: changed)
        #expect(try document.settings().desktopKeys == true)
        #expect(String(decoding: document.encoded, as: UTF8.self).contains(#""desktopKeys" : true"#))
    }

    // MARK: Flags

    @Test func flags() throws {
        #expect(try Self.parse([]).desktopKeys == nil)
        #expect(try Self.parse(["--desktop-keys"]).desktopKeys == true)
        #expect(try Self.parse(["--no-desktop-keys"]).desktopKeys == false)
        #expect(try Self.parse(["--desktop-keys", "--no-desktop-keys"]).desktopKeys == false, "the last wins")
        #expect(try Self.parse(["--no-desktop-keys", "--system", "--desktop-keys"]).desktopKeys == true)
        #expect(Self.usageError(["--desktop-keys=no"]) == "--desktop-keys takes no value")
        #expect(LaunchOptions.usage.contains("--[no-]desktop-keys"))
        #expect(LaunchOptions.usage.contains("--desktop-keys  ") && LaunchOptions.usage.contains("--no-desktop-keys  "))
    }

    /// Flag, else setting, else system mode only — in both modes.
    @Test("which wins", arguments: [false, true], [nil, false, true] as [Bool?])
    func resolution(system: Bool, saved: Bool?) throws {
        var settings = Settings()
        settings.desktopKeys = saved
        let base = system ? ["--system"] : []
        #expect(try Self.parse(base).showsDesktopKeys(settings: settings) == (saved ?? system))
        #expect(try Self.parse(base + ["--desktop-keys"]).showsDesktopKeys(settings: settings))
        #expect(try !Self.parse(base + ["--no-desktop-keys"]).showsDesktopKeys(settings: settings))
        let configuration = try Self.parse(base).configuration(settings: settings, environment: [:])
        #expect(configuration.desktopKeys == (saved ?? system))
    }

    // MARK: Window sizes

    @Test func systemModeDefaultSizeFollowsTheRow() throws {
        var hidden = Settings()
        hidden.desktopKeys = false
        #expect(try Self.parse(["--system"]).configuration(settings: Settings(), environment: [:]).windowSize
                == Size(width: 480, height: 466))
        #expect(try Self.parse(["--system"]).configuration(settings: hidden, environment: [:]).windowSize
                == Size(width: 480, height: 418))
        #expect(try Self.parse(["--system", "--no-desktop-keys"]).configuration(settings: Settings(), environment: [:]).windowSize
                == Size(width: 480, height: 418))
    }

    @Test func hostScreenWithTheRowNeedsARowMore() throws {
        var settings = Settings()
        (settings.windowWidth, settings.windowHeight) = (320, 592)
        #expect(try Self.parse([]).configuration(settings: settings, environment: [:]).windowSize == Size(width: 320, height: 592))
        settings.desktopKeys = true
        // The saved size is raised, quietly, to the minimum with the row (as for a taller layout).
        #expect(try Self.parse([]).configuration(settings: settings, environment: [:]).windowSize == Size(width: 320, height: 640))
        #expect(KeyboardLayout.minimumWindowSize(for: .hostScreen, keyRows: 5) == Size(width: 320, height: 640))
    }

    @Test func sizeFlagAgainstTheRow() throws {
        // --desktop-keys: the minimum has the row; without the flag the saved setting may hide
        // it, so only the smaller minimum is a usage error and the rest is raised.
        #expect(Self.usageError(["--desktop-keys", "--size", "320x600"]) == "--size 320x600 is smaller than the minimum 320x640")
        #expect(try Self.parse(["--desktop-keys", "--size", "320x640"]).windowSize == Size(width: 320, height: 640))
        #expect(Self.usageError(["--system", "--desktop-keys", "--size", "320x370"]) == "--size 320x370 is smaller than the minimum 320x372 (--system)")
        #expect(Self.usageError(["--system", "--size", "320x323"]) == "--size 320x323 is smaller than the minimum 320x324 (--system)")
        let small = try Self.parse(["--system", "--size", "320x330"])
        #expect(small.configuration(settings: Settings(), environment: [:]).windowSize == Size(width: 320, height: 372))
        var hidden = Settings()
        hidden.desktopKeys = false
        #expect(small.configuration(settings: hidden, environment: [:]).windowSize == Size(width: 320, height: 330))
    }

    // MARK: Trace

    @Test func settingsLineSaysWhetherTheRowIsShown() throws {
        let line = TraceEvent.settings(try Self.parse(["--system"]).configuration(settings: Settings(), environment: [:]))
            .json(at: 0).serialized
        #expect(line.contains(#""scale":1,"desktopKeys":true}"#))
        let host = TraceEvent.settings(try Self.parse([]).configuration(settings: Settings(), environment: [:])).json(at: 0).serialized
        #expect(host.contains(#""desktopKeys":false"#))
    }

    @Test func modifierLines() {
        #expect(TraceEvent.modifier(.ctrl, .on).json(at: 1.25).serialized == #"{"event":"modifier","t":1.25,"key":"ctrl","state":"on"}"#)
        #expect(TraceEvent.modifier(.alt, .capsLock).json(at: 2).serialized == #"{"event":"modifier","t":2,"key":"alt","state":"locked"}"#)
        #expect(TraceEvent.modifier(.ctrl, .off).json(at: 3).serialized == #"{"event":"modifier","t":3,"key":"ctrl","state":"off"}"#)
    }

    @Test func sendLinesCarryTheirModifiers() {
        #expect(TraceEvent.send(.shortcut("c", modifiers: .control)).json(at: 1).serialized
                == #"{"event":"send","t":1,"key":"ctrl+c","modifiers":["ctrl"]}"#)
        #expect(TraceEvent.send(.shortcut("x", modifiers: .alt)).json(at: 1).serialized
                == #"{"event":"send","t":1,"key":"alt+x","modifiers":["alt"]}"#)
        #expect(TraceEvent.send(.key(.left, modifiers: [.control, .alt])).json(at: 1).serialized
                == #"{"event":"send","t":1,"key":"ctrl+alt+Left","modifiers":["ctrl","alt"]}"#)
        #expect(TraceEvent.send(.key(.escape)).json(at: 1).serialized == #"{"event":"send","t":1,"key":"Escape"}"#)
        #expect(TraceEvent.send(.key(.tab)).json(at: 1).serialized == #"{"event":"send","t":1,"key":"Tab"}"#)
        #expect(TraceEvent.send(.key(.up)).json(at: 1).serialized == #"{"event":"send","t":1,"key":"Up"}"#)
        #expect(TraceEvent.send(.key(.down)).json(at: 1).serialized == #"{"event":"send","t":1,"key":"Down"}"#)
        #expect(TraceEvent.send(.text("へぇ〜")).json(at: 1).serialized == #"{"event":"send","t":1,"text":"へぇ〜"}"#)
    }

    @Test func layoutLineNamesTheRowsKeys() {
        let line = TraceEvent.layout(KeyboardLayout(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system), scale: 1)
            .json(at: 0).serialized
        for key in ["esc", "tab", "ctrl", "alt", "left", "down", "up", "right"] { #expect(line.contains(#""\#(key)":{"x":"#), "\(key)") }
        let hidden = TraceEvent.layout(KeyboardLayout(windowSize: KeyboardLayout.defaultSystemWindowSize(keyRows: 4), mode: .system,
                                                      desktopKeys: false), scale: 1).json(at: 0).serialized
        #expect(!hidden.contains(#""ctrl":"#))
    }
}
