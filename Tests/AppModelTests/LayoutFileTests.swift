import AppModel
import KeyboardCore
import Testing

/// Layout files (issue 20, "Layouts are data"): a bad file is refused with the place in it
/// (a JSON path, or line:column for text that is not JSON) and the reason; every case the
/// issue lists, and the file's types, fields and names.
@Suite("LayoutFile")
struct LayoutFileTests {
    /// A small valid layout: letters and numbers, each reachable from the other.
    static let valid = """
        {"name": "t", "columns": 10, "layers": [
         {"name": "letters", "rows": [["hee"], ["q", "w", "e"], [{"key": "123", "width": 1.5}, {"key": "space", "width": "fill"}]]},
         {"name": "numbers", "rows": [["hee"], ["1", "2"], [{"key": "ABC", "width": 1.35}, {"key": "space", "width": "fill"}]]}],
         "keys": {"123": {"layer": "numbers"}, "ABC": {"layer": "letters"}, "e": {"alternates": ["é", "è"]}}}
        """

    /// `valid` with `old` replaced by `new` (which must be there once).
    static func valid(replacing old: String, with new: String) -> String {
        let parts = valid.split(separator: old, omittingEmptySubsequences: false)
        precondition(parts.count == 2, "\(old) is in the valid layout \(parts.count - 1) times")
        return parts.joined(separator: new)
    }

    /// The problem reading `text` gives, or `nil` when it reads.
    static func problem(_ text: String, name: String? = nil) -> LayoutFile.Problem? {
        problem(Array(text.utf8), name: name)
    }

    static func problem(_ bytes: [UInt8], name: String? = nil) -> LayoutFile.Problem? {
        do {
            _ = try LayoutFile.read(bytes, name: name)
            return nil
        } catch {
            return error
        }
    }

    @Test func theValidLayoutReads() throws {
        let definition = try LayoutFile.read(Array(Self.valid.utf8), name: "t")
        #expect(definition.name == "t" && definition.columns == 10)
        #expect(definition.layers.map(\.name) == ["letters", "numbers"])
        #expect(definition.layers[0].rows[2] == [.key("123", width: .units(1.5)), .key(.space, width: .fill)])
        #expect(definition.action(of: "123") == .showLayer("numbers"))
        #expect(definition.alternates(of: "e") == ["é", "è"])
        #expect(definition.action(of: "q") == .character("q"))
    }

