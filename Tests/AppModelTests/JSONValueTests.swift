import Foundation
import AppModel
import KeyboardCore
import Testing

/// Compact JSON with object keys in the order given.
@Suite("JSONValue")
struct JSONValueTests {
    /// Parses `text` with Foundation, proving it is valid JSON.
    static func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        (#"say "hee""#, #""say \"hee\"""#),
        (#"C:\dir"#, #""C:\\dir""#),
        ("a\nb", #""a\nb""#),
        ("a\tb", #""a\tb""#),
        ("a\rb", #""a\rb""#),
        ("へぇ〜 👍🏽 é", "\"へぇ〜 👍🏽 é\""),
        (#"\""#, #""\\\"""#),
    ])
    func stringEscaping(text: String, json: String) throws {
        let serialized = JSONValue.string(text).serialized
        #expect(serialized == json)
        #expect(try Self.parse(serialized) as? String == text)
    }

    @Test(arguments: Array(0x00...0x1F).map { UnicodeScalar(UInt8($0)) })
    func controlCharactersAreEscaped(scalar: UnicodeScalar) throws {
        let text = "a" + String(Character(scalar)) + "b"
        let serialized = JSONValue.string(text).serialized
        // No raw control character survives (RFC 8259 §7).
        #expect(!serialized.unicodeScalars.contains { $0.value < 0x20 })
        #expect(try Self.parse(serialized) as? String == text)
        if !["\n", "\r", "\t"].contains(Character(scalar)) {
            let hex = String(scalar.value, radix: 16)
            #expect(serialized.lowercased() == "\"a\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "b\"")
        }
    }

    /// DEL and the C1 controls are control characters too: written raw, U+0085 is a line end
    /// for some readers (Python's splitlines) and U+009B starts a terminal control sequence in a
    /// warning that shows the value (found by the settings fuzz target, issue 24).
    @Test(arguments: [0x7F, 0x80, 0x85, 0x9B, 0x9F])
    func delAndC1ControlsAreEscaped(value: UInt32) throws {
        let text = "a" + String(Character(Unicode.Scalar(value)!)) + "b"
        let serialized = JSONValue.string(text).serialized
        #expect(serialized == "\"a\\u00" + String(value, radix: 16) + "b\"")
        #expect(try Self.parse(serialized) as? String == text)
        #expect(try JSONValue.parse(serialized) == .string(text))
        // Their neighbours are written raw: U+00A0 (no-break space) and U+00C2 ('Â', the lead byte).
        #expect(JSONValue.string("\u{A0}\u{C2}").serialized == "\"\u{A0}\u{C2}\"")
    }

    @Test func nonASCIIIsWrittenRaw() {
        let serialized = JSONValue.string("へぇ〜🇯🇵").serialized
        #expect(!serialized.contains("\\u"))
        #expect(serialized.utf8.count == "へぇ〜🇯🇵".utf8.count + 2)
    }

    @Test func objectKeysKeepTheirOrder() throws {
        let value = JSONValue.object([("zeta", .integer(1)), ("alpha", .integer(2)), ("mid", .string("x"))])
        #expect(value.serialized == #"{"zeta":1,"alpha":2,"mid":"x"}"#)
        let parsed = try #require(try Self.parse(value.serialized) as? [String: Any])
        #expect(parsed["zeta"] as? Int == 1)
        #expect(parsed["alpha"] as? Int == 2)
        #expect(parsed["mid"] as? String == "x")
        // Same members in another order are another value.
        #expect(value != JSONValue.object([("alpha", .integer(2)), ("zeta", .integer(1)), ("mid", .string("x"))]))
    }

    @Test(arguments: [
        (JSONValue.number(480), "480"),
        (.number(0.5), "0.5"),
        (.number(-2.25), "-2.25"),
        (.number(0), "0"),
        (.number(.nan), "null"),
        (.number(.infinity), "null"),
        (.integer(-42), "-42"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.null, "null"),
        (.array([]), "[]"),
        (.object([]), "{}"),
        (.array([.integer(1), .string("a"), .null]), #"[1,"a",null]"#),
    ])
    func scalarsAndContainers(value: JSONValue, json: String) throws {
        #expect(value.serialized == json)
        _ = try Self.parse(value.serialized)
    }

    @Test func nestedValueRoundTrips() throws {
        let value = JSONValue.object([
            ("s", .string("\"\\\u{1}へ")),
            ("n", .number(331.8)),
            ("a", .array([.object([("k", .bool(true))]), .array([.null])])),
        ])
        let parsed = try #require(try Self.parse(value.serialized) as? [String: Any])
        #expect(parsed["s"] as? String == "\"\\\u{1}へ")
        #expect(parsed["n"] as? Double == 331.8)
        let array = try #require(parsed["a"] as? [Any])
        #expect((array[0] as? [String: Any])?["k"] as? Bool == true)
        #expect((array[1] as? [Any])?.first is NSNull)
    }
}
