extension String {
    /// The text as a one-line message quotes something from outside the program (an argument,
    /// an environment variable's value): in single quotes, with control characters (C0, DEL,
    /// C1) and the line and paragraph separators escaped (`\n`, `\r`, `\t`, `\u001b`), so it
    /// cannot break the message's line or send the terminal an escape sequence.
    public var quotedForMessage: String { "'" + controlsEscaped + "'" }

    /// The text with its control characters (C0, DEL, C1) and the line and paragraph
    /// separators escaped as `quotedForMessage` escapes them, without the quotes: for a
    /// message that already quotes the text its own way.
    public var controlsEscaped: String {
        var out = ""
        for scalar in unicodeScalars {
            if let escape = scalar.controlEscape { out += escape } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
