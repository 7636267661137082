import KeyboardCore
import Testing

/// Issue 4: undo and redo (Ctrl+Z; Ctrl+Shift+Z and Ctrl+Y, both `.redo` by the time they
/// reach the session). Typing runs coalesce per word, backspace runs coalesce, a caret move
/// ends a run, and every へぇ insertion, paste and cut is a step of its own.
@Suite("Undo and redo")
struct UndoTests {
    /// Undoes once through the session; returns the text and caret it reported (nil: none).
    static func undo(_ h: inout TextFieldHarness) -> (String, Int)? {
        report(h.command(.undo))
    }

    static func redo(_ h: inout TextFieldHarness) -> (String, Int)? {
        report(h.command(.redo))
    }

    static func report(_ effects: [KeyboardEffect]) -> (String, Int)? {
        for case .textChanged(let text, let caret) in effects { return (text, caret) }
        return nil
    }

    /// Undoes until nothing is left; returns the texts after each step.
    static func undoAll(_ h: inout TextFieldHarness) -> [String] {
        var texts: [String] = []
        while h.field.undoHistory.canUndo, texts.count < 50 {
            h.command(.undo)
            texts.append(h.text)
        }
        return texts
    }

    @Test func typingCoalescesPerWord() {
        var h = TextFieldHarness()
        h.type("hello world")
        #expect(h.field.undoHistory.undoCount == 2)
        #expect(Self.undo(&h)! == ("hello ", 6))
        #expect(Self.undo(&h)! == ("", 0))
        #expect(Self.undo(&h) == nil, "nothing left to undo")
        #expect(h.command(.undo).isEmpty)
    }

    @Test func severalSpacesStayWithTheWordBefore() {
        var h = TextFieldHarness()
        h.type("ab  cd ef")
        #expect(Self.undoAll(&h) == ["ab  cd ", "ab  ", ""])
    }

    @Test func eachHeeInsertionIsOneStep() throws {
        var h = TextFieldHarness()
        for _ in 0..<3 { try h.tap(.hee) }
        #expect(h.text == "へぇ〜へぇ〜へぇ〜")
        #expect(h.field.undoHistory.undoCount == 3)
        #expect(Self.undo(&h)! == ("へぇ〜へぇ〜", 6))
        #expect(Self.undo(&h)! == ("へぇ〜", 3))
        #expect(Self.undo(&h)! == ("", 0))
        #expect(!h.field.undoHistory.canUndo)
        #expect(h.session.hee.model.count == 3, "undo takes back text, not the count")
    }

    @Test func heeBetweenTypingSplitsTheRun() throws {
        var h = TextFieldHarness()
        h.type("ab")
        try h.tap(.hee)
        h.type("cd")
        #expect(Self.undoAll(&h) == ["abへぇ〜", "ab", ""])
    }

    @Test func onScreenLettersCoalesceLikeTypedOnes() throws {
        var h = TextFieldHarness()
        for key in ["h", "i"] { try h.tap(.letter(Character(key))) }
        try h.tap(.space)
        for key in ["y", "o"] { try h.tap(.letter(Character(key))) }
        #expect(h.text == "hi yo")
        #expect(Self.undoAll(&h) == ["hi ", ""])
    }

    @Test func backspaceRunCoalesces() {
        var h = TextFieldHarness()
        h.type("hello world")
        for _ in 0..<3 { h.command(.deleteBackward) }
        #expect(h.text == "hello wo")
        #expect(Self.undo(&h)! == ("hello world", 11))
        #expect(Self.undo(&h)! == ("hello ", 6))
    }

    @Test func backspaceKeyRunCoalesces() throws {
        var h = TextFieldHarness()
        h.type("abcd")
        try h.tap(.backspace)
        try h.tap(.backspace)
        #expect(h.text == "ab")
        #expect(Self.undo(&h)! == ("abcd", 4))
    }

    @Test func deleteRunCoalescesAndDiffersFromBackspace() {
        var h = TextFieldHarness()
        h.type("hello")
        h.move(.start)
        h.move(.characterRight)
        h.command(.deleteForward)
        h.command(.deleteForward)
        #expect(h.text == "hlo")
        h.command(.deleteBackward)
        #expect(h.text == "lo")
        #expect(Self.undo(&h)! == ("hlo", 1))
        #expect(Self.undo(&h)! == ("hello", 1))
        #expect(Self.undo(&h)! == ("", 0))
    }

