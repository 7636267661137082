extension Unicode.Scalar {
    /// How this scalar is written where it may not stand as itself, in a JSON string and in a
    /// one-line message alike: `\n`, `\r`, `\t`, or `\u` and four hex digits for the other C0
    /// controls, DEL, the C1 controls and the line and paragraph separators (U+2028, U+2029);
    /// `nil` for every other scalar, which stands as itself.
    var controlEscape: String? {
        switch self {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029:
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: return nil
        }
    }
}
