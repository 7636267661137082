/// The host screen's single-line text field (seed 001's `TextField`): its text and caret.
///
/// The caret is an offset in `Character`s (grapheme clusters) from the start, always in
/// `0...text.count`. Line breaks and tabs become spaces and other control characters are
/// dropped, because the field has one line.
///
/// - Complexity: editing is O(n) in the text's length (Character offsets are walked).
public struct TextBuffer: Hashable, Sendable, TextDocumentProxy {
    public private(set) var text: String
    /// Caret position in `Character`s from the start of `text`.
    public private(set) var caret: Int

    /// A buffer holding `text` with the caret at its end.
    public init(text: String = "") {
        let clean = Self.singleLine(text)
        self.text = clean
        self.caret = clean.count
    }

    private var caretIndex: String.Index {
        text.index(text.startIndex, offsetBy: caret)
    }

    public var hasText: Bool { !text.isEmpty }

    public var documentContextBeforeInput: String? {
        caret == 0 ? nil : String(text[..<caretIndex])
    }

    public var documentContextAfterInput: String? {
        caret == text.count ? nil : String(text[caretIndex...])
    }

    public mutating func insertText(_ inserted: String) {
        let clean = Self.singleLine(inserted)
        guard !clean.isEmpty else { return }
        let index = caretIndex
        let before = String(text[..<index]) + clean
        text = before + text[index...]
        // Counted on the joined prefix: if the insertion merged with its neighbour into one
        // cluster (a combining accent, the second half of a flag), the caret stays on a
        // Character boundary.
        caret = min(before.count, text.count)
    }

    public mutating func deleteBackward() {
        guard caret > 0 else { return }
        let end = caretIndex
        let start = text.index(before: end)
        text.removeSubrange(start..<end)
        caret -= 1
    }

    public mutating func adjustTextPosition(byCharacterOffset offset: Int) {
        caret = min(max(caret + offset, 0), text.count)
    }

    /// Moves the caret to the start of the text.
    public mutating func moveCaretToStart() { caret = 0 }

    /// Moves the caret to the end of the text.
    public mutating func moveCaretToEnd() { caret = text.count }

    /// `text` made single-line: CR, LF, CRLF and tabs become one space each, other C0/C1
    /// control characters are removed.
    static func singleLine(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if character == "\r\n" || character == "\n" || character == "\r" || character == "\t" {
                result.append(" ")
            } else if character.unicodeScalars.count == 1,
                      let scalar = character.unicodeScalars.first,
                      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                continue
            } else {
                result.append(character)
            }
        }
        return result
    }
}