    @Test func aCaretMoveSplitsTheTypingRun() {
        var h = TextFieldHarness()
        h.type("abc")
        h.move(.characterLeft)
        h.move(.characterRight)
        h.type("def")
        #expect(Self.undoAll(&h) == ["abc", ""])
    }

    @Test func aClickSplitsTheTypingRun() {
        var h = TextFieldHarness()
        h.type("ab")
        h.send(.placeCaret(at: 1, extendingSelection: false, clickCount: 1))
        h.type("X")
        #expect(h.text == "aXb")
        #expect(Self.undo(&h)! == ("ab", 1))
        #expect(Self.undo(&h)! == ("", 0))
    }

    @Test func pasteIsOneStep() {
        var h = TextFieldHarness()
        h.type("ab")
        h.send(.paste("cd ef"))
        h.send(.paste("x"))
        h.type("yz")
        #expect(Self.undoAll(&h) == ["abcd efx", "abcd ef", "ab", ""])
    }

    @Test func cutIsOneStepAndUndoRestoresTheSelection() {
        var h = TextFieldHarness()
        h.type("hello world")
        h.move(.wordLeft, extending: true)
        #expect(h.command(.cut).clipboardTexts == ["world"])
        #expect(h.text == "hello ")
        #expect(Self.undo(&h)! == ("hello world", 6))
        #expect(h.selection == 6..<11)
        #expect(h.anchor == 11 && h.caret == 6, "the selection's direction too")
        #expect(Self.redo(&h)! == ("hello ", 6))
        #expect(h.selection == nil)
    }

    @Test func redoRestoresTextAndCaret() {
        var h = TextFieldHarness()
        h.type("hello world")
        h.command(.undo)
        h.command(.undo)
        #expect(Self.redo(&h)! == ("hello ", 6))
        #expect(Self.redo(&h)! == ("hello world", 11))
        #expect(Self.redo(&h) == nil, "nothing left to redo")
        #expect(!h.field.undoHistory.canRedo)
    }

    @Test func redoInTheMiddleOfTheText() {
        var h = TextFieldHarness()
        h.type("ac")
        h.move(.characterLeft)
        h.type("b")
        h.move(.end)
        h.command(.undo)
        #expect((h.text, h.caret) == ("ac", 1))
        h.move(.end)
        #expect(Self.redo(&h)! == ("abc", 2), "the caret goes back to where the edit left it")
    }

    @Test func aNewEditClearsRedo() {
        var h = TextFieldHarness()
        h.type("hello world")
        h.command(.undo)
        #expect(h.field.undoHistory.canRedo)
        h.type("X")
        #expect(!h.field.undoHistory.canRedo)
        #expect(Self.redo(&h) == nil)
        #expect(h.text == "hello X")
    }

    @Test func aCaretMoveKeepsRedo() {
        var h = TextFieldHarness()
        h.type("ab cd")
        h.command(.undo)
        h.move(.start)
        h.command(.selectAll)
        #expect(Self.redo(&h)! == ("ab cd", 5))
    }

    @Test func typingAfterUndoStartsANewStep() {
        var h = TextFieldHarness()
        h.type("ab")
        h.command(.undo)
        h.type("cd")
        #expect(Self.undoAll(&h) == [""])
        h.type("ef")
        h.command(.undo)
        h.type("g")
        h.type("h")
        #expect(Self.undoAll(&h) == [""])
    }

    @Test func undoRestoresTheSelectionThatTypingReplaced() {
        var h = TextFieldHarness("hello brave world")
        h.select(from: 11, to: 6)
        h.type("XY")
        #expect(h.text == "hello XY world")
        #expect(Self.undo(&h)! == ("hello brave world", 6))
        #expect(h.selection == 6..<11 && h.anchor == 11)
        #expect(Self.redo(&h)! == ("hello XY world", 8))
        #expect(h.selection == nil)
    }

    @Test func undoRestoresTheSelectionThatHeeReplaced() throws {
        var h = TextFieldHarness("abc")
        h.command(.selectAll)
        try h.tap(.hee)
        #expect(h.text == "へぇ〜")
        h.command(.undo)
        #expect(h.text == "abc")
        #expect(h.selection == 0..<3)
    }

    @Test func undoRestoresTheSelectionThatBackspaceDeleted() {
        var h = TextFieldHarness("abcdef")
        h.select(from: 1, to: 4)
        h.command(.deleteBackward)
        h.command(.deleteBackward)
        #expect(h.text == "ef")
        #expect(Self.undo(&h)! == ("aef", 1))
        #expect(Self.undo(&h)! == ("abcdef", 4))
        #expect(h.selection == 1..<4)
    }

