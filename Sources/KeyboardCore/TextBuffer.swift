/// The host screen's single-line text field (seed 001's `TextField`): its text and caret.
///
/// The caret is an offset in `Character`s (extended grapheme clusters) from the start, always
/// in `0...count`, so it never stands inside 「ぇ」, an accented letter or an emoji. Line
/// breaks and tabs become spaces and other control characters are dropped: the field has one
/// line.
///
/// - Complexity: the character count and caret offset are kept up to date incrementally, so
///   an edit costs O(k) grapheme work for k characters inserted or removed (plus the
///   memory move of the string's tail); nothing walks the whole text. This keeps a field of
///   100,000 characters responsive.
public struct TextBuffer: Hashable, Sendable, TextDocumentProxy {
    public private(set) var text: String
    /// Caret position in `Character`s from the start of `text`.
    public private(set) var caret: Int
    /// The number of `Character`s in `text`.
    public private(set) var count: Int
    /// The caret as a UTF-8 offset (always on a `Character` boundary).
    private var caretUTF8: Int

    /// A buffer holding `text` with the caret at its end.
    public init(text: String = "") {
        let clean = Self.singleLine(text)
        self.text = clean
        count = clean.count
        caret = count
        caretUTF8 = clean.utf8.count
    }

    private func index(utf8 offset: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: offset)
    }

    private func utf8Offset(_ index: String.Index) -> Int {
        text.utf8.distance(from: text.utf8.startIndex, to: index)
    }

    private var caretIndex: String.Index { index(utf8: caretUTF8) }

    // MARK: TextDocumentProxy

    public var hasText: Bool { !text.isEmpty }

    public var documentContextBeforeInput: String? {
        caret == 0 ? nil : String(text[..<caretIndex])
    }

    public var documentContextAfterInput: String? {
        caret == count ? nil : String(text[caretIndex...])
    }

    public mutating func insertText(_ inserted: String) {
        let clean = Self.singleLine(inserted)
        guard !clean.isEmpty else { return }
        let c = caretIndex
        replace(c..<c, characters: 0, startCharacter: caret, with: clean)
    }

    public mutating func deleteBackward() {
        guard caret > 0 else { return }
        let c = caretIndex
        replace(text.index(before: c)..<c, characters: 1, startCharacter: caret - 1, with: "")
    }

    public mutating func adjustTextPosition(byCharacterOffset offset: Int) {
        let target = min(max(caret + offset, 0), count)
        guard target != caret else { return }
        let moved = text.index(caretIndex, offsetBy: target - caret)
        caretUTF8 = utf8Offset(moved)
        caret = target
    }

    // MARK: More editing

    /// Deletes the word before the caret and the spaces between it and the caret (what
    /// iOS's backspace does once it has been held for a while). Returns whether anything
    /// was deleted.
    @discardableResult
    public mutating func deleteWordBackward() -> Bool {
        guard caret > 0 else { return false }
        let c = caretIndex
        var start = c
        var removed = 0
        // Spaces first, then the word's characters.
        while start > text.startIndex, text[text.index(before: start)].isWhitespace {
            start = text.index(before: start)
            removed += 1
        }
        while start > text.startIndex, !text[text.index(before: start)].isWhitespace {
            start = text.index(before: start)
            removed += 1
        }
        replace(start..<c, characters: removed, startCharacter: caret - removed, with: "")
        return true
    }

    /// Moves the caret to the start of the text.
    public mutating func moveCaretToStart() {
        caret = 0
        caretUTF8 = 0
    }

    /// Moves the caret to the end of the text.
    public mutating func moveCaretToEnd() {
        caret = count
        caretUTF8 = text.utf8.count
    }

    /// Replaces `range` (which holds `removed` Characters and starts `startCharacter`
    /// Characters into the text) with `replacement`, and puts the caret after it.
    ///
    /// Grapheme clusters can merge across the edit (a combining accent typed after a letter,
    /// the second half of a flag), so the Characters just before and after the edit are
    /// re-segmented together with it; the rest of the text keeps its segmentation.
    private mutating func replace(_ range: Range<String.Index>, characters removed: Int, startCharacter: Int,
                                  with replacement: String) {
        // One Character of context on each side; across a run of regional indicators (flag
        // halves pair up from the run's start) the whole run, since an edit can re-pair it.
        var leftStart = range.lowerBound
        var leftNeighbours = 0
        while leftStart > text.startIndex {
            let previous = text.index(before: leftStart)
            guard leftNeighbours == 0 || Self.isRegionalIndicator(text[previous]) else { break }
            leftStart = previous
            leftNeighbours += 1
        }
        var rightEnd = range.upperBound
        var rightNeighbours = 0
        while rightEnd < text.endIndex {
            guard rightNeighbours == 0 || Self.isRegionalIndicator(text[rightEnd]) else { break }
            rightEnd = text.index(after: rightEnd)
            rightNeighbours += 1
        }

        var local = ""
        var caretInLocal = 0
        var neighbours = 0
        while true {
            local = String(text[leftStart..<range.lowerBound])
            local += replacement
            caretInLocal = local.utf8.count
            local += text[range.upperBound..<rightEnd]
            neighbours = leftNeighbours + rightNeighbours
            // Widen the window while its edge is no longer a Character boundary (an Indic
            // conjunct or other cluster can reach past the nearest neighbour).
            if rightEnd < text.endIndex, let last = local.last, (String(last) + String(text[rightEnd])).count == 1 {
                rightEnd = text.index(after: rightEnd)
                rightNeighbours += 1
                continue
            }
            if leftStart > text.startIndex, let first = local.first {
                let previous = text.index(before: leftStart)
                if (String(text[previous]) + String(first)).count == 1 {
                    leftStart = previous
                    leftNeighbours += 1
                    continue
                }
            }
            break
        }

        // The caret goes to the first Character boundary at or after the replacement's end.
        var charactersBeforeCaret = 0
        var boundary = local.startIndex
        while boundary < local.endIndex, local.utf8.distance(from: local.startIndex, to: boundary) < caretInLocal {
            boundary = local.index(after: boundary)
            charactersBeforeCaret += 1
        }
        let localCount = charactersBeforeCaret + local[boundary...].count

        let leftStartUTF8 = utf8Offset(leftStart)
        text.replaceSubrange(leftStart..<rightEnd, with: local)
        count += localCount - neighbours - removed
        caret = startCharacter - leftNeighbours + charactersBeforeCaret
        caretUTF8 = leftStartUTF8 + local.utf8.distance(from: local.startIndex, to: boundary)
    }

    /// Whether a Character is (or starts with) a regional indicator, half of a flag.
    static func isRegionalIndicator(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        return (0x1F1E6...0x1F1FF).contains(first.value)
    }

    /// `text` made single-line: CR, LF, CRLF and tabs become one space each, other C0/C1
    /// control characters are removed.
    static func singleLine(_ text: String) -> String {
        // Fast path: nothing to change (the common case, one key at a time).
        if !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return text
        }
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
