import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// What each TextBuffer operation promises in its doc comment, checked against the buffer before
// and after the operation (see TextBufferTarget.swift).

/// Whether two buffers hold the same text, caret and selection.
func same(_ a: TextBuffer, _ b: TextBuffer) -> Bool {
    a.text == b.text && a.caret == b.caret && a.anchor == b.anchor && a.count == b.count && a.caretUTF8 == b.caretUTF8
}

/// `offset` clamped into the text of `b`.
func clamp(_ offset: Int, _ b: TextBuffer) -> Int { min(max(offset, 0), b.count) }

/// The String.Index of Character `offset` of `text`.
func index(_ text: String, _ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: offset) }

/// Inserted text as the field keeps it (TextBuffer's doc comment): CR, LF, CR LF and tab become
/// one space each, other control characters are dropped.
func singleLine(_ text: String) -> String {
    var out = ""
    for c in text {
        if c == "\r\n" || c == "\n" || c == "\r" || c == "\t" { out += " "; continue }
        if c.unicodeScalars.count == 1, let s = c.unicodeScalars.first, s.value < 0x20 || (0x7F...0x9F).contains(s.value) { continue }
        out.append(c)
    }
    return out
}

/// Whether `text` holds exactly the scalars of `parts` in order (String's == would accept a
/// canonically equivalent text; the field keeps what was typed, scalar for scalar).
func holds(_ text: String, _ parts: [Substring]) -> Bool {
    text.unicodeScalars.elementsEqual(parts.lazy.flatMap(\.unicodeScalars))
}

/// The caret after an edit whose new text ends at UTF-8 offset `end`: on the first Character
/// boundary at or after it, with nothing selected.
func checkCaret(after end: Int, in b: TextBuffer, _ what: String) {
    var i = b.text.startIndex, n = 0
    while b.text.utf8.distance(from: b.text.startIndex, to: i) < end {
        i = b.text.index(after: i)
        n += 1
    }
    require(b.caret == n && b.anchor == n, "\(what): caret \(b.caret), anchor \(b.anchor); expected \(n)")
}

/// insertText replaces the selection (or inserts at the caret) with the text made single-line,
/// and puts the caret after it.
func checkInsertion(of typed: String, into before: TextBuffer, giving after: TextBuffer) {
    let clean = singleLine(typed)
    let old = before.text
    let lower = index(old, min(before.caret, before.anchor)), upper = index(old, max(before.caret, before.anchor))
    if clean.isEmpty {
        require(same(after, before), "inserting nothing changed the buffer")
        return
    }
    require(holds(after.text, [old[..<lower], clean[...], old[upper...]]), "insertText(\(typed.debugDescription)): wrong text")
    checkCaret(after: old.utf8.distance(from: old.startIndex, to: lower) + clean.utf8.count, in: after, "insertText")
}

/// deleteBackward / deleteForward / deleteSelection remove the selection, else (not for
/// deleteSelection) the one Character before / after the caret, leaving the caret where it was.
func checkDeletion(_ before: TextBuffer, _ after: TextBuffer, backward: Bool, selectionOnly: Bool = false) {
    let old = before.text
    var (lower, upper) = (min(before.caret, before.anchor), max(before.caret, before.anchor))
    if lower == upper {
        if selectionOnly || (backward && lower == 0) || (!backward && upper == before.count) {
            require(same(after, before), "a deletion with nothing to delete changed the buffer")
            return
        }
        if backward { lower -= 1 } else { upper += 1 }
    }
    let (l, u) = (index(old, lower), index(old, upper))
    require(holds(after.text, [old[..<l], old[u...]]), "deletion: wrong text")
    checkCaret(after: old.utf8.distance(from: old.startIndex, to: l), in: after, "deletion")
}

/// deleteWordBackward removes the selection, else the word before the caret and the spaces
/// between it and the caret: Characters that are not whitespace, then whitespace, reaching back
/// to whitespace (or the start).
func checkWordDeletion(_ before: TextBuffer, _ after: TextBuffer) {
    if before.selectedRange != nil {
        checkDeletion(before, after, backward: true)
        return
    }
    guard before.caret > 0 else {
        require(same(after, before), "deleteWordBackward at the start changed the buffer")
        return
    }
    let old = Array(before.text)
    // The start k of what was removed, from the new text's length in scalars.
    let removedScalars = before.text.unicodeScalars.count - after.text.unicodeScalars.count
    var k = before.caret, scalars = 0
    while k > 0, scalars < removedScalars {
        k -= 1
        scalars += old[k].unicodeScalars.count
    }
    require(scalars == removedScalars && k < before.caret, "deleteWordBackward removed part of a Character or nothing")
    let text = before.text
    require(holds(after.text, [text[..<index(text, k)], text[index(text, before.caret)...]]), "deleteWordBackward: wrong text")
    let removed = old[k..<before.caret]
    let word = removed.prefix { !$0.isWhitespace }
    require(removed.dropFirst(word.count).allSatisfy(\.isWhitespace), "deleteWordBackward removed more than a word and spaces")
    require(k == 0 || (old[k - 1].isWhitespace && !word.isEmpty), "deleteWordBackward stopped inside a word or spaces")
    checkCaret(after: text.utf8.distance(from: text.startIndex, to: index(text, k)), in: after, "deleteWordBackward")
}

/// moveCaret: Home and End go to the ends; a left or right move without extending collapses a
/// selection to that side, else moves one Character; word moves go the right way; with
/// `extending` the anchor stays.
func checkMove(_ movement: CaretMovement, extending: Bool, _ before: TextBuffer, _ after: TextBuffer) {
    let anchor = extending ? before.anchor : after.caret
    switch movement {
    case .start: require(after.caret == 0, "start")
    case .end: require(after.caret == before.count, "end")
    case .characterLeft, .characterRight:
        let left = movement == .characterLeft
        if !extending, before.selectedRange != nil {
            require(after.caret == (left ? min(before.caret, before.anchor) : max(before.caret, before.anchor)), "collapse")
        } else {
            require(after.caret == clamp(before.caret + (left ? -1 : 1), before), "one Character")
        }
    case .wordLeft: require(after.caret <= before.caret && (after.caret < before.caret || before.caret == 0), "word left")
    case .wordRight: require(after.caret >= before.caret && (after.caret > before.caret || before.caret == before.count), "word right")
    }
    require(after.anchor == anchor, "\(movement) extending \(extending): anchor \(after.anchor), expected \(anchor)")
}

/// selectWord selects the run of word characters, or of spaces, or the single other Character
/// at the offset (the one before it at the end); an empty text has nothing to select.
func checkWordSelection(at offset: Int, _ before: TextBuffer, _ after: TextBuffer) {
    guard before.count > 0 else {
        require(after.caret == before.caret && after.anchor == before.anchor, "selectWord in an empty text")
        return
    }
    let at = clamp(offset, before)
    let probe = at < before.count ? at : at - 1
    require(after.anchor <= probe && probe < after.caret, "selectWord(at: \(offset)) selected \(after.anchor)..<\(after.caret)")
}
