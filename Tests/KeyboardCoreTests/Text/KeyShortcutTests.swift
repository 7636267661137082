import KeyboardCore
import Testing

/// Issue 11, item 2: shortcuts fire for Ctrl without Alt only. Where AltGr arrives as
/// Ctrl+Alt (Polish `ą` is AltGr+A, German `@` AltGr+Q, `€` AltGr+E), the key is the layout
/// typing text, which follows as a textinput.
@Suite("Physical keys and shortcuts")
struct KeyShortcutTests {
    static let altGrs: [KeyModifiers] = [[.control, .alt], [.altGr], [.control, .altGr], [.control, .alt, .shift]]

    @Test func ctrlShortcuts() {
        let table: [(Character, KeyShortcut)] = [
            ("a", .editing(.selectAll)), ("c", .editing(.copy)), ("x", .editing(.cut)), ("v", .paste),
            ("z", .editing(.undo)), ("y", .editing(.redo)), ("q", .quit),
        ]
        for (letter, expected) in table {
            #expect(KeyShortcut(key: .letter(letter), modifiers: .control) == expected, "Ctrl+\(letter)")
        }
        #expect(KeyShortcut(key: .letter("z"), modifiers: [.control, .shift]) == .editing(.redo))
        #expect(KeyShortcut(key: .letter("b"), modifiers: .control) == nil)
    }

    @Test("letters typed with AltGr (or Ctrl+Alt) are text, not shortcuts", arguments: altGrs)
    func altGrLettersAreText(_ modifiers: KeyModifiers) {
        #expect(!modifiers.isCommand)
        for letter in "acxvzyqels" {
            #expect(KeyShortcut(key: .letter(letter), modifiers: modifiers) == nil, "\(modifiers) + \(letter)")
        }
    }

    @Test("editing keys with AltGr act as without Ctrl", arguments: altGrs)
    func altGrEditingKeys(_ modifiers: KeyModifiers) {
        let extending = modifiers.contains(.shift)
        #expect(KeyShortcut(key: .backspace, modifiers: modifiers) == .editing(.deleteBackward))
        #expect(KeyShortcut(key: .left, modifiers: modifiers) == .editing(.move(.characterLeft, extendingSelection: extending)))
        #expect(KeyShortcut(key: .right, modifiers: modifiers) == .editing(.move(.characterRight, extendingSelection: extending)))
    }

    @Test func plainAndCtrlEditingKeys() {
        #expect(KeyShortcut(key: .letter("a"), modifiers: []) == nil)
        #expect(KeyShortcut(key: .letter("a"), modifiers: .shift) == nil)
        #expect(KeyShortcut(key: .letter("a"), modifiers: .alt) == nil)
        #expect(KeyShortcut(key: .backspace, modifiers: []) == .editing(.deleteBackward))
        #expect(KeyShortcut(key: .backspace, modifiers: .control) == .editing(.deleteWordBackward))
        #expect(KeyShortcut(key: .delete, modifiers: .control) == .editing(.deleteForward))
        #expect(KeyShortcut(key: .left, modifiers: .control) == .editing(.move(.wordLeft)))
        #expect(KeyShortcut(key: .right, modifiers: [.control, .shift]) == .editing(.move(.wordRight, extendingSelection: true)))
        #expect(KeyShortcut(key: .home, modifiers: .shift) == .editing(.move(.start, extendingSelection: true)))
        #expect(KeyShortcut(key: .up, modifiers: []) == .editing(.move(.start)))
        #expect(KeyShortcut(key: .end, modifiers: []) == .editing(.move(.end)))
        #expect(KeyShortcut(key: .down, modifiers: []) == .editing(.move(.end)))
        #expect(KeyShortcut(key: .escape, modifiers: [.control, .alt]) == .escape)
    }

    /// The case through the session: "xy", then AltGr+A as Ctrl+Alt with its text.
    @Test func polishAltGrTypesIntoTheField() {
        var session = KeyboardSession.launched()
        session.send(.textInput("xy"), at: 100)
        if let shortcut = KeyShortcut(key: .letter("a"), modifiers: [.control, .alt]), case .editing(let c) = shortcut {
            session.send(.editing(c), at: 200)
        }
        session.send(.textInput("ą"), at: 200)
        #expect(session.document.textField.text == "xyą")
        #expect(session.document.textField.caret == 3)
    }
}
