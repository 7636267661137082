import KeyboardCore
/// A JSON value with object keys kept in the order they were given, so trace lines read
/// the same every time (Foundation's `JSONSerialization` does not keep key order).
public enum JSONValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized == rhs.serialized }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized) }

    /// The value as compact JSON text (RFC 8259): UTF-8 text is written as is; quotes,
    /// backslashes and control characters — C0 as RFC 8259 requires, and DEL and the C1
    /// controls (U+0085 next line, U+009B CSI) too — are escaped, as are U+2028 and U+2029, so
    /// the text is one line for any reader and a value shown in a warning cannot move a
    /// terminal's cursor. Non-finite numbers become `null`.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let s): Self.writeString(s, to: &out)
        case .number(let d):
            if !d.isFinite { out += "null" }
            else if d == d.rounded(), abs(d) < 1e15 { out += String(Int64(d)) }
            else { out += String(d) }
        case .integer(let i): out += String(i)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Fast path: nothing to escape (no quote, backslash, C0 control, DEL, C1 control —
        // UTF-8 0xC2 0x80...0x9F — or U+2028/9, whose UTF-8 starts with 0xE2 0x80): copy the
        // string whole.
        var needsEscaping = false
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in s.utf8 {
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || (previous.1 == 0xC2 && byte <= 0x9F)
                || (previous == (0xE2, 0x80) && (byte == 0xA8 || byte == 0xA9)) {
                needsEscaping = true
                break
            }
            previous = (previous.1, byte)
        }
        if !needsEscaping {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if let escape = scalar.controlEscape { out += escape } else { out.unicodeScalars.append(scalar) }
            }
        }
        out += "\""
    }
}
