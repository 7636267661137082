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

    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

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
                if Bool.random(using: &rng) { buffer.deleteWordBackward() } else { buffer.moveCaretToEnd() }
            default:
                buffer.moveCaretToStart()
                buffer.adjustTextPosition(byCharacterOffset: Int.random(in: 0...buffer.count, using: &rng))
            }
            let before = buffer.documentContextBeforeInput ?? ""
            let after = buffer.documentContextAfterInput ?? ""
            #expect(buffer.count == buffer.text.count, "seed \(seed) step \(step): count")
            #expect(buffer.caret == before.count, "seed \(seed) step \(step): caret")
            #expect(before + after == buffer.text, "seed \(seed) step \(step): split")
            #expect((0...buffer.count).contains(buffer.caret))
            #expect(!buffer.text.contains("\n") && !buffer.text.contains("\t"))
            if buffer.count != buffer.text.count || buffer.caret != before.count {
                func dump(_ b: TextBuffer) -> String {
                    "caret \(b.caret) " + b.text.map { c in "[" + c.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") + "]" }.joined()
                }
                Issue.record("before: \(dump(previous))\nafter: \(dump(buffer))")
                return
            }
        }
    }
}
