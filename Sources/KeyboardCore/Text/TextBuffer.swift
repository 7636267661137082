/// The host screen's single-line text field (seed 001's `TextField`): its text, caret,
/// selection and undo history.
///
/// Offsets are in `Character`s (extended grapheme clusters) from the start, so the caret
/// never stands inside 「ぇ」, an accented letter or an emoji. The selection runs between
/// `anchor` (where it started) and `caret` (the end that moves); they are equal when nothing
/// is selected. Line breaks and tabs become spaces and other control characters are dropped:
/// the field has one line.
///
/// - Complexity: the character count and the caret's and anchor's offsets are kept up to
///   date incrementally, so an edit or a caret move costs O(k) grapheme work for the k
///   characters it touches (plus the memory move of the string's tail); nothing walks the
///   whole text, and a caret placed by offset is walked to from the nearest known position
///   (the start, the caret, the anchor or the end: Home and End cost nothing). This keeps a
///   field of 100,000 characters responsive. `work` counts that cost as it is spent.
public struct TextBuffer: Hashable, Sendable, TextDocumentProxy {
    public internal(set) var text: String { didSet { textRevision &+= 1 } }
    /// Caret position in `Character`s from the start of `text`: the moving end of the
    /// selection.
    public internal(set) var caret: Int { didSet { if caret != oldValue { selectionRevision &+= 1 } } }
    /// The fixed end of the selection; equal to `caret` when nothing is selected.
    public internal(set) var anchor: Int { didSet { if anchor != oldValue { selectionRevision &+= 1 } } }
    /// Counters that move on every change of the text, and of the caret or selection: a
    /// change can be noticed without keeping a copy of the text (which would make the next
    /// edit copy the whole string). Not part of equality.
    public internal(set) var textRevision = 0
    public internal(set) var selectionRevision = 0
    /// The number of `Character`s in `text`.
    public internal(set) var count: Int
    /// The caret and anchor as UTF-8 offsets (always on `Character` boundaries).
    public internal(set) var caretUTF8: Int
    var anchorUTF8: Int
    /// Edits that can be undone and redone.
    public internal(set) var undoHistory = UndoHistory()
    /// The work done so far (grapheme boundaries found, scalars scanned, bytes copied), for
    /// tests that check an operation's cost by counting it. Not part of equality.
    public internal(set) var work = TextWork()

    /// A buffer holding `text` with the caret at its end.
    public init(text: String = "") {
        var work = TextWork()
        let clean = Self.singleLine(text, counting: &work)
        self.text = clean
        count = clean.count
        work.characters += count
        self.work = work
        caret = count
        anchor = count
        caretUTF8 = clean.utf8.count
        anchorUTF8 = caretUTF8
    }

    func index(utf8 offset: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: offset)
    }

    func utf8Offset(_ index: String.Index) -> Int {
        text.utf8.distance(from: text.utf8.startIndex, to: index)
    }

    var caretIndex: String.Index { index(utf8: caretUTF8) }
    var anchorIndex: String.Index { index(utf8: anchorUTF8) }

    /// Caret and anchor, exactly (what an undo step restores).
    var cursor: TextEdit.Cursor {
        TextEdit.Cursor(count: count, caret: caret, caretUTF8: caretUTF8, anchor: anchor, anchorUTF8: anchorUTF8)
    }

    mutating func restore(_ c: TextEdit.Cursor) {
        count = c.count
        caret = c.caret
        caretUTF8 = c.caretUTF8
        anchor = c.anchor
        anchorUTF8 = c.anchorUTF8
    }

    public static func == (a: TextBuffer, b: TextBuffer) -> Bool {
        a.caret == b.caret && a.anchor == b.anchor && a.count == b.count && a.caretUTF8 == b.caretUTF8
            && a.anchorUTF8 == b.anchorUTF8 && a.undoHistory == b.undoHistory && a.text == b.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(caret)
        hasher.combine(anchor)
    }

    // MARK: Selection

    /// The selected range in `Character`s, or `nil` when nothing is selected.
    public var selectedRange: Range<Int>? {
        anchor == caret ? nil : min(anchor, caret)..<max(anchor, caret)
    }

    /// The selected text, or `nil` when nothing is selected.
    public var selectedText: String? {
        guard anchor != caret else { return nil }
        let (a, b) = (anchorIndex, caretIndex)
        return String(text[min(a, b)..<max(a, b)])
    }

    var selectionIndices: (lower: String.Index, upper: String.Index, lowerCharacter: Int, count: Int) {
        let (a, c) = (anchorIndex, caretIndex)
        return anchor < caret ? (a, c, anchor, caret - anchor) : (c, a, caret, anchor - caret)
    }

    // MARK: TextDocumentProxy

    public var hasText: Bool { !text.isEmpty }

    /// The text before the selection (or caret), as iOS's proxy gives it.
    public var documentContextBeforeInput: String? {
        let lower = min(caret, anchor)
        return lower == 0 ? nil : String(text[..<selectionIndices.lower])
    }

    /// The text after the selection (or caret).
    public var documentContextAfterInput: String? {
        let upper = max(caret, anchor)
        return upper == count ? nil : String(text[selectionIndices.upper...])
    }

    /// Inserts `text` at the caret, replacing the selection if there is one. Consecutive
    /// single characters typed at the caret coalesce into one undo step (per word).
    public mutating func insertText(_ inserted: String) {
        let clean = Self.singleLine(inserted, counting: &work)
        guard !clean.isEmpty else { return }
        // One Character or more: one boundary, not a count of the whole insertion (a paste).
        work.characters += 1
        let single = clean.index(after: clean.startIndex) == clean.endIndex
        let s = selectionIndices
        replace(s.lower..<s.upper, characters: s.count, startCharacter: s.lowerCharacter, with: clean,
                kind: single ? .typing : .other)
    }

    /// Deletes the selection, or else the one `Character` before the caret.
    public mutating func deleteBackward() {
        if deleteSelection() { return }
        guard caret > 0 else { return }
        let c = caretIndex
        replace(step(before: c)..<c, characters: 1, startCharacter: caret - 1, with: "", kind: .deleting)
    }

    /// Collapses the selection and moves the caret by `offset` Characters, clamped.
    public mutating func adjustTextPosition(byCharacterOffset offset: Int) {
        let target = min(max(caret + offset, 0), count)
        setCaret(target, extendingSelection: false)
    }
}
