import KeyboardCore
import Testing

/// The host screen's text field (seed 001's `TextField`) edited through the
/// `TextDocumentProxy` shape seed 000's controller uses. Offsets are in `Character`s.
@Suite("TextBuffer / TextDocumentProxy")
struct TextBufferTests {
    /// Edits through the protocol only, as the keyboard does.
    static func proxyInsert<P: TextDocumentProxy>(_ text: String, into proxy: inout P) {
        proxy.insertText(text)
    }

    @Test func emptyBuffer() {
        let buffer = TextBuffer()
        #expect(buffer.text == "")
        #expect(buffer.caret == 0)
        #expect(!buffer.hasText)
        #expect(buffer.documentContextBeforeInput == nil)
        #expect(buffer.documentContextAfterInput == nil)
    }

    @Test func initialTextPutsCaretAtEnd() {
        let buffer = TextBuffer(text: "へぇ")
        #expect(buffer.caret == 2)
        #expect(buffer.hasText)
        #expect(buffer.documentContextBeforeInput == "へぇ")
        #expect(buffer.documentContextAfterInput == nil)
    }

    @Test func insertsAtCaret() {
        var buffer = TextBuffer(text: "ac")
        buffer.adjustTextPosition(byCharacterOffset: -1)
        Self.proxyInsert("b", into: &buffer)
        #expect(buffer.text == "abc")
        #expect(buffer.caret == 2)
        #expect(buffer.documentContextBeforeInput == "ab")
        #expect(buffer.documentContextAfterInput == "c")

        buffer.moveCaretToStart()
        Self.proxyInsert(HeeButtonModel.insertedText, into: &buffer)
        #expect(buffer.text == "へぇ〜abc")
        #expect(buffer.caret == 3)
        buffer.moveCaretToEnd()
        #expect(buffer.caret == 6)
        #expect(buffer.documentContextAfterInput == nil)
    }

    @Test func insertingNothingChangesNothing() {
        var buffer = TextBuffer(text: "ab")
        buffer.adjustTextPosition(byCharacterOffset: -1)
        let before = buffer
        buffer.insertText("")
        #expect(buffer == before)
    }

    @Test("deleteBackward removes one whole grapheme cluster", arguments: [
        "ぇ", "e\u{301}", "🇯🇵", "👍🏽", "👨\u{200D}👩\u{200D}👧\u{200D}👦", "〜",
    ])
    func deleteBackwardRemovesOneCharacter(cluster: String) throws {
        try #require(cluster.count == 1)
        var buffer = TextBuffer(text: "a" + cluster + "b")
        try #require(buffer.text.count == 3)
        buffer.adjustTextPosition(byCharacterOffset: -1)
        #expect(buffer.documentContextBeforeInput == "a" + cluster)
        buffer.deleteBackward()
        #expect(buffer.text == "ab")
        #expect(buffer.caret == 1)
        #expect(buffer.text.unicodeScalars.count == 2)  // no scalar of the cluster left behind
    }

    @Test func deleteBackwardTwiceAfterHee() {
        var buffer = TextBuffer()
        buffer.insertText("へぇ〜")
        buffer.deleteBackward()
        #expect(buffer.text == "へぇ")
        buffer.deleteBackward()
        #expect(buffer.text == "へ")
        #expect(buffer.caret == 1)
    }

    @Test func deleteBackwardAtStartDoesNothing() {
        var buffer = TextBuffer(text: "ab")
        buffer.moveCaretToStart()
        buffer.deleteBackward()
        #expect(buffer.text == "ab")
        #expect(buffer.caret == 0)
        var empty = TextBuffer()
        empty.deleteBackward()
        #expect(empty == TextBuffer())
    }

    @Test("adjustTextPosition clamps to 0...count", arguments: [
        (-100, 0), (-4, 0), (-3, 0), (-2, 1), (-1, 2), (0, 3), (1, 3), (100, 3), (Int.min / 2, 0), (Int.max / 2, 3),
    ])
    func adjustClamps(offset: Int, expected: Int) {
        var buffer = TextBuffer(text: "👍🏽é!")  // three Characters, six scalars
        buffer.adjustTextPosition(byCharacterOffset: offset)
        #expect(buffer.caret == expected)
    }

