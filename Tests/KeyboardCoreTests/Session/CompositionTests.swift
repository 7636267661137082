import KeyboardCore
import Testing

/// Issue 4: input-method composition (`SDL_TEXTEDITING` → `.composition`) is shown at the
/// caret and never stored; commits (`SDL_TEXTINPUT` → `.textInput`) are inserted once, in
/// arrival order; editing keys belong to the input method while it composes; the on-screen
/// keys keep working.
@Suite("IME composition")
struct CompositionTests {
    /// The composition's text and cursor, or nil.
    static func composition(_ h: TextFieldHarness) -> (String, Int)? {
        h.session.document.composition.map { ($0.text, $0.cursor) }
    }

    @Test func compositionIsShownButNotStored() {
        var h = TextFieldHarness("ab")
        let before = h.field
        let effects = h.send(.composition("にほ", cursor: 2))
        #expect(effects == [.compositionChanged("にほ", cursor: 2), .needsDisplay], "drawn, not reported as text")
        #expect(h.field == before, "text, caret and undo history untouched")
        #expect(Self.composition(h)! == ("にほ", 2))
    }

    @Test func compositionUpdatesReplaceEachOther() {
        var h = TextFieldHarness("ab", caret: 1)
        let before = h.field
        var effects: [KeyboardEffect] = []
        for (text, cursor) in [("n", 1), ("に", 1), ("にh", 2), ("にほ", 2), ("にほn", 3), ("にほん", 3), ("日本", 2)] {
            effects += h.send(.composition(text, cursor: cursor))
            #expect(Self.composition(h)! == (text, cursor))
        }
        #expect(effects.texts.isEmpty)
        #expect(h.field == before)
        #expect(h.send(.composition("日本", cursor: 2)).isEmpty, "the same composition again changes nothing")
    }

    @Test func commitInsertsOnceAndEndsTheComposition() {
        var h = TextFieldHarness("ab", caret: 1)
        h.send(.composition("にほん", cursor: 3))
        h.send(.composition("日本", cursor: 2))
        let effects = h.send(.textInput("日本"))
        #expect(effects.withoutDisplay == [.compositionChanged("", cursor: 0), .textChanged("a日本b", caret: 3)])
        #expect(h.session.document.composition == nil)
        #expect(h.text == "a日本b")
        #expect(h.field.undoHistory.undoCount == 2, "the commit is one step after the set-up paste")
    }

    @Test func emptyCompositionCancelsWithoutStoring() {
        var h = TextFieldHarness("ab")
        let before = h.field
        h.send(.composition("にほ", cursor: 2))
        let effects = h.send(.composition("", cursor: 0))
        #expect(effects == [.compositionChanged("", cursor: 0), .needsDisplay])
        #expect(h.session.document.composition == nil)
        #expect(h.field == before)
        #expect(h.send(.composition("", cursor: 0)).isEmpty, "cancelling again: nothing to redraw")
    }

    @Test func commitsGoInInArrivalOrder() {
        var h = TextFieldHarness()
        var texts: [String] = []
        for (composed, committed) in [("にほ", "日"), ("ほん", "本"), ("ご", "語"), ("です", "です")] {
            h.send(.composition(composed, cursor: composed.count))
            texts += h.send(.textInput(committed)).texts
        }
        #expect(texts == ["日", "日本", "日本語", "日本語です"])
        #expect(h.caret == 5)
        #expect(h.session.document.composition == nil)
    }

    @Test func commitWithoutAComposition() {
        var h = TextFieldHarness()
        #expect(h.send(.textInput("漢字")).texts == ["漢字"])
        #expect(h.session.document.composition == nil)
    }

    @Test func commitReplacesTheSelection() {
        var h = TextFieldHarness("hello brave world")
        h.select(from: 6, to: 11)
        h.send(.composition("ゆうかん", cursor: 4))
        #expect(h.selection == 6..<11, "composing keeps the selection")
        #expect(h.send(.textInput("勇敢")).texts == ["hello 勇敢 world"])
        #expect(h.caret == 8)
    }

    @Test("Cursor is clamped to the composition", arguments: [(-3, 0), (0, 0), (2, 2), (3, 3), (9, 3)])
    func cursorClamped(cursor: Int, expected: Int) {
        var h = TextFieldHarness()
        h.send(.composition("にほん", cursor: cursor))
        #expect(h.session.document.composition?.cursor == expected)
    }

