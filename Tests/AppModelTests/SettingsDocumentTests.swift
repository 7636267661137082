import AppModel
import KeyboardCore
import Testing

/// `SettingsDocument` (issue 11, item 4): a save changes only the fields the app changed and
/// keeps every member it does not know.
@Suite("SettingsDocument")
struct SettingsDocumentTests {
    static func document(_ json: String) throws -> SettingsDocument {
        try SettingsDocument(parsing: Array(json.utf8))
    }

    static func reparsed(_ document: SettingsDocument) throws -> JSONValue {
        try JSONValue.parse(String(decoding: document.encoded, as: UTF8.self))
    }

    static let userFile = """
        {"theme": "dark", "volume": 80, "plugins": {"enabled": ["a", "b"], "ratio": 2.5, "off": null},
         "windowWidth": 500, "windowHeight": 800, "mute": false, "x-future": [true, -1e-3]}
        """

    @Test func unknownMembersSurviveASave() throws {
        var document = try Self.document(Self.userFile)
        let loaded = try document.settings()
        var changed = loaded
        changed.volume = 70
        document.update(from: loaded, to: changed)
        let expected = try JSONValue.parse("""
            {"theme": "dark", "volume": 70, "plugins": {"enabled": ["a", "b"], "ratio": 2.5, "off": null},
             "windowWidth": 500, "windowHeight": 800, "mute": false, "x-future": [true, -0.001]}
            """)
        #expect(try Self.reparsed(document) == expected)
        #expect(try SettingsDocument(parsing: document.encoded).settings() == changed)
    }

    /// A file saved by an editor that writes a UTF-8 byte order mark reads like one without;
    /// the mark is not written back. A mark anywhere else is still an error.
    @Test func aByteOrderMarkBeforeTheObjectIsIgnored() throws {
        let withMark = [0xEF, 0xBB, 0xBF] + Array(Self.userFile.utf8)
        let document = try SettingsDocument(parsing: withMark)
        #expect(document == (try Self.document(Self.userFile)))
        #expect(try document.settings().volume == 80)
        #expect(!document.encoded.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(throws: Settings.LoadError.self) {
            try SettingsDocument(parsing: Array("{\"volume\": 80}".utf8) + [0xEF, 0xBB, 0xBF])
        }
    }

    @Test func nothingChangedLeavesTheDocumentAsItWas() throws {
        var document = try Self.document(Self.userFile)
        let before = document
        let loaded = try document.settings()
        document.update(from: loaded, to: loaded)
        #expect(document == before)
        #expect(document.members.map(\.0) == ["theme", "volume", "plugins", "windowWidth", "windowHeight", "mute", "x-future"])
    }

    @Test func fieldsTheAppDidNotChangeKeepTheFilesValue() throws {
        // The file was edited while the app ran (volume 30 by hand); the app changed only the
        // window width: the hand edit stays.
        var document = try Self.document(#"{"volume": 30, "windowWidth": 500, "windowHeight": 800}"#)
        var loaded = Settings()
        loaded.volume = 80
        loaded.windowWidth = 500
        var changed = loaded
        changed.windowWidth = 640
        document.update(from: loaded, to: changed)
        let settings = try document.settings()
        #expect(settings.volume == 30)
        #expect(settings.windowWidth == 640)
    }

    @Test func absentDefaultsAreNotWrittenUnlessChanged() throws {
        // A file with only the volume: saving a new volume does not add every other field.
        var document = try Self.document(#"{"volume": 30}"#)
        let loaded = try document.settings()
        var changed = loaded
        changed.volume = 40
        document.update(from: loaded, to: changed)
        #expect(document.members.map(\.0) == ["volume"])
    }

    @Test func limitIsAddedAndRemoved() throws {
        var document = try Self.document(#"{"limit": 20, "theme": "dark"}"#)
        let loaded = try document.settings()
        var none = loaded
        none.limit = nil
        document.update(from: loaded, to: none)
        #expect(document.members.map(\.0) == ["theme"])
        var twelve = none
        twelve.limit = 12
        document.update(from: none, to: twelve)
        #expect(try Self.reparsed(document) == JSONValue.parse(#"{"theme": "dark", "limit": 12}"#))
    }

    @Test func aRepeatedNameBecomesOneMemberWithTheNewValue() throws {
        var document = try Self.document(#"{"volume": 10, "a": 1, "volume": 20}"#)
        let loaded = try document.settings()
        #expect(loaded.volume == 20, "the last of a repeated name wins")
        var changed = loaded
        changed.volume = 50
        document.update(from: loaded, to: changed)
        #expect(try Self.reparsed(document) == JSONValue.parse(#"{"volume": 50, "a": 1}"#))
    }

    @Test func aNewDocumentHoldsEveryFieldSorted() throws {
        var document = SettingsDocument()
        document.update(from: nil, to: Settings())
        #expect(document.members.map(\.0) == ["mute", "volume", "windowHeight", "windowWidth"])
        #expect(document.encoded == Settings().encoded)
    }

    @Test func everyFieldIsAKnownKey() {
        // A field added to Settings must be listed in `keys`, or a save would not write it.
        var full = Settings()
        full.limit = 5
        full.maximized = true
        full.layout = "de"
        full.layouts = ["ja-kana", "en"]
        full.flickOnly = true
        full.desktopKeys = false
        full.autoShow = false
        full.emojiRecents = ["😀"]
        #expect(Set(full.members.map(\.0)) == Settings.keys)
    }

    /// The emoji keyboard's Frequently Used (issue 34): a list of at most 30 emoji, kept
    /// through a save; anything else is corrected to none.
    @Test func emojiRecentsAreKeptAndCheckedWhenRead() throws {
        var settings = Settings()
        settings.emojiRecents = ["👍🏽", "👨‍👩‍👧", "🇯🇵"]
        #expect(try Settings.decode(settings.encoded).emojiRecents == ["👍🏽", "👨‍👩‍👧", "🇯🇵"])
        let many = JSONValue.array(Array(repeating: .string("😀"), count: 31))
        for bad: JSONValue in [.string("😀"), .array([.integer(1)]), .array([.string("ab")]), many] {
            let (read, corrections) = Settings.decodeCorrecting(members: [("emojiRecents", bad)])
            #expect(read.emojiRecents == nil)
            #expect(corrections.map(\.field) == ["emojiRecents"])
        }
    }

    @Test("documents that are not a JSON object are refused", arguments: ["[1]", "3", "\"x\"", "{", ""])
    func notAnObject(_ text: String) {
        #expect(throws: Settings.LoadError.self) { try SettingsDocument(parsing: Array(text.utf8)) }
    }
}