    @Test func caretMovesByCharactersNotScalars() {
        var buffer = TextBuffer(text: "👍🏽e\u{301}🇯🇵")
        buffer.adjustTextPosition(byCharacterOffset: -1)
        #expect(buffer.documentContextBeforeInput == "👍🏽e\u{301}")
        #expect(buffer.documentContextAfterInput == "🇯🇵")
        buffer.adjustTextPosition(byCharacterOffset: -1)
        #expect(buffer.documentContextBeforeInput == "👍🏽")
    }

    @Test func contextIsNilOnlyAtTheEnds() {
        var buffer = TextBuffer(text: "xy")
        #expect(buffer.documentContextBeforeInput == "xy")
        #expect(buffer.documentContextAfterInput == nil)
        buffer.adjustTextPosition(byCharacterOffset: -1)
        #expect(buffer.documentContextBeforeInput == "x")
        #expect(buffer.documentContextAfterInput == "y")
        buffer.adjustTextPosition(byCharacterOffset: -1)
        #expect(buffer.documentContextBeforeInput == nil)
        #expect(buffer.documentContextAfterInput == "xy")
    }

    @Test(arguments: [
        ("a\nb", "a b"), ("a\r\nb", "a b"), ("a\rb", "a b"), ("a\tb", "a b"), ("\n\n", "  "),
        ("a\u{0}b", "ab"), ("a\u{7}b", "ab"), ("a\u{1B}[31mb", "a[31mb"), ("a\u{7F}b", "ab"), ("\u{1}", ""),
    ])
    func singleLine(inserted: String, expected: String) {
        var buffer = TextBuffer()
        buffer.insertText(inserted)
        #expect(buffer.text == expected)
        #expect(buffer.caret == expected.count)
        #expect(TextBuffer(text: inserted).text == expected)
    }

    @Test func combiningMarkAfterLetterKeepsCaretOnBoundary() {
        var buffer = TextBuffer(text: "e")
        buffer.insertText("\u{301}")
        #expect(buffer.text == "e\u{301}")
        #expect(buffer.text.count == 1)
        #expect(buffer.caret == 1)
        #expect(buffer.documentContextBeforeInput == "e\u{301}")
        #expect(buffer.documentContextAfterInput == nil)
        buffer.deleteBackward()
        #expect(buffer.text == "")
    }

    @Test func combiningMarkInTheMiddle() {
        var buffer = TextBuffer(text: "ac")
        buffer.adjustTextPosition(byCharacterOffset: -1)
        buffer.insertText("\u{301}")
        #expect(buffer.text == "a\u{301}c")
        #expect(buffer.caret == 1)
        #expect(buffer.documentContextBeforeInput == "a\u{301}")
        #expect(buffer.documentContextAfterInput == "c")
    }

    @Test func flagTypedInHalves() {
        var buffer = TextBuffer()
        buffer.insertText("🇯")
        buffer.insertText("🇵")
        #expect(buffer.text == "🇯🇵")
        #expect(buffer.caret == 1)
        buffer.deleteBackward()
        #expect(buffer.text.isEmpty)
    }

    /// Many edits, some merging with their neighbours: the caret always stays in
    /// `0...count` and splits the text exactly into before + after.
    @Test func caretInvariantUnderRandomEdits() {
        let pieces = ["a", "へ", "\u{301}", "🇯", "🇵", "👍", "🏽", "\u{200D}", "👩", "\n", "\u{7}", "e\u{301}", ""]
        var buffer = TextBuffer()
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<2000 {
            switch next(4) {
            case 0, 1: buffer.insertText(pieces[next(pieces.count)])
            case 2: buffer.deleteBackward()
            default: buffer.adjustTextPosition(byCharacterOffset: next(7) - 3)
            }
            #expect((0...buffer.text.count).contains(buffer.caret))
            #expect((buffer.documentContextBeforeInput ?? "") + (buffer.documentContextAfterInput ?? "") == buffer.text)
            #expect((buffer.documentContextBeforeInput ?? "").count == buffer.caret)
            #expect(!buffer.text.contains("\n") && !buffer.text.unicodeScalars.contains("\u{7}"))
        }
    }
}
