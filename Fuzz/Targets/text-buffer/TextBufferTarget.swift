import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// The text field's buffer (TextBuffer), driven by a program decoded from the bytes: inserts of
// raw UTF-8 (decoded as SDL's text events are, invalid bytes replaced) and of pieces that merge
// across edits (combining marks, flag halves, ZWJ sequences, skin tones, Hangul jamo, Indic
// conjuncts, CR LF, controls), deletes backward, forward and by word, every CaretMovement with
// and without extending the selection, caret placement, word and whole selection, undo, redo
// and paste (an undo step of its own, as KeyboardSession pastes).
//
// Promises checked after every step (TextBuffer's doc comments): `count` is the text's
// Character count; caret and anchor lie in 0...count, and the caret's UTF-8 offset is that of
// its Character boundary; the text before, after and in the selection are the text's own
// Characters; the text is valid UTF-8 with no control characters (the field has one line);
// the revision counters move when the text or the selection changes; undo then redo gives the
// same text; undoing a paste restores the text, caret and selection
// before it. At the end, undoing every step gives the text the buffer started with, and redoing
// those steps gives the final text (unless UndoHistory.limit steps were made).

/// Strings whose Characters merge or split across an edit, and lines and controls the field
/// must flatten.
let pieces: [String] = [
    "a", "e", "Z", " ", "_", "1", ".", "へ", "ぇ", "〜", "é", "\u{301}", "\u{308}", "\u{20DD}",
    "🇯", "🇵", "🇺", "🇸", "🇯🇵", "👍", "🏽", "\u{200D}", "\u{200C}", "👩", "👨", "👧", "❤", "\u{FE0F}", "\u{FE0E}",
    "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "क", "\u{94D}", "ष", "\u{93F}", "\u{D15}", "\u{D4D}",
    "\u{600}", "\u{E33}", "\u{1F3F4}", "\u{E0067}", "\u{E007F}", "\r", "\n", "\r\n", "\t", "\u{0}", "\u{1B}",
    "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{200B}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "ab cd", "  ",
]

/// Every CaretMovement. `exhaustive` stops compiling when a movement is added, so that it is
/// added here too.
let movements: [CaretMovement] = [.characterLeft, .characterRight, .wordLeft, .wordRight, .start, .end]
func exhaustive(_ movement: CaretMovement) {
    switch movement { case .characterLeft, .characterRight, .wordLeft, .wordRight, .start, .end: break }
}

/// Text longer than this (UTF-8 bytes) takes no more insertions: every step checks the whole
/// text, so this bounds an input's time.
let textBound = 512

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextBuffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = ByteReader(fuzzBytes(data, size))
    var buffer = input.bool() ? TextBuffer(text: text(&input)) : TextBuffer()
    check(buffer)
    let initial = buffer
    var historyFull = false
    while !input.isAtEnd {
        let before = buffer
        // Whether the step is an undo step of its own (undo restores exactly `before`).
        var ownStep = false
        var edits = true
        switch input.below(16) {
        case 0, 1:
            guard buffer.text.utf8.count < textBound else { break }
            let typed = text(&input)
            buffer.insertText(typed)
            checkInsertion(of: typed, into: before, giving: buffer)
            ownStep = before.selectedRange != nil || singleLine(typed).count > 1
        case 2:
            buffer.deleteBackward()
            checkDeletion(before, buffer, backward: true)
            ownStep = before.selectedRange != nil
        case 3:
            buffer.deleteForward()
            checkDeletion(before, buffer, backward: false)
            ownStep = before.selectedRange != nil
        case 4:
            let deleted = buffer.deleteWordBackward()
            require(deleted == (before.selectedRange != nil || before.caret > 0), "deleteWordBackward's result")
            checkWordDeletion(before, buffer)
            ownStep = true
        case 5:
            let deleted = buffer.deleteSelection()
            require(deleted == (before.selectedRange != nil), "deleteSelection's result")
            checkDeletion(before, buffer, backward: true, selectionOnly: true)
            ownStep = true
        case 6:
            edits = false
            let movement = movements[input.below(movements.count)]
            let extending = input.bool()
            buffer.moveCaret(movement, extendingSelection: extending)
            checkMove(movement, extending: extending, before, buffer)
        case 7:
            edits = false
            let target = offset(&input, buffer)
            let extending = input.bool()
            buffer.setCaret(target, extendingSelection: extending)
            require(buffer.caret == clamp(target, before) && buffer.anchor == (extending ? before.anchor : buffer.caret),
                    "setCaret(\(target), extendingSelection: \(extending))")
        case 8:
            edits = false
            let by = input.signed()
            buffer.adjustTextPosition(byCharacterOffset: by)
            require(buffer.caret == clamp(before.caret + by, before) && buffer.anchor == buffer.caret, "adjustTextPosition(\(by))")
        case 9:
            edits = false
            let at = offset(&input, buffer)
            buffer.selectWord(at: at)
            checkWordSelection(at: at, before, buffer)
        case 10:
            edits = false
            buffer.selectAll()
            require(buffer.anchor == 0 && buffer.caret == buffer.count, "selectAll")
        case 11: _ = buffer.undo()
        case 12: _ = buffer.redo()
        case 13:
            // Paste, as KeyboardSession does it: an undo step of its own.
            guard buffer.text.utf8.count < textBound else { break }
            let clip = String(repeating: text(&input), count: 1 + input.below(16))
            buffer.breakUndoCoalescing()
            buffer.insertText(clip)
            buffer.breakUndoCoalescing()
            checkInsertion(of: clip, into: before, giving: buffer)
            ownStep = true
        case 14:
            edits = false
            buffer.breakUndoCoalescing()
            require(same(buffer, before), "breakUndoCoalescing changed the text or selection")
        default:
            edits = false
            if input.bool() {
                buffer.moveCaretToStart()
                require(buffer.caret == 0 && buffer.anchor == 0, "moveCaretToStart")
            } else {
                buffer.moveCaretToEnd()
                require(buffer.caret == buffer.count && buffer.anchor == buffer.count, "moveCaretToEnd")
            }
        }
        check(buffer)
        if !edits {
            require(buffer.text == before.text && buffer.undoHistory.undoCount == before.undoHistory.undoCount
                    && buffer.undoHistory.canRedo == before.undoHistory.canRedo, "a caret move changed the text or history")
        }
        require(buffer.text == before.text || buffer.textRevision != before.textRevision, "text changed, revision did not")
        require((buffer.caret == before.caret && buffer.anchor == before.anchor) || buffer.selectionRevision != before.selectionRevision,
                "selection changed, revision did not")
        checkUndoRedo(buffer)
        if ownStep, buffer.text != before.text {
            var undone = buffer
            require(undone.undo(), "an edit left nothing to undo")
            require(undone.text == before.text && undone.caret == before.caret && undone.anchor == before.anchor,
                    "undoing an edit did not restore the text and selection before it")
        }
        historyFull = historyFull || buffer.undoHistory.undoCount >= UndoHistory.limit
    }
    guard !historyFull else { return 0 }
    let final = buffer
    while buffer.undo() { check(buffer) }
    require(buffer.text == initial.text, "undoing every step did not give the first text back")
    for _ in 0..<final.undoHistory.undoCount {
        require(buffer.redo(), "fewer steps to redo than were undone")
        check(buffer)
    }
    require(buffer.text == final.text, "redoing every step undone did not give the last text back")
    return 0
}

