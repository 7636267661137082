/// Editing beyond `TextDocumentProxy`: deleting forward and by words, the selection, caret
/// movement and undo.
extension TextBuffer {
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
}
