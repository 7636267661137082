extension String {
    /// The text as a one-line message quotes something from outside the program (an argument,
    /// an environment variable's value): in single quotes, with control characters (C0, DEL,
    /// C1) and the line and paragraph separators escaped (`\n`, `\r`, `\t`, `\u001b`), so it
    /// cannot break the message's line or send the terminal an escape sequence.
    public var quotedForMessage: String {
        var out = "'"
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}
