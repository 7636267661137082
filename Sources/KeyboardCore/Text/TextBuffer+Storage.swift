/// How the buffer changes its string: word boundaries, counted steps through it (`TextWork`)
/// and the one replacement every edit goes through, with the rules for what text may enter.
extension TextBuffer {
    // MARK: Helpers

    /// Walks back from `end` over characters matching `skipping`, then over the others up to
    /// the next match: the start of the word before `end`. Returns it and the Characters
    /// passed.
    mutating func wordBoundary(before end: String.Index, skipping: (Character) -> Bool) -> (String.Index, Int) {
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
    mutating func step(before i: String.Index) -> String.Index {
        work.characters += 1
        return text.index(before: i)
    }

    /// The Character boundary after `i`.
    mutating func step(after i: String.Index) -> String.Index {
        work.characters += 1
        return text.index(after: i)
    }

    /// The Character that starts at `i` (finding where it ends is one boundary).
    mutating func character(at i: String.Index) -> Character {
        work.characters += 1
        return text[i]
    }

    /// The index of Character offset `target` (0...count), walked to from the nearest known
    /// position: the start, the caret, the anchor or the end.
    mutating func index(ofCharacter target: Int) -> String.Index {
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
    mutating func countReplacement(utf8 end: Int, with inserted: Int) {
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
    mutating func replace(_ range: Range<String.Index>, characters removed: Int, startCharacter: Int,
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
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