    @Test("Editing keys are ignored while composing", arguments: [
        EditingCommand.deleteBackward, .deleteForward, .deleteWordBackward, .selectAll, .copy, .cut, .undo, .redo,
        .move(.characterLeft), .move(.characterRight), .move(.wordLeft), .move(.wordRight),
        .move(.start), .move(.end), .move(.characterLeft, extendingSelection: true),
    ])
    func editingIgnoredWhileComposing(command: EditingCommand) {
        var h = TextFieldHarness("hello world", caret: 8)
        h.type("X")
        h.command(.undo)  // something to redo
        h.select(from: 7, to: 9)  // and a selection to copy
        let before = h.field
        h.send(.composition("にほ", cursor: 2))
        #expect(h.command(command).isEmpty)
        #expect(h.field == before)
        #expect(Self.composition(h)! == ("にほ", 2))
    }

    @Test func editingKeysWorkAgainAfterCommitOrCancel() {
        var h = TextFieldHarness("ab")
        h.send(.composition("に", cursor: 1))
        h.command(.deleteBackward)
        #expect(h.text == "ab")
        h.send(.textInput("に"))
        #expect(h.command(.deleteBackward).texts == ["ab"])
        h.send(.composition("ほ", cursor: 1))
        h.send(.composition("", cursor: 0))
        #expect(h.command(.deleteBackward).texts == ["a"])
    }

    @Test func heeButtonInsertsAtTheCaretWhileComposing() throws {
        var h = TextFieldHarness("ab", caret: 1)
        h.send(.composition("にほ", cursor: 2))
        let effects = try h.tap(.hee)
        #expect(effects.texts == ["aへぇ〜b"])
        #expect(effects.heeCounts == [1])
        #expect(h.caret == 4)
        #expect(Self.composition(h)! == ("にほ", 2), "the composition stays, now after the inserted text")
        h.send(.composition("にほん", cursor: 3))
        try h.tap(.hee)
        #expect(h.text == "aへぇ〜へぇ〜b")
        #expect(Self.composition(h)! == ("にほん", 3))
        #expect(h.send(.textInput("日本")).texts == ["aへぇ〜へぇ〜日本b"])
        #expect(h.session.document.composition == nil)
        #expect(h.caret == 9)
    }

    @Test func heeWhileComposingReplacesTheSelection() throws {
        var h = TextFieldHarness("abc")
        h.select(from: 0, to: 2)
        h.send(.composition("に", cursor: 1))
        #expect(try h.tap(.hee).texts == ["へぇ〜c"])
        #expect(Self.composition(h)! == ("に", 1))
    }

    @Test func compositionIsIgnoredWhileUnfocusedAndDroppedOnClose() {
        var h = TextFieldHarness("ab")
        h.send(.composition("にほ", cursor: 2))
        let close = h.session.layout.closeKeyboard.center
        h.send(.pointerDown(.mouse, close))
        let effects = h.send(.pointerUp(.mouse, close))
        #expect(effects.contains(.stopTextInput))
        #expect(h.session.document.composition == nil, "losing focus drops the composition")
        h.send(.composition("ほ", cursor: 1))
        #expect(h.session.document.composition == nil)
        #expect(h.send(.textInput("本")).texts.isEmpty)
        #expect(h.text == "ab")
    }

    @Test func undoAfterCommitsTakesBackEachCommit() {
        var h = TextFieldHarness()
        h.type("abc ")
        h.send(.composition("にほん", cursor: 3))
        h.send(.textInput("日本"))
        h.send(.composition("ご", cursor: 1))
        h.send(.textInput("語だ"))
        #expect(h.text == "abc 日本語だ")
        h.command(.undo)
        #expect(h.text == "abc 日本")
        h.command(.undo)
        #expect(h.text == "abc ")
    }

    @Test func longCompositionIsKeptWhole() {
        // SDL_TEXTEDITING_EXT carries compositions longer than 32 bytes.
        let long = String(repeating: "にほんご", count: 40)
        var h = TextFieldHarness()
        h.send(.composition(long, cursor: 80))
        #expect(h.session.document.composition?.text == long)
        #expect(h.session.document.composition?.cursor == 80)
        #expect(h.text == "")
    }
}
