import KeyboardCore
import Testing

/// The `Document` part alone: edits of the text field or system mode's keystrokes, the input
/// method's composition, the caret's blink, and what a key does to the document, plainly or
/// with Ctrl and Alt.
@Suite("Document (part)")
struct DocumentTests {
    static func uppercased(_ text: String) -> String { text.uppercased() }

    @Test func editsOfTheFieldReportTextAndCaretAndRestartTheBlink() {
        var document = Document(mode: .hostScreen)
        #expect(document.edit(.insertText("ab"), at: ms(1_000)) == [.textChanged("ab", caret: 2)])
        #expect(document.caretActivity == ms(1_000))
        #expect(document.edit(.moveCaret(-1), at: ms(1_200)) == [.textChanged("ab", caret: 1)])
        #expect(document.edit(.deleteBackward, at: ms(1_300)) == [.textChanged("b", caret: 0)])
        #expect(document.edit(.deleteBackward, at: ms(1_400)).isEmpty, "nothing before the caret")
        #expect(document.caretActivity == ms(1_300))
    }

    @Test func systemModesEditsAreKeystrokesSentAtOnce() {
        var document = Document(mode: .system)
        #expect(document.edit(.insertText("a\tb\n"), at: .zero)
                == [.send(.text("a")), .send(.key(.tab)), .send(.text("b")), .send(.key(.return))])
        #expect(document.edit(.deleteWordBackward, at: .zero) == [.send(.key(.backSpace, control: true))])
        #expect(document.edit(.moveCaret(-2), at: .zero) == [.send(.key(.left)), .send(.key(.left))])
        #expect(document.keystrokes.pending.isEmpty)
        #expect(document.textField.text.isEmpty)
    }

    @Test func theCompositionIsShownNotTypedAndReportedOnChange() {
        var document = Document(mode: .hostScreen)
        let revision = document.revision
        #expect(document.setComposition(.init(text: "にほ", cursor: 2), at: ms(500)) == [.compositionChanged("にほ", cursor: 2)])
        #expect(document.revision != revision)
        #expect(document.setComposition(.init(text: "にほ", cursor: 2), at: ms(600)).isEmpty)
        #expect(document.caretActivity == ms(500))
        #expect(document.textInput("日本", at: ms(700)) == [.compositionChanged("", cursor: 0), .textChanged("日本", caret: 2)])
        #expect(document.composition == nil)
    }

    @Test func copyAndCutNeedASelection() {
        var document = Document(mode: .hostScreen)
        _ = document.edit(.insertText("hello"), at: .zero)
        #expect(document.perform(.copy, at: .zero).isEmpty)
        _ = document.placeCaret(at: 1, extending: false, clicks: 2, time: .zero)
        #expect(document.perform(.copy, at: .zero) == [.setClipboard("hello")])
        #expect(document.perform(.cut, at: .zero) == [.setClipboard("hello"), .textChanged("", caret: 0)])
        #expect(document.paste("a\nb", at: .zero) == [.textChanged("a b", caret: 3)])
    }

    @Test func theCaretBlinksWhileFocusedAndStopsAfterTheTimeout() {
        var document = Document(mode: .hostScreen)
        document.caretMoved(at: ms(1_000))
        #expect(!document.isCaretVisible(at: ms(1_100), focused: false))
        #expect(document.isCaretVisible(at: ms(1_400), focused: true))
        #expect(!document.isCaretVisible(at: ms(1_600), focused: true))
        #expect(document.isCaretVisible(at: ms(11_000), focused: true), "solid after 10 s")
        #expect(document.nextBlink(after: ms(1_100), focused: true) == ms(1_500))
        #expect(document.nextBlink(after: ms(11_000), focused: true) == nil)
        #expect(document.nextBlink(after: ms(1_100), focused: false) == nil)
    }

    @Test func plainKeysOnTheHostScreen() {
        var document = Document(mode: .hostScreen)
        _ = document.edit(.insertText("ab"), at: .zero)
        #expect(document.typePlainly(.arrow(.left), at: .zero) == .done([.textChanged("ab", caret: 1)]))
        #expect(document.typePlainly(.arrow(.up), at: .zero) == .done([.textChanged("ab", caret: 0)]))
        #expect(document.typePlainly(.tab, at: .zero) == .done([.textChanged(" ab", caret: 1)]), "a space in the one-line field")
        #expect(document.typePlainly(.escape, at: .zero) == .escape, "the host screen's")
        #expect(document.typePlainly(.character("x"), at: .zero) == .characters("x"), "cased by shift")
        #expect(document.typePlainly(.shift, at: .zero) == .done([]))
    }

    @Test func plainKeysInSystemMode() {
        var document = Document(mode: .system)
        #expect(document.typePlainly(.arrow(.right), at: .zero) == .done([.send(.key(.right))]))
        #expect(document.typePlainly(.escape, at: .zero) == .done([.send(.key(.escape))]))
        #expect(document.typePlainly(.space, at: .zero) == .done([.send(.text(" "))]))
        #expect(document.typePlainly(.backspace, at: .zero) == .done([.send(.key(.backSpace))]))
        #expect(document.caretRight(at: .zero) == [.send(.key(.right))])
    }

    @Test func modifiedKeysAreShortcutsOnTheHostScreen() {
        var document = Document(mode: .hostScreen)
        _ = document.edit(.insertText("hello world"), at: .zero)
        #expect(document.typeWithModifiers(.arrow(.left), .control, at: .zero, cased: Self.uppercased)
                == .done([.textChanged("hello world", caret: 6)]))
        #expect(document.typeWithModifiers(.character("a"), .control, at: .zero, cased: Self.uppercased)
                == .done([.textChanged("hello world", caret: 11)]))
        #expect(document.textField.selectedText == "hello world", "Ctrl+A selects all")
        #expect(document.typeWithModifiers(.character("v"), .control, at: .zero, cased: Self.uppercased) == .done([.pasteRequested]))
        #expect(document.typeWithModifiers(.character("q"), .control, at: .zero, cased: Self.uppercased) == .done([.quit]))
        #expect(document.typeWithModifiers(.escape, .alt, at: .zero, cased: Self.uppercased) == .escape)
        #expect(document.typeWithModifiers(.character("é"), .alt, at: .zero, cased: Self.uppercased) == .characters("é"),
                "no shortcut: typed plainly")
    }

    @Test func modifiedKeysAreChordsInSystemMode() {
        var document = Document(mode: .system)
        #expect(document.typeWithModifiers(.character("ab"), .control, at: .zero, cased: Self.uppercased)
                == .done([.send(.shortcut("A", modifiers: .control)), .send(.shortcut("B", modifiers: .control))]))
        #expect(document.type(.arrow(.up), with: [.control, .alt], at: .zero, cased: Self.uppercased)
                == .done([.send(.key(.up, modifiers: [.control, .alt]))]))
        #expect(document.type(.tab, with: [], at: .zero, cased: Self.uppercased) == .done([.send(.key(.tab))]))
    }

    @Test func keysToPrepareAreAnnouncedWhenTheyChangeInSystemModeOnly() {
        var system = Document(mode: .system)
        #expect(system.announce("へぇ〜abc") == [.prepareKeys("へぇ〜abc")])
        #expect(system.announce("へぇ〜abc").isEmpty, "unchanged")
        let revision = system.revision
        #expect(system.announce("éへぇ〜abc") == [.prepareKeys("éへぇ〜abc")])
        #expect(system.announce("").isEmpty && system.announcedKeys.isEmpty, "none: nothing to get ready")
        #expect(system.revision == revision, "not drawn")
        var host = Document(mode: .hostScreen)
        #expect(host.announce("abc").isEmpty, "the host screen's field needs no keys")
    }

    @Test func theRevisionCountsTheCompositionAndTheKeyTarget() {
        var document = Document(mode: .system)
        let start = document.revision
        _ = document.edit(.insertText("x"), at: .zero)
        #expect(document.revision == start, "keystrokes are not drawn")
        document.keyTargetChanged(.noFocusedWindow)
        #expect(document.revision == start, "the same target")
        document.keyTargetChanged(.window(FocusedWindow(id: 7, title: "gedit")))
        #expect(document.revision != start)
    }
}