/// Text for an insertion: raw UTF-8 decoded as SDL text events are, or a run of `pieces`.
func text(_ input: inout ByteReader) -> String {
    let length = input.below(32)
    if input.bool() { return String(decoding: input.take(length), as: UTF8.self) }
    return (0..<length).map { _ in pieces[input.below(pieces.count)] }.joined()
}

/// A Character offset around the text: mostly inside it, sometimes beyond either end.
func offset(_ input: inout ByteReader, _ buffer: TextBuffer) -> Int {
    input.signed() % (buffer.count + 3) + (input.bool() ? 0 : buffer.count / 2)
}

/// TextBuffer's promises about its text, caret and selection, against a full recount.
func check(_ b: TextBuffer) {
    let text = b.text
    require(b.count == text.count, "count \(b.count), the text has \(text.count) Characters")
    require((0...b.count).contains(b.caret) && (0...b.count).contains(b.anchor), "caret \(b.caret) or anchor \(b.anchor) outside 0...\(b.count)")
    let caret = text.index(text.startIndex, offsetBy: b.caret)
    require(text.utf8.distance(from: text.startIndex, to: caret) == b.caretUTF8, "caretUTF8 \(b.caretUTF8) is not Character \(b.caret)'s boundary")
    let (lower, upper) = (min(b.caret, b.anchor), max(b.caret, b.anchor))
    let lowerIndex = text.index(text.startIndex, offsetBy: lower)
    let upperIndex = text.index(text.startIndex, offsetBy: upper)
    require(b.documentContextBeforeInput == (lower == 0 ? nil : String(text[..<lowerIndex])), "text before the selection")
    require(b.documentContextAfterInput == (upper == b.count ? nil : String(text[upperIndex...])), "text after the selection")
    require(b.selectedText == (lower == upper ? nil : String(text[lowerIndex..<upperIndex])), "selected text")
    require(b.selectedRange == (lower == upper ? nil : lower..<upper), "selected range")
    require(b.hasText == !text.isEmpty, "hasText")
    require(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "a control character in the text")
    require(String(validating: Array(text.utf8), as: UTF8.self) == text, "the text is not valid UTF-8")
}

/// Undo then redo gives back the same text (and so does redo then undo). The caret may differ:
/// redo puts it after the edit, wherever it was moved to since.
func checkUndoRedo(_ buffer: TextBuffer) {
    if buffer.undoHistory.canUndo {
        var b = buffer
        b.undo()
        check(b)
        require(b.redo(), "nothing to redo after an undo")
        require(b.text == buffer.text, "undo then redo changed the text")
    }
    if buffer.undoHistory.canRedo {
        var b = buffer
        b.redo()
        check(b)
        require(b.undo(), "nothing to undo after a redo")
        require(b.text == buffer.text, "redo then undo changed the text")
    }
}
