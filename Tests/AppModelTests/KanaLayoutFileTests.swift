import AppModel
import Foundation
import KeyboardCore
import Testing

/// The kana pad in layout files (issue 22): `layouts/ja-kana.json` is the built-in 日本語かな
/// layout exactly (its flick tables, toggle cycles and 「゛゜小」 forms are data there); a bad
/// kana entry is refused at its JSON path; the `layouts` and `flickOnly` settings.
@Suite("Kana layout file")
struct KanaLayoutFileTests {
    @Test func jaKanaJSONIsTheBuiltInKanaLayout() throws {
        let file = try ShippedLayoutTests.read("ja-kana")
        #expect(file.layers == LayoutDefinition.japaneseKana.layers)
        #expect(file.keys == LayoutDefinition.japaneseKana.keys)
        #expect(file.desktopRow == LayoutDefinition.japaneseKana.desktopRow)
        #expect(file == LayoutDefinition.japaneseKana)
        for key in KanaKey.standard {
            #expect(file.kanaKey(KeyID(key.id)) == key, "\(key.id)'s table is iOS's")
        }
        #expect(file.kanaModifiers == KanaModifierTable.standard)
        #expect(file.hasKanaPad && !LayoutDefinition.english.hasKanaPad)
    }

    /// A one-layer kana layout with `entry` as the key `あ`'s entry.
    static func kana(_ entry: String, extraKeys: String = "") -> String {
        """
        {"name": "k", "columns": 5, "layers": [{"name": "kana", "rows": [["hee"], ["あ", "゛゜小", "か"]]}],
         "keys": {"あ": \(entry)\(extraKeys)}}
        """
    }

    @Test func aFlickKeyReads() throws {
        let definition = try LayoutFile.read(Array(Self.kana(#"{"flick": ["あ", null, "う"], "label": "あ"}"#).utf8))
        let key = try #require(definition.kanaKey("あ"))
        #expect(key.flicks == FlickTargets(center: "あ", left: nil, up: "う", right: nil, down: nil))
        #expect(key.cycle == ["あ", "う"])
        #expect(definition.hasKanaPad)
        #expect(definition.kanaModifiers == .standard, "no forms: the standard table")
    }

    @Test("a bad kana entry is refused at its path", arguments: [
        (#"{"flick": []}"#, "$.keys[\"あ\"].flick", "expected 1 to 5 kana (tap, left, up, right, down), not 0"),
        (#"{"flick": ["あ", "い", "う", "え", "お", "ぁ"]}"#, "$.keys[\"あ\"].flick", "expected 1 to 5 kana (tap, left, up, right, down), not 6"),
        (#"{"flick": [null, "い"]}"#, "$.keys[\"あ\"].flick[0]", "expected a string, not null"),
        (#"{"flick": ["あ", ""]}"#, "$.keys[\"あ\"].flick[1]", "empty"),
        (#"{"flick": ["あ", 3]}"#, "$.keys[\"あ\"].flick[1]", "expected a string, not 3"),
        (#"{"flick": "あいうえお"}"#, "$.keys[\"あ\"].flick", "expected an array of kana (tap, left, up, right, down), not \"あいうえお\""),
        (#"{"flick": ["あ"], "cycle": ["い", "あ"]}"#, "$.keys[\"あ\"].cycle", "a toggle cycle starts with the tap kana \"あ\""),
        (#"{"flick": ["あ"], "cycle": ["あ", ""]}"#, "$.keys[\"あ\"].cycle[1]", "empty"),
        (#"{"cycle": ["あ"]}"#, "$.keys[\"あ\"].cycle", "only a flick key (one with \"flick\") has a toggle cycle"),
        (#"{"flick": ["あ"], "types": "a"}"#, "$.keys[\"あ\"].flick", "a key either flicks kana or types text, not both"),
        (#"{"flick": ["あ"], "alternates": ["ア"]}"#, "$.keys[\"あ\"].alternates", "only a key that types characters has alternates"),
        (#"{"forms": [["か", null, "が"]]}"#, "$.keys[\"あ\"].forms", "only the \"゛゜小\" key has forms"),
    ])
    func badKanaEntry(entry: String, place: String, reason: String) {
        let problem = LayoutFileTests.problem(Self.kana(entry))
        #expect(problem == LayoutFile.Problem(place: place, reason: reason))
    }

    @Test("bad forms are refused at their path", arguments: [
        (#"[["か", null, "が"], "は"]"#, "$.keys[\"゛゜小\"].forms[1]", "expected an array of kana (base, small, ゛, ゜), not \"は\""),
        (#"[[]]"#, "$.keys[\"゛゜小\"].forms[0]", "expected 1 to 4 kana (base, small, ゛, ゜), not 0"),
        (#"[["か", null, "が"], ["が"]]"#, "$.keys[\"゛゜小\"].forms[1][0]", "\"が\" is in an earlier entry"),
        (#"[[null, "ぁ"]]"#, "$.keys[\"゛゜小\"].forms[0][0]", "expected a string, not null"),
    ])
    func badForms(forms: String, place: String, reason: String) {
        let problem = LayoutFileTests.problem(Self.kana(#"{"flick": ["あ"]}"#, extraKeys: #", "゛゜小": {"forms": \#(forms)}"#))
        #expect(problem == LayoutFile.Problem(place: place, reason: reason))
    }

    @Test func formsBecomeTheModifiersTable() throws {
        let text = Self.kana(#"{"flick": ["あ"]}"#, extraKeys: #", "゛゜小": {"forms": [["か", null, "が"], ["は", null, "ば", "ぱ"]]}"#)
        let definition = try LayoutFile.read(Array(text.utf8))
        #expect(definition.kanaModifiers.tapped("は") == "ば")
        #expect(definition.kanaModifiers.tapped("あ") == nil, "only what the file lists")
    }

    @Test func theReservedKanaKeysTakeALabelOnly() {
        let text = Self.kana(#"{"flick": ["あ"]}"#, extraKeys: #", "゛゜小": {"types": "x"}"#)
        #expect(LayoutFileTests.problem(text) == LayoutFile.Problem(
            place: "$.keys[\"゛゜小\"].types", reason: "\"゛゜小\" is the keyboard's own key; a layout file gives it a label only"))
    }

    @Test func theLayoutsSetting() {
        func decode(_ value: JSONValue) -> (Settings, [Settings.Correction]) {
            let result = Settings.decodeCorrecting(members: [("layouts", value)])
            return (result.settings, result.corrections)
        }
        #expect(decode(.array([.string("ja-kana"), .string("de")])).0.layouts == ["ja-kana", "de"])
        #expect(Settings().layouts == nil && Settings.defaultLayouts == ["en", "ja-kana", "emoji"])
        for bad: JSONValue in [.array([]), .string("en"), .array([.string("en"), .string("en")]), .array([.string("a/b")]),
                               .array([.integer(1)])] {
            let (settings, corrections) = decode(bad)
            #expect(settings.layouts == nil)
            #expect(corrections.map(\.field) == ["layouts"])
            #expect(corrections.first?.used == "en, ja-kana, emoji")
        }
        var settings = Settings()
        settings.layouts = ["ja-kana"]
        settings.flickOnly = true
        #expect(Settings.decodeCorrecting(members: settings.members).settings == settings)
        #expect(Settings.decodeCorrecting(members: [("flickOnly", .string("yes"))]).corrections.map(\.field) == ["flickOnly"])
    }
}
