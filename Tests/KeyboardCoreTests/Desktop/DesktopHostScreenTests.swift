import KeyboardCore
import Testing

/// The desktop row where it is shown (issue 21): system mode by default, the host screen when
/// asked for (`"desktopKeys": true`), and neither with `false`. On the host screen its keys
/// act on the text field as the physical keys do: the field's own shortcuts (Ctrl+A selects
/// all, Ctrl+← moves by words), the arrows move the caret, Escape closes the keyboard.
@Suite("Desktop row: where it is shown, and the host screen")
struct DesktopHostScreenTests {
    static let rowKeys: [KeyID] = ["esc", "tab", "ctrl", "alt", "left", "down", "up", "right"]

    /// Types `text` (letters and spaces) by tapping keys 100 ms apart from `start` ms; returns
    /// the time after.
    static func type(_ text: String, _ session: inout KeyboardSession, from start: Int) throws -> Int {
        var time = start
        for character in text {
            try session.tap(character == " " ? .space : .letter(character), at: time)
            time += 100
        }
        return time
    }

    // MARK: Where the row is

    @Test("the row is shown by default in system mode only", arguments: [
        (KeyboardMode.system, nil as Bool?, true), (.system, true, true), (.system, false, false),
        (.hostScreen, nil, false), (.hostScreen, true, true), (.hostScreen, false, false),
    ])
    func shown(mode: KeyboardMode, desktopKeys: Bool?, expected: Bool) throws {
        let size = mode == .system ? KeyboardLayout.defaultSystemWindowSize() : KeyboardLayout.defaultWindowSize
        let session = KeyboardSession(windowSize: size, mode: mode, desktopKeys: desktopKeys)
        #expect(session.desktopKeys == expected)
        #expect(session.layout.showsDesktopRow == expected)
        for key in Self.rowKeys { #expect((session.layout.keys[key] != nil) == expected, "\(key)") }
        guard expected else { return }
        // One row under the へぇ button, above the letters, in the layout's order.
        let rects = try Self.rowKeys.map { try #require(session.layout.keys[$0]) }
        let hee = try #require(session.layout.keys[.hee]), q = try #require(session.layout.keys[.letter("q")])
        for (a, b) in zip(rects, rects.dropFirst()) {
            #expect(a.y == b.y && a.height == b.height && a.maxX < b.minX)
        }
        #expect(rects[0].minY > hee.maxY && rects[0].maxY < q.minY)
        #expect(session.layout.orderedKeys.filter { Self.rowKeys.contains($0) } == Self.rowKeys)
    }

    @Test("another layer and a resize keep the row as the session has it",
          arguments: [(KeyboardMode.system, false), (.hostScreen, true)])
    func layerAndResizeKeepTheChoice(mode: KeyboardMode, desktopKeys: Bool) throws {
        let size = mode == .system ? KeyboardLayout.defaultSystemWindowSize() : KeyboardLayout.defaultWindowSize
        var session = KeyboardSession(windowSize: size, mode: mode, desktopKeys: desktopKeys)
        session.send(.launched, at: 0)
        try session.tap("123", at: 1000)
        #expect(session.layerName == "numbers")
        #expect(session.layout.showsDesktopRow == desktopKeys, "numbers layer")
        #expect((session.layout.keys["ctrl"] != nil) == desktopKeys)
        try session.tap("#+=", at: 2000)
        #expect(session.layout.showsDesktopRow == desktopKeys, "symbols layer")
        session.send(.windowResized(Size(width: size.width + 100, height: size.height + 50)), at: 3000)
        #expect(session.layout.showsDesktopRow == desktopKeys, "after a resize")
        try session.tap("ABC", at: 4000)
        #expect(session.layout.showsDesktopRow == desktopKeys, "letters again")
        let expectedRows = KeyboardLayout.keyRows(of: .english, desktopKeys: desktopKeys)
        #expect(session.layout.windowSize.height >= KeyboardLayout.minimumWindowSize(for: mode, keyRows: expectedRows).height)
    }

    // MARK: The host screen's text field

    @Test func ctrlASelectsAllThenALetterReplacesIt() throws {
        var session = Desktop.hostScreen()
        var t = try Self.type("hello world", &session, from: 1000)
        #expect(session.document.textField.text == "hello world")
        try session.tap(Desktop.ctrl, at: t)
        let a = try session.tap(.letter("a"), at: t + 200)
        #expect(a.modifierChanges == [ModifierChange(.ctrl, .off)])
        #expect(session.document.textField.selectedText == "hello world")
        t = try Self.type("x", &session, from: t + 400)
        #expect(session.document.textField.text == "x")
        #expect(session.document.textField.caret == 1)
    }

    @Test func arrowsMoveTheCaretAndALetterLandsThere() throws {
        var session = Desktop.hostScreen()
        let t = try Self.type("hello world", &session, from: 1000)
        try session.tap(Desktop.left, at: t)
        try session.tap(Desktop.left, at: t + 200)
        #expect(session.document.textField.caret == 9)
        _ = try Self.type("x", &session, from: t + 400)
        #expect(session.document.textField.text == "hello worxld")
        try session.tap(Desktop.up, at: t + 600)
        #expect(session.document.textField.caret == 0)
        try session.tap(Desktop.down, at: t + 800)
        #expect(session.document.textField.caret == 12)
        try session.tap(Desktop.right, at: t + 1000)
        #expect(session.document.textField.caret == 12)
    }

    @Test func lockedCtrlMovesByWords() throws {
        var session = Desktop.hostScreen()
        let t = try Self.type("hello big world", &session, from: 1000)
        try session.tap(Desktop.ctrl, at: t)
        try session.tap(Desktop.ctrl, at: t + 100)
        #expect(session.modifiers.ctrl.state == .capsLock)
        try session.tap(Desktop.left, at: t + 400)
        #expect(session.document.textField.caret == 10)
        try session.tap(Desktop.left, at: t + 600)
        #expect(session.document.textField.caret == 6)
        try session.tap(Desktop.right, at: t + 800)
        #expect(session.document.textField.caret == 9)
        try session.tap(.backspace, at: t + 1000)   // Ctrl+BackSpace: the word before the caret
        #expect(session.document.textField.text == "hello  world")
        #expect(session.modifiers.ctrl.state == .capsLock)
    }

    @Test func ctrlCopiesPastesAndQuits() throws {
        var session = Desktop.hostScreen()
        session.send(.textInput("abc"), at: 500)
        try session.tap(Desktop.ctrl, at: 1000)
        try session.tap(.letter("a"), at: 1200)
        try session.tap(Desktop.ctrl, at: 1400)
        #expect(try session.tap(.letter("c"), at: 1600).contains(.setClipboard("abc")))
        try session.tap(Desktop.ctrl, at: 1800)
        #expect(try session.tap(.letter("v"), at: 2000).contains(.pasteRequested))
        try session.tap(Desktop.ctrl, at: 2200)
        #expect(try session.tap(.letter("q"), at: 2400).contains(.quit))
        #expect(session.document.textField.text == "abc")
    }

    @Test func heeTypesItsTextUnchangedAndUsesCtrlUp() throws {
        var session = Desktop.hostScreen()
        try session.tap(Desktop.ctrl, at: 1000)
        let hee = try session.tap(.hee, at: 1200)
        #expect(hee.texts == ["へぇ〜"])
        #expect(hee.modifierChanges == [ModifierChange(.ctrl, .off)])
        #expect(session.document.textField.text == "へぇ〜")
    }

    @Test func escapeClosesTheKeyboardAsThePhysicalKeyDoes() throws {
        var session = Desktop.hostScreen()
        let effects = try session.tap(Desktop.esc, at: 1000)
        #expect(effects.contains(.stopTextInput))
        #expect(!session.hostScreen.isTextFieldFocused)
        #expect(session.hostScreen.visibility.target == .hide)
    }

    /// The host screen's field is one line: a tab becomes a space there, as a pasted one does.
    @Test func tabTypesASpaceInTheOneLineField() throws {
        var session = Desktop.hostScreen()
        session.send(.textInput("ab"), at: 500)
        try session.tap(Desktop.tab, at: 1000)
        #expect(session.document.textField.text == "ab ")
        #expect(session.document.textField.caret == 3)
    }
}
