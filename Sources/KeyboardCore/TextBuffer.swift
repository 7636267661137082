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
    public private(set) var text: String { didSet { textRevision &+= 1 } }
    /// Caret position in `Character`s from the start of `text`: the moving end of the
    /// selection.
    public private(set) var caret: Int { didSet { if caret != oldValue { selectionRevision &+= 1 } } }
    /// The fixed end of the selection; equal to `caret` when nothing is selected.
    public private(set) var anchor: Int { didSet { if anchor != oldValue { selectionRevision &+= 1 } } }
    /// Counters that move on every change of the text, and of the caret or selection: a
    /// change can be noticed without keeping a copy of the text (which would make the next
    /// edit copy the whole string). Not part of equality.
    public private(set) var textRevision = 0
    public private(set) var selectionRevision = 0
    /// The number of `Character`s in `text`.
    public private(set) var count: Int
    /// The caret and anchor as UTF-8 offsets (always on `Character` boundaries).
    public private(set) var caretUTF8: Int
    private var anchorUTF8: Int
    /// Edits that can be undone and redone.
    public private(set) var undoHistory = UndoHistory()
    /// The work done so far (grapheme boundaries found, scalars scanned, bytes copied), for
    /// tests that check an operation's cost by counting it. Not part of equality.
    public private(set) var work = TextWork()

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

    private func index(utf8 offset: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: offset)
    }

    private func utf8Offset(_ index: String.Index) -> Int {
        text.utf8.distance(from: text.utf8.startIndex, to: index)
    }

    private var caretIndex: String.Index { index(utf8: caretUTF8) }
    private var anchorIndex: String.Index { index(utf8: anchorUTF8) }

    /// Caret and anchor, exactly (what an undo step restores).
    var cursor: TextEdit.Cursor {
        TextEdit.Cursor(count: count, caret: caret, caretUTF8: caretUTF8, anchor: anchor, anchorUTF8: anchorUTF8)
    }

    private mutating func restore(_ c: TextEdit.Cursor) {
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

    private var selectionIndices: (lower: String.Index, upper: String.Index, lowerCharacter: Int, count: Int) {
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

    // MARK: More editing

    /// Deletes the selection, or else the one `Character` after the caret.
    public mutating func deleteForward() {
        if deleteSelection() { return }
        guard caret < count else { return }
        let c = caretIndex
        replace(c..<step(after: c), characters: 1, startCharacter: caret, with: "", kind: .deletingForward)
    }

    /// Deletes the selection, or else the word before the caret and the spaces between it
    /// and the caret (what iOS's backspace does once held for a while, and Ctrl+Backspace).
    /// Returns whether anything was deleted.
    @discardableResult
    public mutating func deleteWordBackward() -> Bool {
        if deleteSelection() { return true }
        guard caret > 0 else { return false }
        let c = caretIndex
        let (start, removed) = wordBoundary(before: c, skipping: { $0.isWhitespace })
        replace(start..<c, characters: removed, startCharacter: caret - removed, with: "", kind: .other)
        return true
    }

    /// Deletes the selected text. Returns whether there was a selection.
    @discardableResult
    public mutating func deleteSelection() -> Bool {
        guard anchor != caret else { return false }
        let s = selectionIndices
        replace(s.lower..<s.upper, characters: s.count, startCharacter: s.lowerCharacter, with: "", kind: .other)
        return true
    }

    // MARK: Caret movement

    /// Moves the caret to `offset` (clamped); with `extendingSelection` the anchor stays,
    /// selecting the text in between.
    public mutating func setCaret(_ offset: Int, extendingSelection: Bool) {
        let target = min(max(offset, 0), count)
        if target != caret {
            caretUTF8 = utf8Offset(index(ofCharacter: target))
            caret = target
        }
        if !extendingSelection {
            anchor = caret
            anchorUTF8 = caretUTF8
        }
        undoHistory.breakCoalescing()
    }

    /// Moves the caret as the arrow keys, Ctrl+arrows, Home and End do. Without
    /// `extendingSelection`, a left or right move with a selection collapses it to that side.
    public mutating func moveCaret(_ movement: CaretMovement, extendingSelection: Bool) {
        switch movement {
        case .characterLeft, .characterRight:
            if !extendingSelection, anchor != caret {
                let edge = movement == .characterLeft ? min(anchor, caret) : max(anchor, caret)
                setCaret(edge, extendingSelection: false)
            } else {
                setCaret(caret + (movement == .characterLeft ? -1 : 1), extendingSelection: extendingSelection)
            }
        case .wordLeft:
            let (_, moved) = wordBoundary(before: caretIndex, skipping: { !Self.isWordCharacter($0) })
            setCaret(caret - moved, extendingSelection: extendingSelection)
        case .wordRight:
            var i = caretIndex
            var moved = 0
            while i < text.endIndex, !Self.isWordCharacter(character(at: i)) { i = step(after: i); moved += 1 }
            while i < text.endIndex, Self.isWordCharacter(character(at: i)) { i = step(after: i); moved += 1 }
            setCaret(caret + moved, extendingSelection: extendingSelection)
        case .start:
            setCaret(0, extendingSelection: extendingSelection)
        case .end:
            setCaret(count, extendingSelection: extendingSelection)
        }
    }

    /// Moves the caret to the start of the text (no selection).
    public mutating func moveCaretToStart() { moveCaret(.start, extendingSelection: false) }

    /// Moves the caret to the end of the text (no selection).
    public mutating func moveCaretToEnd() { moveCaret(.end, extendingSelection: false) }

    /// Selects everything.
    public mutating func selectAll() {
        anchor = 0
        anchorUTF8 = 0
        caret = count
        caretUTF8 = text.utf8.count
        undoHistory.breakCoalescing()
    }

    /// Selects the word at `offset` (a double click): the run of word characters, or of
    /// spaces, or the single other character there.
    public mutating func selectWord(at offset: Int) {
        guard count > 0 else { return }
        let at = min(max(offset, 0), count)
        setCaret(at, extendingSelection: false)
        // The character to classify: the one after the offset, or before it at the end.
        let probe = at < count ? caretIndex : step(before: caretIndex)
        let probed = character(at: probe)
        let same: (Character) -> Bool
        if Self.isWordCharacter(probed) {
            same = Self.isWordCharacter
        } else if probed.isWhitespace {
            same = { $0.isWhitespace }
        } else {
            same = { _ in false }
        }
        let probeCharacter = at < count ? at : at - 1
        var lower = probe, lowerCount = probeCharacter
        while lower > text.startIndex {
            let previous = step(before: lower)
            guard same(character(at: previous)) else { break }
            lower = previous
            lowerCount -= 1
        }
        var upper = step(after: probe), upperCount = probeCharacter + 1
        while upper < text.endIndex, same(character(at: upper)) {
            upper = step(after: upper)
            upperCount += 1
        }
        anchor = lowerCount
        anchorUTF8 = utf8Offset(lower)
        caret = upperCount
        caretUTF8 = utf8Offset(upper)
    }

    // MARK: Undo

    /// Undoes the last edit step, restoring the text, caret and selection it changed.
    /// Returns whether there was one.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let edit = undoHistory.popUndo() else { return false }
        let start = index(utf8: edit.location)
        countReplacement(utf8: edit.location + edit.inserted.utf8.count, with: edit.removed.utf8.count)
        text.replaceSubrange(start..<index(utf8: edit.location + edit.inserted.utf8.count), with: edit.removed)
        restore(edit.before)
        return true
    }

    /// Redoes the last undone step. Returns whether there was one.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let edit = undoHistory.popRedo() else { return false }
        let start = index(utf8: edit.location)
        countReplacement(utf8: edit.location + edit.removed.utf8.count, with: edit.inserted.utf8.count)
        text.replaceSubrange(start..<index(utf8: edit.location + edit.removed.utf8.count), with: edit.inserted)
        restore(edit.after)
        return true
    }

    /// Ends the current undo step, so the next edit starts a new one.
    public mutating func breakUndoCoalescing() { undoHistory.breakCoalescing() }

    // MARK: Helpers

    /// Walks back from `end` over characters matching `skipping`, then over the others up to
    /// the next match: the start of the word before `end`. Returns it and the Characters
    /// passed.
    private mutating func wordBoundary(before end: String.Index, skipping: (Character) -> Bool) -> (String.Index, Int) {
        var start = end
        var moved = 0
        for skip in [true, false] {
            while start > text.startIndex {
                let previous = step(before: start)
                guard skipping(character(at: previous)) == skip else { break }
                start = previous
                moved += 1
            }
        }
        return (start, moved)
    }

    // MARK: Counted steps (see `TextWork`)

    /// The Character boundary before `i`.
    private mutating func step(before i: String.Index) -> String.Index {
        work.characters += 1
        return text.index(before: i)
    }

    /// The Character boundary after `i`.
    private mutating func step(after i: String.Index) -> String.Index {
        work.characters += 1
        return text.index(after: i)
    }

    /// The Character that starts at `i` (finding where it ends is one boundary).
    private mutating func character(at i: String.Index) -> Character {
        work.characters += 1
        return text[i]
    }

    /// The index of Character offset `target` (0...count), walked to from the nearest known
    /// position: the start, the caret, the anchor or the end.
    private mutating func index(ofCharacter target: Int) -> String.Index {
        var from = 0, fromUTF8 = 0
        for (offset, utf8) in [(caret, caretUTF8), (anchor, anchorUTF8), (count, text.utf8.count)]
        where abs(target - offset) < abs(target - from) {
            from = offset
            fromUTF8 = utf8
        }
        work.characters += abs(target - from)
        return text.index(index(utf8: fromUTF8), offsetBy: target - from)
    }

    /// Counts replacing the text up to UTF-8 offset `end` with `inserted` bytes: those bytes,
    /// and the tail after `end` that moves.
    private mutating func countReplacement(utf8 end: Int, with inserted: Int) {
        work.bytes += inserted + (text.utf8.count - end)
    }

    /// Letters, digits and marks (and `_`) make up words; CJK text counts as letters.
    static func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c.unicodeScalars.first?.properties.generalCategory == .nonspacingMark
    }

    /// Replaces `range` (which holds `removed` Characters and starts `startCharacter`
    /// Characters into the text) with `replacement`, and puts the caret after it.
    ///
    /// Grapheme clusters can merge across the edit (a combining accent typed after a letter,
    /// the second half of a flag), so the Characters just before and after the edit are
    /// re-segmented together with it; the rest of the text keeps its segmentation. The edit
    /// is recorded for undo.
    private mutating func replace(_ range: Range<String.Index>, characters removed: Int, startCharacter: Int,
                                  with replacement: String, kind: TextEdit.Kind) {
        // One Character of context on each side; across a run of regional indicators (flag
        // halves pair up from the run's start) the whole run, since an edit can re-pair it.
        var leftStart = range.lowerBound
        var leftNeighbours = 0
        while leftStart > text.startIndex {
            let previous = step(before: leftStart)
            guard leftNeighbours == 0 || Self.isRegionalIndicator(character(at: previous)) else { break }
            leftStart = previous
            leftNeighbours += 1
        }
        var rightEnd = range.upperBound
        var rightNeighbours = 0
        while rightEnd < text.endIndex {
            guard rightNeighbours == 0 || Self.isRegionalIndicator(character(at: rightEnd)) else { break }
            rightEnd = step(after: rightEnd)
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
            work.bytes += local.utf8.count
            neighbours = leftNeighbours + rightNeighbours
            // Widen the window while its edge is no longer a Character boundary (an Indic
            // conjunct or other cluster can reach past the nearest neighbour). Each probe reads
            // the window's end Character and its neighbour, and counts the pair (2 + 2).
            if rightEnd < text.endIndex, let last = local.last {
                work.characters += 4
                if (String(last) + String(text[rightEnd])).count == 1 {
                    rightEnd = step(after: rightEnd)
                    rightNeighbours += 1
                    continue
                }
            }
            if leftStart > text.startIndex, let first = local.first {
                let previous = step(before: leftStart)
                work.characters += 4
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
        let charactersAfterCaret = local[boundary...].count
        let localCount = charactersBeforeCaret + charactersAfterCaret
        work.characters += localCount

        let leftStartUTF8 = utf8Offset(leftStart)
        let editStart = utf8Offset(range.lowerBound)
        let removedText = String(text[range])
        work.bytes += removedText.utf8.count
        let before = cursor
        countReplacement(utf8: utf8Offset(rightEnd), with: local.utf8.count)
        text.replaceSubrange(leftStart..<rightEnd, with: local)
        count += localCount - neighbours - removed
        caret = startCharacter - leftNeighbours + charactersBeforeCaret
        caretUTF8 = leftStartUTF8 + local.utf8.distance(from: local.startIndex, to: boundary)
        anchor = caret
        anchorUTF8 = caretUTF8
        undoHistory.record(TextEdit(location: editStart, removed: removedText, inserted: replacement,
                                    before: before, after: cursor, kind: kind))
    }

    /// Whether a Character is (or starts with) a regional indicator, half of a flag.
    static func isRegionalIndicator(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        return (0x1F1E6...0x1F1FF).contains(first.value)
    }

    /// `text` made single-line: CR, LF, CRLF and tabs become one space each, other C0/C1
    /// control characters are removed. The scan and any rewrite are added to `work`.
    static func singleLine(_ text: String, counting work: inout TextWork) -> String {
        // Fast path: nothing to change (the common case, one key at a time).
        var scanned = 0
        var hasControl = false
        for scalar in text.unicodeScalars {
            scanned += 1
            if Self.isControl(scalar) {
                hasControl = true
                break
            }
        }
        work.scalars += scanned
        guard hasControl else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            work.characters += 1
            if character == "\r\n" || character == "\n" || character == "\r" || character == "\t" {
                result.append(" ")
            } else if character.unicodeScalars.count == 1,
                      let scalar = character.unicodeScalars.first, Self.isControl(scalar) {
                continue
            } else {
                result.append(character)
            }
        }
        work.bytes += result.utf8.count
        return result
    }

    /// C0 and C1 control characters (and DEL).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
