import AppModel
import KeyboardCore
import Testing

/// The JSON reader behind settings and replay files (RFC 8259).
struct JSONParsingTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue.parse(#" {"a": [1, -2, 3.5, 1e3, -0.25E-2], "b": true, "c": false, "d": null, "e": "x\"y\\z\u00e9\n", "f": {}} "#)
        let members = try #require(value.objectMembers)
        #expect(members.map(\.0) == ["a", "b", "c", "d", "e", "f"], "member order kept")
        #expect(members[0].1 == .array([.integer(1), .integer(-2), .number(3.5), .number(1000), .number(-0.0025)]))
        #expect(members[1].1 == .bool(true) && members[2].1 == .bool(false) && members[3].1 == .null)
        #expect(members[4].1 == .string("x\"y\\zé\n"))
        #expect(members[5].1 == .object([]))
    }

    @Test func surrogatePairsAndNonASCII() throws {
        #expect(try JSONValue.parse(#""\ud83d\udc4d""#) == .string("👍"))
        #expect(try JSONValue.parse("\"へぇ〜\"") == .string("へぇ〜"))
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(#""\ud83d""#) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(#""\udc4d""#) }
    }

    /// What the app writes, it reads back unchanged.
    @Test func roundTripsSerializedValues() throws {
        let value = JSONValue.object([("t", .integer(12)), ("text", .string("tab\there \u{2028} \"q\" \\ \u{1}")),
                                      ("x", .number(0.125)), ("list", .array([.bool(true), .null]))])
        #expect(try JSONValue.parse(value.serialized) == value)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "tru", "\"abc", "\"a\u{1}b\"",
                      "{} {}", "[1 2]", "\"\\x\"", "{1:2}", "nul", "+1"])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(text) }
    }

    /// A number too large for a Double is still JSON: it reads as the largest finite Double of
    /// its sign (the member is then out of range for its reader), never as a parse error.
    @Test func numbersBeyondDoubleReadAsTheLargestFinite() throws {
        let huge = "9" + String(repeating: "0", count: 5000)
        #expect(try JSONValue.parse("[1e400, -1e400, \(huge), 1e-400]")
                == .array([.number(.greatestFiniteMagnitude), .number(-.greatestFiniteMagnitude),
                           .number(.greatestFiniteMagnitude), .number(0)]))
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONValue.parse(fine)) != nil)
    }
}
