import AppModel
import KeyboardCore
import Testing

/// `settings.json` (issue 6, "Settings"): what loads, what is refused and why, and how the
/// command line's flags sit on top of the saved values.
@Suite("Settings")
struct SettingsTests {
    static func bytes(_ json: String) -> [UInt8] { Array(json.utf8) }

    /// The `LoadError` that decoding `json` throws, or `nil` if it loads.
    static func loadError(_ json: String) -> Settings.LoadError? {
        do {
            _ = try Settings.decode(bytes(json))
            return nil
        } catch {
            return error
        }
    }

    static func usageError(_ arguments: [String]) -> LaunchOptions.UsageError? {
        do {
            _ = try LaunchOptions.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    static var saved: Settings {
        var s = Settings()
        s.mute = true
        s.volume = 40
        s.windowWidth = 600
        s.windowHeight = 900
        s.limit = 20
        return s
    }

    // MARK: Round trip and defaults

    @Test func roundTripKeepsEveryField() throws {
        let original = Self.saved
        let decoded = try Settings.decode(original.encoded)
        #expect(decoded == original)
        var noLimit = original
        noLimit.limit = nil
        #expect(try Settings.decode(noLimit.encoded) == noLimit)
        #expect(try Settings.decode(Settings().encoded) == Settings())
    }

    @Test func encodedIsSortedPrettyJSONEndingInANewline() throws {
        let text = String(decoding: Self.saved.encoded, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\n  \"volume\" : 40"), "pretty-printed: \(text)")
        let keys = ["limit", "mute", "volume", "windowHeight", "windowWidth"]
        let positions = keys.compactMap { text.range(of: "\"\($0)\"")?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted(), "keys not sorted: \(text)")
        var noLimit = Self.saved
        noLimit.limit = nil
        #expect(!String(decoding: noLimit.encoded, as: UTF8.self).contains("limit"))
    }

    @Test func defaults() {
        let d = Settings()
        #expect(!d.mute && d.volume == 100 && d.limit == nil)
        #expect(d.windowWidth == 480 && d.windowHeight == 800)
        #expect(d.windowSize == KeyboardLayout.defaultWindowSize)
    }

    @Test func missingFieldsTakeTheirDefaults() throws {
        #expect(try Settings.decode(Self.bytes("{}")) == Settings())
        #expect(try Settings.decode(Self.bytes(" {\n}\n")) == Settings())
        let volumeOnly = try Settings.decode(Self.bytes(#"{"volume": 30}"#))
        var expected = Settings()
        expected.volume = 30
        #expect(volumeOnly == expected)
        let sizeOnly = try Settings.decode(Self.bytes(#"{"windowWidth": 700, "windowHeight": 1000}"#))
        #expect(sizeOnly.windowSize == Size(width: 700, height: 1000) && sizeOnly.volume == 100 && !sizeOnly.mute)
        let limitOnly = try Settings.decode(Self.bytes(#"{"limit": 20, "future": [1, 2]}"#))
        #expect(limitOnly.limit == 20 && limitOnly.volume == 100, "unknown keys are ignored")
    }

    @Test func valuesAtTheEdgesLoad() throws {
        let minimum = KeyboardLayout.minimumWindowSize
        let json = #"{"mute": true, "volume": 0, "limit": 1, "windowWidth": \#(Int(minimum.width)), "windowHeight": \#(Int(minimum.height))}"#
        let low = try Settings.decode(Self.bytes(json))
        #expect(low.mute && low.volume == 0 && low.limit == 1 && low.windowSize == minimum)
        let high = try Settings.decode(Self.bytes(#"{"volume": 100, "limit": 99, "windowWidth": 16384, "windowHeight": 16384}"#))
        #expect(high.volume == 100 && high.limit == 99 && high.windowWidth == 16384)
    }

    // MARK: Invalid files

    static let minimum = KeyboardLayout.minimumWindowSize

    @Test("invalid values are refused with a one-line message naming the field", arguments: [
        (#"{"volume": -1}"#, "volume"),
        (#"{"volume": 101}"#, "volume"),
        (#"{"limit": 0}"#, "limit"),
        (#"{"limit": 100}"#, "limit"),
        (#"{"windowWidth": \#(Int(minimum.width) - 1)}"#, "windowWidth"),
        (#"{"windowHeight": \#(Int(minimum.height) - 1)}"#, "windowHeight"),
        (#"{"windowWidth": 16385}"#, "windowWidth"),
        (#"{"volume": "loud"}"#, "volume"),
        (#"{"volume": true}"#, "volume"),
        (#"{"volume": 50.5}"#, "volume"),
        (#"{"limit": 2.5}"#, "limit"),
        (#"{"windowWidth": 1e30}"#, "windowWidth"),
        (#"{"mute": "yes"}"#, "mute"),
        (#"{"mute": 1}"#, "mute"),
        (#"{"limit": "20"}"#, "limit"),
        (#"{"windowWidth": [480]}"#, "windowWidth"),
        (#"{"windowHeight": {"h": 800}}"#, "windowHeight"),
    ])
    func invalidValues(json: String, field: String) throws {
        let error = try #require(Self.loadError(json), "accepted \(json)")
        #expect(error.message.contains("\"\(field)\""), "\(json): \(error.message)")
        #expect(!error.message.contains("\n"))
        #expect(error.description == error.message)
    }

    @Test func rangeMessagesSayTheRange() throws {
        #expect(Self.loadError(#"{"volume": 101}"#)?.message.contains("0-100") == true)
        #expect(Self.loadError(#"{"limit": 0}"#)?.message.contains("1-99") == true)
        let size = "\(Int(Self.minimum.width))x\(Int(Self.minimum.height))"
        #expect(Self.loadError(#"{"windowHeight": 10}"#)?.message.contains(size) == true)
        #expect(Self.loadError(#"{"volume": "x"}"#)?.message.contains("wrong type") == true)
    }

    @Test("JSON that is not an object is refused", arguments: [
        "[]", "[{\"volume\": 50}]", "42", "\"settings\"", "null",
    ])
    func notAJSONObject(json: String) throws {
        let error = try #require(Self.loadError(json), "accepted \(json.debugDescription)")
        #expect(error.message == "not a JSON object", "\(json.debugDescription): \(error.message)")
    }

    /// Text that is not JSON at all says so, and where reading stopped (a truncated file).
    @Test("text that is not JSON is refused", arguments: ["", "{", "not json", "\u{FEFF}{", "{\"volume\":"])
    func notJSON(text: String) throws {
        let error = try #require(Self.loadError(text), "accepted \(text.debugDescription)")
        #expect(error.message.hasPrefix("not valid JSON"), "\(text.debugDescription): \(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test func invalidUTF8IsRefused() throws {
        #expect(throws: Settings.LoadError.self) { try Settings.decode([0x7B, 0xFF, 0xFE, 0x7D]) }
    }

    // MARK: Flags over settings

    @Test func withoutFlagsTheFileDecides() throws {
        guard case .run(let options) = try LaunchOptions.parse([]) else { Issue.record("not .run"); return }
        let c = options.configuration(settings: Self.saved, environment: [:])
        #expect(c.mute && c.volume == 40 && c.limit == 20 && c.windowSize == Size(width: 600, height: 900))
        let d = options.configuration(settings: Settings(), environment: [:])
        #expect(!d.mute && d.volume == 100 && d.limit == nil && d.windowSize == KeyboardLayout.defaultWindowSize)
    }

    @Test func flagsOverrideTheFileForTheRun() throws {
        guard case .run(let options) = try LaunchOptions.parse(["--volume", "70", "--limit=5", "--size", "700x1000", "--lang", "ja"])
        else { Issue.record("not .run"); return }
        var file = Self.saved
        file.mute = false
        let c = options.configuration(settings: file, environment: ["LANG": "en_US.UTF-8"])
        #expect(c.volume == 70 && c.limit == 5 && c.windowSize == Size(width: 700, height: 1000) && c.language == .ja)
        #expect(!c.mute)
        var unchanged = Self.saved
        unchanged.mute = false
        #expect(file == unchanged, "the settings are not changed")

        guard case .run(let muted) = try LaunchOptions.parse(["--mute", "--volume", "0"]) else { Issue.record("not .run"); return }
        let m = muted.configuration(settings: Settings(), environment: [:])
        #expect(m.mute && m.volume == 0 && m.limit == nil)
        guard case .run(let limited) = try LaunchOptions.parse(["--limit", "99"]) else { Issue.record("not .run"); return }
        #expect(limited.configuration(settings: Self.saved, environment: [:]).limit == 99)
        #expect(limited.configuration(settings: Self.saved, environment: [:]).volume == 40)
    }

    @Test func lastFlagWins() throws {
        guard case .run(let options) = try LaunchOptions.parse(["--volume", "10", "--volume=20", "--lang", "ja", "--lang=en"])
        else { Issue.record("not .run"); return }
        #expect(options.volume == 20 && options.language == .en)
    }

    // MARK: Language

    @Test("the language comes from LC_ALL, then LC_MESSAGES, then LANG", arguments: [
        ([:], Language.en),
        (["LANG": "ja_JP.UTF-8"], .ja),
        (["LANG": "ja_JP.utf8"], .ja),
        (["LANG": "ja"], .ja),
        (["LANG": "JA_JP.UTF-8"], .ja),
        (["LANG": "C"], .en),
        (["LANG": "POSIX"], .en),
        (["LANG": "C.UTF-8"], .en),
        (["LANG": "en_GB.UTF-8"], .en),
        (["LANG": "de_DE.UTF-8"], .en),
        (["LANG": ""], .en),
        (["LC_MESSAGES": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"], .ja),
        (["LC_MESSAGES": "C", "LANG": "ja_JP.UTF-8"], .en),
        (["LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "en_US.UTF-8", "LANG": "en_US.UTF-8"], .ja),
        (["LC_ALL": "C", "LC_MESSAGES": "ja_JP.UTF-8", "LANG": "ja_JP.UTF-8"], .en),
        (["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja_JP.UTF-8"], .ja),
        (["LC_ALL": "", "LANG": "C"], .en),
        (["LC_CTYPE": "ja_JP.UTF-8"], .en),
    ] as [([String: String], Language)])
    func languageFromLocale(environment: [String: String], expected: Language) throws {
        #expect(Language.fromLocale(environment: environment) == expected, "\(environment)")
        guard case .run(let options) = try LaunchOptions.parse([]) else { Issue.record("not .run"); return }
        #expect(options.configuration(settings: Settings(), environment: environment).language == expected)
    }

    @Test func langFlagBeatsTheLocale() throws {
        let japanese = ["LC_ALL": "ja_JP.UTF-8", "LANG": "ja_JP.UTF-8"]
        guard case .run(let en) = try LaunchOptions.parse(["--lang", "en"]) else { Issue.record("not .run"); return }
        #expect(en.configuration(settings: Settings(), environment: japanese).language == .en)
        guard case .run(let ja) = try LaunchOptions.parse(["--lang=ja"]) else { Issue.record("not .run"); return }
        #expect(ja.configuration(settings: Settings(), environment: ["LC_ALL": "C"]).language == .ja)
        #expect(ja.configuration(settings: Settings(), environment: [:]).language == .ja)
    }

    // MARK: Parse errors

    @Test("--lang, --volume and --limit errors are one-line UsageErrors", arguments: [
        (["--lang"], "--lang"),
        (["--lang", "fr"], "fr"),
        (["--lang", "JA"], "JA"),
        (["--lang="], "--lang"),
        (["--volume"], "--volume"),
        (["--volume", "-1"], "-1"),
        (["--volume", "101"], "101"),
        (["--volume", "50.5"], "50.5"),
        (["--volume", "loud"], "loud"),
        (["--volume="], "--volume"),
        (["--limit"], "--limit"),
        (["--limit", "0"], "'0'"),
        (["--limit", "100"], "100"),
        (["--limit", "-3"], "-3"),
        (["--limit", "twenty"], "twenty"),
        (["--limit=", "5"], "--limit"),
    ])
    func usageErrors(arguments: [String], mentioned: String) throws {
        let e = try #require(Self.usageError(arguments), "\(arguments) was accepted")
        #expect(!e.message.contains("\n"))
        #expect(e.message.contains(mentioned), "\(e.message)")
        let flag = String(arguments[0].prefix { $0 != "=" })
        #expect(e.message.contains(flag), "\(e.message)")
    }

    @Test func usageListsTheNewFlagsWithDefaults() {
        for flag in ["--volume N", "--limit N", "--lang ja|en", "--scale F", "--record FILE", "--replay FILE", "--exit-when-done"] {
            #expect(LaunchOptions.usage.contains(flag), "\(flag)")
        }
        #expect(LaunchOptions.usage.ranges(of: "default").count >= 7)
    }
}

/// `--no-mute` turns sound on for one run when the saved settings say mute.
struct NoMuteTests {
    @Test func noMuteOverridesASavedMute() throws {
        var saved = Settings()
        saved.mute = true
        guard case .run(let plain) = try LaunchOptions.parse([]),
              case .run(let unmuted) = try LaunchOptions.parse(["--no-mute"]),
              case .run(let last) = try LaunchOptions.parse(["--no-mute", "--mute"]) else {
            Issue.record("expected .run")
            return
        }
        #expect(plain.configuration(settings: saved, environment: [:]).mute)
        #expect(!unmuted.configuration(settings: saved, environment: [:]).mute)
        #expect(last.configuration(settings: Settings(), environment: [:]).mute, "the last of --mute / --no-mute wins")
    }
}