    @Test func ctrlBackspaceIsOneStep() {
        var h = TextFieldHarness()
        h.type("hello world")
        h.command(.deleteWordBackward)
        h.command(.deleteWordBackward)
        #expect(h.text == "")
        #expect(Self.undo(&h)! == ("hello ", 6))
        #expect(Self.undo(&h)! == ("hello world", 11))
    }

    @Test func undoAndRedoAreIgnoredWhileUnfocused() {
        var h = TextFieldHarness()
        h.type("ab")
        h.send(.pointerDown(.mouse, h.session.layout.closeKeyboard.center))
        h.send(.pointerUp(.mouse, h.session.layout.closeKeyboard.center))
        #expect(!h.session.hostScreen.isTextFieldFocused)
        #expect(h.command(.undo).texts.isEmpty)
        #expect(h.text == "ab")
    }

    // MARK: Grapheme merges

    @Test func combiningAccentTypedAfterALetter() {
        var h = TextFieldHarness()
        h.type("e")
        h.send(.textInput("\u{301}"))
        #expect(h.text == "e\u{301}")
        #expect(h.field.count == 1 && h.caret == 1)
        h.command(.undo)
        #expect(h.text == "" && h.caret == 0 && h.field.count == 0)
        h.command(.redo)
        #expect(h.text == "e\u{301}")
        #expect(h.caret == 1 && h.field.count == 1)
        #expect(h.field.caretUTF8 == 3)
    }

    @Test func undoingOnlyTheAccent() {
        var h = TextFieldHarness()
        h.type("xe")
        h.move(.characterLeft)
        h.move(.characterRight)  // a new step for the accent
        h.send(.textInput("\u{301}"))
        #expect(h.text == "xe\u{301}" && h.field.count == 2)
        #expect(Self.undo(&h)! == ("xe", 2))
        #expect(h.field.count == 2 && h.field.caretUTF8 == 2)
        h.move(.characterLeft)
        #expect(h.field.documentContextAfterInput == "e")
        h.move(.end)
        #expect(Self.redo(&h)! == ("xe\u{301}", 2))
        #expect(h.field.count == 2)
        h.command(.deleteBackward)
        #expect(h.text == "x", "the accented letter goes as one Character")
    }

    @Test func flagCompletedInTheMiddleOfTheText() {
        var h = TextFieldHarness("a🇯b", caret: 2)
        #expect(h.field.count == 3)
        h.send(.textInput("🇵"))
        #expect(h.text == "a🇯🇵b" && h.field.count == 3 && h.caret == 2)
        #expect(Self.undo(&h)! == ("a🇯b", 2))
        #expect(h.field.count == 3)
        #expect(h.field.documentContextBeforeInput == "a🇯")
        #expect(Self.redo(&h)! == ("a🇯🇵b", 2))
        #expect(h.field.documentContextBeforeInput == "a🇯🇵" && h.field.documentContextAfterInput == "b")
    }

    @Test func deletingAFlagHalfwayThroughARunAndUndoing() {
        // 🇯🇵🇺🇸: deleting the first flag re-pairs nothing; undo brings both flags back.
        var h = TextFieldHarness("🇯🇵🇺🇸", caret: 1)
        h.command(.deleteBackward)
        #expect(h.text == "🇺🇸" && h.field.count == 1 && h.caret == 0)
        h.command(.undo)
        #expect(h.text == "🇯🇵🇺🇸" && h.field.count == 2 && h.caret == 1)
        h.move(.end)
        #expect(h.caret == 2)
    }

    @Test func skinToneAddedToAnEmojiAndUndone() {
        var h = TextFieldHarness()
        h.type("a👍")
        h.move(.start)
        h.move(.end)
        h.send(.textInput("🏽"))
        #expect(h.text == "a👍🏽" && h.field.count == 2)
        #expect(Self.undo(&h)! == ("a👍", 2))
        #expect(Self.undo(&h)! == ("", 0))
    }

    // MARK: The history's limit

    @Test func historyKeepsTheLastThousandSteps() {
        var b = TextBuffer()
        for _ in 0..<(UndoHistory.limit + 5) { b.insertText(HeeButtonModel.insertedText) }
        #expect(b.undoHistory.undoCount == UndoHistory.limit)
        var undone = 0
        while b.undo() { undone += 1 }
        #expect(undone == UndoHistory.limit)
        #expect(b.text == String(repeating: HeeButtonModel.insertedText, count: 5))
        #expect(b.caret == 15 && b.count == 15)
    }
}
