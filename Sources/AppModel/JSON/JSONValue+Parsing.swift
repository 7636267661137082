import KeyboardCore
/// Reading JSON (RFC 8259) into `JSONValue`: the settings file and replay lines.
///
/// The app keeps Foundation out of its process (it costs 3 MB of memory and start-up time
/// for two small formats), so this is the one JSON reader: a recursive-descent parser over
/// UTF-8 bytes. Objects keep their members' order; a number without fraction or exponent
/// that fits an `Int` is an `.integer`, any other a `.number`.
extension JSONValue {
    /// Text that is not JSON; `offset` is the byte where reading stopped.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "not valid JSON (\(reason) at byte \(offset))" }
    }

    /// Parses `text`, which must hold exactly one JSON value (whitespace around it allowed).
    /// - Throws: `ParseError` at the first thing that is not JSON.
    /// - Complexity: O(n) in the text's length; nesting deeper than 512 levels is refused.
    public static func parse(_ text: String) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("extra text after the value") }
        return value
    }

    /// The members of an object, or `nil` for other values.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func error(_ reason: String) -> ParseError { ParseError(offset: index, reason: reason) }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 512 else { throw error("nested too deeply") }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: String) throws(ParseError) {
            let w = Array(word.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
                throw error("unexpected character")
            }
            index += w.count
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(ParseError) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { throw error("expected \(what)") }
            index += 1
        }

        mutating func object(depth: Int) throws(ParseError) -> JSONValue {
            index += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try string()
                try expect(UInt8(ascii: ":"), "':'")
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw error("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("short \\u escape") }
            var v: UInt32 = 0
            for b in bytes[index..<index + 4] {
                v <<= 4
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v |= UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v |= UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): v |= UInt32(b - UInt8(ascii: "A") + 10)
                default: throw error("bad \\u escape")
                }
            }
            index += 4
            return v
        }

        mutating func string() throws(ParseError) -> String {
            index += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let b = bytes[index]
                index += 1
                switch b {
                case UInt8(ascii: "\""):
                    guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
                    return s
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw error("unterminated string") }
                    let e = bytes[index]
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code) {
                            // A surrogate pair: the low half must follow as another \u escape.
                            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                  bytes[index + 1] == UInt8(ascii: "u") else { throw error("lone surrogate") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("lone surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(code) {
                            throw error("lone surrogate")
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        throw error("bad escape")
                    }
                case 0x00..<0x20:
                    throw error("control character in a string")
                default:
                    out.append(b)
                }
            }
        }

        mutating func number() throws(ParseError) -> JSONValue {
            let start = index
            var isInteger = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits() -> Int {
                let s = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - s
            }
            let intStart = index
            let intDigits = digits()
            guard intDigits > 0 else { throw error("bad number") }
            if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { throw error("leading zero in a number") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                isInteger = false
                guard digits() > 0 else { throw error("bad number") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                isInteger = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("bad number") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let i = Int(text) { return .integer(i) }
            guard let d = Double(text) else { throw error("bad number") }
            // JSON sets no limit on a number's size (RFC 8259, section 6). One beyond Double's
            // range (1e400, a 5,000-digit integer) is read as the largest finite Double of its
            // sign, so the member that holds it is "out of range" for whoever reads it (a
            // setting is clamped) instead of the whole document failing to parse.
            if d.isInfinite { return .number(d < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude) }
            return .number(d)
        }
    }
}

/// Typed access to a JSON object's members, with one-line errors naming the member.
struct JSONFields {
    private let members: [String: JSONValue]

    /// Why a member cannot be used.
    struct FieldError: Error {
        var message: String
    }

    init?(_ value: JSONValue) {
        guard let list = value.objectMembers else { return nil }
        var members: [String: JSONValue] = [:]
        for (key, value) in list { members[key] = value }  // the last of a repeated name wins
        self.members = members
    }

    private func wrongType(_ key: String) -> FieldError { FieldError(message: "\"\(key)\" has the wrong type") }

    /// A whole number (an integral JSON number such as `100.0` counts), or `nil` if absent.
    func int(_ key: String) throws(FieldError) -> Int? {
        switch members[key] {
        case nil, .null?: return nil
        case .integer(let i)?: return i
        case .number(let d)? where d == d.rounded() && abs(d) < 9.0e15: return Int(d)
        case .number(let d)? where d == d.rounded(): throw FieldError(message: "\"\(key)\" is out of range")
        default: throw wrongType(key)
        }
    }

    func double(_ key: String) throws(FieldError) -> Double? {
        switch members[key] {
        case nil, .null?: return nil
        case .integer(let i)?: return Double(i)
        case .number(let d)?: return d
        default: throw wrongType(key)
        }
    }

    func string(_ key: String) throws(FieldError) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw wrongType(key)
        }
    }

    func bool(_ key: String) throws(FieldError) -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: throw wrongType(key)
        }
    }
}
