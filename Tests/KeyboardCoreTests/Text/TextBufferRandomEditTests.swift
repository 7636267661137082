import KeyboardCore
import Testing

/// The buffer keeps its character count and caret offset incrementally; these tests check
/// that bookkeeping against a full recount after every edit, with pieces chosen to merge
/// across edit boundaries (combining marks, flag halves, ZWJ sequences, skin tones, Hangul
/// jamo, Indic conjuncts).
struct TextBufferRandomEditTests {
    static let pieces = [
        "a", "e", "\u{301}", "\u{308}", "へ", "ぇ", "〜", " ", "🇯", "🇵", "🇺", "🇸", "👍", "🏽",
        "\u{200D}", "👩", "👨", "\u{1100}", "\u{1161}", "\u{11A8}", "क", "\u{94D}", "ष", "Z", "é",
        "\u{FE0F}", "❤", "ab", "🇯🇵", "\r\n", "\t",
    ]

    @Test(arguments: Array(UInt64(1)...12))
    func incrementalCountsMatchAFullRecount(seed: UInt64) {
        var rng = SplitMix64(state: seed)
        var buffer = TextBuffer()
        for step in 0..<2_000 {
            let previous = buffer
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let piece = Self.pieces.randomElement(using: &rng)!
                buffer.insertText(piece)
            case 5, 6:
                buffer.deleteBackward()
            case 7:
                buffer.adjustTextPosition(byCharacterOffset: Int.random(in: -4...4, using: &rng))
            case 8:
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: buffer.deleteWordBackward()
                case 1: buffer.deleteForward()
                case 2: buffer.moveCaret([.wordLeft, .wordRight, .characterLeft, .characterRight].randomElement(using: &rng)!,
                                         extendingSelection: Bool.random(using: &rng))
                case 3: buffer.selectWord(at: Int.random(in: 0...buffer.count, using: &rng))
                case 4: buffer.undo()
                case 5: buffer.redo()
                case 6: buffer.selectAll()
                default: buffer.moveCaretToEnd()
                }
            default:
                buffer.setCaret(Int.random(in: 0...buffer.count, using: &rng), extendingSelection: Bool.random(using: &rng))
            }
            let before = buffer.documentContextBeforeInput ?? ""
            let after = buffer.documentContextAfterInput ?? ""
            let selected = buffer.selectedText ?? ""
            #expect(buffer.count == buffer.text.count, "seed \(seed) step \(step): count")
            #expect(min(buffer.caret, buffer.anchor) == before.count, "seed \(seed) step \(step): selection start")
            #expect(max(buffer.caret, buffer.anchor) - min(buffer.caret, buffer.anchor) == selected.count, "seed \(seed) step \(step): selection length")
            #expect(before + selected + after == buffer.text, "seed \(seed) step \(step): split")
            #expect((0...buffer.count).contains(buffer.caret) && (0...buffer.count).contains(buffer.anchor))
            #expect(!buffer.text.contains("\n") && !buffer.text.contains("\t"))
            if buffer.count != buffer.text.count || min(buffer.caret, buffer.anchor) != before.count || before + selected + after != buffer.text {
                func dump(_ b: TextBuffer) -> String {
                    "caret \(b.caret) " + b.text.map { c in "[" + c.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") + "]" }.joined()
                }
                Issue.record("before: \(dump(previous))\nafter: \(dump(buffer))")
                return
            }
        }
        // Undoing every step still on the stack keeps the bookkeeping right, and redoing
        // them all returns to the newest text byte for byte (steps undone during the run
        // and never replaced are redone first, so the newest text is after those).
        while buffer.redo() {}
        let final = buffer.text
        while buffer.undo() {
            #expect(buffer.count == buffer.text.count)
        }
        while buffer.redo() {}
        #expect(buffer.text == final, "seed \(seed): redo all")
    }
}
