import AppModel
import KeyboardCore
import Testing

/// `Settings.decodeCorrecting(members:)`: one invalid member does not cost the valid ones. The
/// valid members are used, the invalid one is clamped, rounded or defaulted, and each
/// correction names the member, its value and what was used.
@Suite("SettingsCorrection")
struct SettingsCorrectionTests {
    static func corrected(_ json: String) throws -> (settings: Settings, corrections: [Settings.Correction]) {
        try SettingsDocument(parsing: Array(json.utf8)).correctedSettings
    }

    @Test func validMembersAreKeptBesideAnInvalidOne() throws {
        let (settings, corrections) = try Self.corrected(#"{"volume": 150, "mute": true, "limit": 20, "windowWidth": 500, "windowHeight": 800, "theme": "dark"}"#)
        #expect(settings.volume == 100)
        #expect(settings.mute && settings.limit == 20 && settings.windowWidth == 500 && settings.windowHeight == 800)
        #expect(corrections == [Settings.Correction(field: "volume", written: "150", problem: "must be 0-100", used: "100")])
        #expect(corrections[0].description == #""volume" 150 must be 0-100, using 100"#)
    }

    @Test("numbers are clamped into range, fractions rounded", arguments: [
        (#"{"volume": 150}"#, "volume", 100),
        (#"{"volume": -5}"#, "volume", 0),
        (#"{"volume": 80.5}"#, "volume", 81),
        (#"{"volume": 80.4}"#, "volume", 80),
        (#"{"volume": 1e30}"#, "volume", 100),
        (#"{"volume": 1e400}"#, "volume", 100),
        (#"{"volume": -1e400}"#, "volume", 0),
        (#"{"windowWidth": 1e400}"#, "windowWidth", 16384),
        (#"{"limit": 100}"#, "limit", 99),
        (#"{"limit": 2.5}"#, "limit", 3),
        (#"{"windowWidth": 20000}"#, "windowWidth", 16384),
        (#"{"windowHeight": 10}"#, "windowHeight", Int(KeyboardLayout.minimumWindowSize.height)),
    ])
    func clamped(json: String, field: String, used: Int) throws {
        let (settings, corrections) = try Self.corrected(json)
        let value = ["volume": settings.volume, "limit": settings.limit ?? -1,
                     "windowWidth": settings.windowWidth, "windowHeight": settings.windowHeight][field]
        #expect(value == used, "\(json)")
        #expect(corrections.count == 1 && corrections[0].field == field && corrections[0].used == String(used), "\(corrections)")
    }

    /// The new-user trial's file: a number beyond Double's range costs only its field (the
    /// whole file was set aside as settings.json.bad, losing the volume beside it).
    @Test func aNumberBeyondDoubleCostsOnlyItsField() throws {
        let digits = "1" + String(repeating: "0", count: 5000)
        for json in [#"{"volume": 5, "windowWidth": 1e400}"#, #"{"volume": 5, "windowWidth": \#(digits)}"#] {
            let (settings, corrections) = try Self.corrected(json)
            #expect(settings.volume == 5 && settings.windowWidth == 16384, "\(settings)")
            #expect(corrections.map(\.field) == ["windowWidth"] && corrections[0].used == "16384", "\(corrections)")
        }
    }

    @Test func aLimitBelowOneMeansNoLimit() throws {
        for json in [#"{"limit": 0}"#, #"{"limit": -3}"#, #"{"limit": 0.2}"#] {
            let (settings, corrections) = try Self.corrected(json)
            #expect(settings.limit == nil, "\(json)")
            #expect(corrections.count == 1 && corrections[0].field == "limit" && corrections[0].used == "none", "\(json)")
        }
    }

    @Test("a value of the wrong type gets the default", arguments: [
        #"{"volume": "loud"}"#, #"{"volume": true}"#, #"{"mute": "yes"}"#, #"{"mute": 1}"#,
        #"{"limit": "20"}"#, #"{"windowWidth": [480]}"#, #"{"windowHeight": {"h": 800}}"#, #"{"maximized": "no"}"#,
    ])
    func wrongType(json: String) throws {
        let (settings, corrections) = try Self.corrected(json)
        #expect(settings == Settings(), "\(json)")
        #expect(corrections.count == 1 && corrections[0].problem.contains("wrong type"), "\(json): \(corrections)")
        #expect(!corrections[0].description.contains("\n"))
    }

    /// A value is shown in the warning as JSON with every control character escaped, so the
    /// warning stays one line and cannot drive the terminal (U+0085 next line, U+009B CSI, DEL;
    /// found by the settings fuzz target, issue 24).
    @Test func theWarningShowsControlCharactersEscaped() throws {
        let (_, corrections) = try Self.corrected(#"{"mute": "\u0085y\u009b2J\u007f", "volume": "\u001b[2J"}"#)
        let warning = corrections.map(\.description).joined(separator: "; ")
        #expect(!warning.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(warning.debugDescription)")
        #expect(corrections.map(\.written) == [#""\u0085y\u009b2J\u007f""#, #""\u001b[2J""#])
    }

    @Test func validFilesNeedNoCorrection() throws {
        let (settings, corrections) = try Self.corrected(#"{"volume": 40, "limit": null, "mute": null, "windowWidth": 600.0}"#)
        #expect(corrections.isEmpty)
        #expect(settings.volume == 40 && settings.limit == nil && !settings.mute && settings.windowWidth == 600)
    }

    @Test func everyInvalidMemberIsReported() throws {
        let (settings, corrections) = try Self.corrected(#"{"volume": 150, "limit": 0, "mute": "x"}"#)
        #expect(corrections.map(\.field) == ["mute", "volume", "limit"])
        #expect(settings.volume == 100 && settings.limit == nil && !settings.mute)
    }

    /// The document is not changed by a correction: a save writes only what the user changed.
    @Test func theDocumentKeepsTheInvalidMemberUntilTheUserChangesIt() throws {
        var document = try SettingsDocument(parsing: Array(#"{"volume": 150, "limit": 0, "theme": "dark"}"#.utf8))
        let loaded = document.correctedSettings.settings
        var changed = loaded
        changed.mute = true
        document.update(from: loaded, to: changed)
        #expect(String(decoding: document.encoded, as: UTF8.self) == "{\n  \"volume\" : 150,\n  \"limit\" : 0,\n  \"theme\" : \"dark\",\n  \"mute\" : true\n}\n")
        changed.volume = 70
        document.update(from: loaded, to: changed)
        #expect(try SettingsDocument(parsing: document.encoded).correctedSettings.settings.volume == 70)
    }
}