    @Test func everyKindOfRowItemAndKeyEntryReads() throws {
        let text = Self.valid(replacing: #"["q", "w", "e"]"#, with: #"""
            [{"key": "q", "rowSpan": 2}, {"gap": 0.5}, "w", "e", {"key": "x", "width": 2.0}, {"gap": "fill"}],
            [{"covered": 1}, {"gap": 0.5}, "a", {"key": "@", "width": 1}]
            """#).replacingFirst(#""e": {"#, with: #""x": {"types": "xy", "label": "XY"}, "e": {"#)
        let definition = try LayoutFile.read(Array(text.utf8))
        #expect(definition.layers[0].rows[1] == [.key("q", rowSpan: 2), .gap(.units(0.5)), .key("w"), .key("e"),
                                                 .key("x", width: .units(2)), .gap(.fill)])
        #expect(definition.layers[0].rows[2] == [.covered(.units(1)), .gap(.units(0.5)), .key("a"), .key("@")])
        #expect(definition.action(of: "x") == .character("xy") && definition.label(of: "x") == "XY")
    }

    @Test func aByteOrderMarkIsIgnored() {
        #expect(Self.problem([0xEF, 0xBB, 0xBF] + Array(Self.valid.utf8)) == nil)
    }

    // MARK: The issue's bad layouts, each with its exact place

    @Test func notJSONGivesLineAndColumn() {
        let problem = Self.problem("{\"name\": \"t\",\n  \"columns\": 10,\n  \"layers\": [}")
        #expect(problem == LayoutFile.Problem(place: "3:14", reason: "not valid JSON (unexpected character)"))
        #expect(problem?.description == "3:14: not valid JSON (unexpected character)")
        // Columns count characters, not bytes: "é" is one.
        #expect(Self.problem("{\"é\": x}")?.place == "1:7")
        #expect(Self.problem("")?.description == "1:1: not valid JSON (unexpected end)")
        #expect(Self.problem([0x7B, 0xFF, 0x7D]) == LayoutFile.Problem(place: nil, reason: "not UTF-8 text"))
    }

    @Test("a missing field is named by its path", arguments: [
        (#""name": "t", "#, "", "$.name", #"missing (a layout has "name", "columns" and "layers")"#),
        (#""columns": 10, "#, "", "$.columns", #"missing (a layout has "name", "columns" and "layers")"#),
        (#""name": "numbers", "#, "", "$.layers[1].name", #"missing (a layer has "name" and "rows")"#),
        (#", "rows": [["hee"], ["1", "2"], [{"key": "ABC", "width": 1.35}, {"key": "space", "width": "fill"}]]"#, "",
         "$.layers[1].rows", #"missing (a layer has "name" and "rows")"#),
        (#"{"key": "123", "width": 1.5}"#, #"{"width": 1.5}"#, "$.layers[0].rows[2][0]",
         #"a row item needs "key", "gap" or "covered""#),
    ])
    func missingField(old: String, new: String, place: String, reason: String) {
        #expect(Self.problem(Self.valid(replacing: old, with: new)) == LayoutFile.Problem(place: place, reason: reason))
    }

    @Test func aRowWiderThanTheLayoutIsRefusedAtTheRow() {
        // The issue's example: layer 1, row 2 holds 11.4 units in a 10-unit layout.
        let wide = #"["1", "2"], ["3", "4", "5", "6", "7", "8", "9", "0", "-", "/", {"key": ".", "width": 1.4}]"#
        let problem = Self.problem(Self.valid(replacing: #"["1", "2"]"#, with: wide))
        #expect(problem?.description == "$.layers[1].rows[2]: its keys are 11.4 units wide; a row holds 10")
        // One key wider than the row.
        #expect(Self.problem(Self.valid(replacing: #""width": 1.5}, {"key": "space""#, with: #""width": 12}, {"key": "space""#))
            == LayoutFile.Problem(place: "$.layers[0].rows[2][0]", reason: "width 12 is not above 0 and at most 10"))
    }

    @Test func aDuplicateIdIsRefused() {
        #expect(Self.problem(Self.valid(replacing: #"["q", "w", "e"]"#, with: #"["q", "w", "e", "w"]"#))
            == LayoutFile.Problem(place: "$.layers[0].rows[1][3]", reason: #"key "w" is in layer "letters" twice"#))
        // The same id twice among the key entries.
        #expect(Self.problem(Self.valid(replacing: #""e": {"alternates""#, with: #""e": {}, "e": {"alternates""#))
            == LayoutFile.Problem(place: #"$.keys["e"]"#, reason: "given twice"))
        // Two layers of one name.
        #expect(Self.problem(Self.valid(replacing: #""name": "numbers""#, with: #""name": "letters""#))?.place
            == "$.layers[1].name")
    }

    @Test func anUnreachableLayerIsRefused() {
        #expect(Self.problem(Self.valid(replacing: #""123": {"layer": "numbers"}, "#, with: ""))
            == LayoutFile.Problem(place: "$.layers[1]", reason: #"layer "numbers" cannot be reached: no key shows it"#))
        #expect(Self.problem(Self.valid(replacing: #""layer": "numbers""#, with: #""layer": "sym""#))
            == LayoutFile.Problem(place: #"$.keys["123"].layer"#, reason: #"no layer is named "sym""#))
    }

    // MARK: Types and fields

    @Test("a value of the wrong type is named by its path", arguments: [
        (#""columns": 10"#, #""columns": "10""#, "$.columns", #"expected a number, not "10""#),
        (#""name": "t""#, #""name": 5"#, "$.name", "expected a string, not 5"),
        (#"{"name": "t", "#, #"[{"name": "t", "#, "$", "expected a layout (a JSON object), not an array"),
        (#""name": "letters""#, #""name": ["letters"]"#, "$.layers[0].name", "expected a string, not an array"),
        (#""rows": [["hee"], ["1", "2"]"#, #""rows": {"a": [["hee"], ["1", "2"]"#, "$.layers[1].rows",
         "expected an array of rows, not an object"),
        (#"["q", "w", "e"]"#, #"["q", 5, "e"]"#, "$.layers[0].rows[1][1]",
         #"expected a key id or an object with "key", "gap" or "covered", not 5"#),
        (#"["q", "w", "e"]"#, #""q""#, "$.layers[0].rows[1]", #"expected an array of keys, not "q""#),
        (#""width": 1.5}, {"key": "space""#, #""width": "wide"}, {"key": "space""#, "$.layers[0].rows[2][0].width",
         #"expected a number of units or "fill", not "wide""#),
        (#"{"key": "123", "width": 1.5}"#, #"{"key": "123", "rowSpan": 1.5}"#, "$.layers[0].rows[2][0].rowSpan",
         "expected a whole number, not 1.5"),
        (#"{"key": "123", "width": 1.5}"#, #"{"key": 123}"#, "$.layers[0].rows[2][0].key", "expected a string, not 123"),
        (#"["é", "è"]"#, #"["é", 2]"#, #"$.keys["e"].alternates[1]"#, "expected a string, not 2"),
        (#"["é", "è"]"#, #""é""#, #"$.keys["e"].alternates"#, #"expected an array of strings, not "é""#),
        (#"{"layer": "numbers"}"#, #""numbers""#, #"$.keys["123"]"#,
         #"expected a key entry (a JSON object), not "numbers""#),
        (#""layers": ["#, #""layers": {"x": ["#, "$.layers", "expected an array of layers, not an object"),
        (#""layer": "numbers""#, #""layer": null"#, #"$.keys["123"].layer"#, "expected a string, not null"),
        (#""layer": "numbers""#, #""layer": """#, #"$.keys["123"].layer"#, "empty"),
    ])
    func wrongType(old: String, new: String, place: String, reason: String) {
        var text = Self.valid(replacing: old, with: new)
        if new.hasPrefix("[{") { text += "]" }
        if new.hasPrefix(#""rows": {"#) {
            text = text.replacingFirst(#"{"key": "space", "width": "fill"}]]}],"#, with: #"{"key": "space", "width": "fill"}]]}}],"#)
        }
        if new.hasPrefix(#""layers": {"#) { text = text.replacingFirst(#"]}],"#, with: #"]}]},"#) }
        #expect(Self.problem(text) == LayoutFile.Problem(place: place, reason: reason), "\(text)")
    }

    @Test("an unknown field is refused at its path", arguments: [
        (#""columns": 10"#, #""columns": 10, "colour": "grey""#, "$.colour", #"a layout has "name", "columns", "layers", "desktopRow" and "keys""#),
        (#""name": "letters""#, #""name": "letters", "hidden": true"#, "$.layers[0].hidden", #"a layer has "name" and "rows""#),
        (#""width": 1.5}, {"key": "space""#, #""width": 1.5, "height": 2}, {"key": "space""#, "$.layers[0].rows[2][0].height",
         #"a key has "key", "width" and "rowSpan""#),
        (#"{"layer": "numbers"}"#, #"{"layer": "numbers", "sound": "click"}"#, #"$.keys["123"].sound"#,
         #"a key entry has "layer", "types", "label", "alternates", "flick", "cycle" and "forms""#),
        (#"["q", "w", "e"]"#, #"["q", {"gap": 1, "width": 2}, "e"]"#, "$.layers[0].rows[1][1].width", #"a gap has "gap""#),
        (#""columns": 10"#, #""columns": 10, "a b": 1"#, #"$["a b"]"#, #"a layout has "name", "columns", "layers", "desktopRow" and "keys""#),
    ])
    func unknownField(old: String, new: String, place: String, fields: String) {
        #expect(Self.problem(Self.valid(replacing: old, with: new))
            == LayoutFile.Problem(place: place, reason: "unknown field (\(fields))"))
    }

    @Test func aFieldGivenTwiceIsRefused() {
        #expect(Self.problem(Self.valid(replacing: #""columns": 10"#, with: #""columns": 10, "columns": 11"#))
            == LayoutFile.Problem(place: "$.columns", reason: "given twice"))
    }

    @Test func anItemOfTwoKindsIsRefused() {
        #expect(Self.problem(Self.valid(replacing: #"{"key": "123", "width": 1.5}"#, with: #"{"key": "123", "gap": 1.5}"#))
            == LayoutFile.Problem(place: "$.layers[0].rows[2][0]", reason: #"a row item has only one of "key", "gap" or "covered", not "key" and "gap""#))
    }

    /// A name from the file quoted in a problem has its control characters escaped: the
    /// problem stays one line (the layout-file fuzz target found a layer name with DEL).
    @Test func namesInProblemsHaveTheirControlCharactersEscaped() throws {
        let problem = try #require(Self.problem(Self.valid(replacing: #""layer": "numbers"}"#, with: #""layer": "num\u007f\nbers"}"#)))
        #expect(problem == LayoutFile.Problem(place: #"$.keys["123"].layer"#, reason: #"no layer is named "num\u007f\nbers""#))
        #expect(!problem.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    /// No layers is said as such, not as keys placed in no layer (a new-user trial).
    @Test func aLayoutWithoutLayersIsRefusedAtItsLayers() {
        #expect(Self.problem(#"{"name": "t", "columns": 10, "layers": [], "keys": {"123": {"layer": "numbers"}}}"#)
            == LayoutFile.Problem(place: "$.layers", reason: "a layout needs at least one layer"))
    }

    @Test func aKeyEntryMustBeAboutAKeyThatIsThere() {
        #expect(Self.problem(Self.valid(replacing: #""e": {"#, with: #""\"": {"label": "q"}, "e": {"#))
            == LayoutFile.Problem(place: #"$.keys["\""]"#, reason: #"no layer has key "\"""#))
        #expect(Self.problem(Self.valid(replacing: #""layer": "numbers"}"#, with: #""layer": "numbers", "types": "1"}"#))
            == LayoutFile.Problem(place: #"$.keys["123"].types"#, reason: "a key either shows a layer or types text, not both"))
        // The keyboard's own keys take a label only.
        #expect(Self.problem(Self.valid(replacing: #""e": {"#, with: #""space": {"types": " "}, "e": {"#))
            == LayoutFile.Problem(place: #"$.keys["space"].types"#, reason: #""space" is the keyboard's own key; a layout file gives it a label only"#))
        #expect(Self.problem(Self.valid(replacing: #""e": {"#, with: #""space": {"label": "Leerzeichen"}, "e": {"#)) == nil)
        #expect(Self.problem(Self.valid(replacing: #""e": {"#, with: #""space": {"alternates": ["x"]}, "e": {"#))
            == LayoutFile.Problem(place: #"$.keys["space"].alternates"#, reason: "only a key that types characters has alternates"))
    }

    @Test func theNameMustBeALayoutNameAndTheFiles() {
        #expect(Self.problem(Self.valid, name: "t") == nil)
        #expect(Self.problem(Self.valid, name: "mine")
            == LayoutFile.Problem(place: "$.name", reason: #""t" is not the file's name "mine""#))
        #expect(Self.problem(Self.valid(replacing: #""name": "t""#, with: #""name": "../t""#))
            == LayoutFile.Problem(place: "$.name", reason: #""../t" is not a layout name (1-64 letters, digits, '-' and '_')"#))
    }

    @Test func layoutNames() {
        for good in ["en", "de", "de-CH", "my_layout2", String(repeating: "a", count: 64)] {
            #expect(LayoutFile.isValidName(good), "\(good)")
        }
        for bad in ["", ".", "..", "a/b", "../en", "en.json", "a b", "é", String(repeating: "a", count: 65)] {
            #expect(!LayoutFile.isValidName(bad), "\(bad)")
        }
    }
}

extension String {
    /// The string with the first `old` replaced by `new`.
    func replacingFirst(_ old: String, with new: String) -> String {
        var parts = split(separator: old, maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return self }
        parts.insert(new, at: 1)
        return parts.joined()
    }
}
