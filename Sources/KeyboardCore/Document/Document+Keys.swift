/// What the keyboard's keys do to the document: Escape, Tab, the arrows, backspace, space and
/// the characters, plainly or with Ctrl and Alt (issue 21).
extension Document {
    /// What a key did, when the document could not do it all itself.
    public enum KeyOutcome: Hashable, Sendable {
        /// The document took the key; these report it.
        case done([KeyboardEffect])
        /// The host screen's Escape: the keyboard closes, or the app quits (`HostScreen`).
        case escape
        /// These characters are typed, in the case shift gives letters (`Modifiers`), which
        /// a letter then uses up.
        case characters(String)
    }

    /// Types `action` with `modifiers` (empty: plainly). `cased` gives a letter the case shift
    /// gives it now (system mode's keystrokes carry it).
    public mutating func type(_ action: KeyAction, with modifiers: KeyModifiers, at time: Duration,
                              cased: (String) -> String) -> KeyOutcome {
        modifiers.isEmpty ? typePlainly(action, at: time) : typeWithModifiers(action, modifiers, at: time, cased: cased)
    }

    /// An arrow, Escape, Tab, backspace, space or characters without modifiers.
    public mutating func typePlainly(_ action: KeyAction, at time: Duration) -> KeyOutcome {
        switch action {
        case .arrow(let arrow) where mode == .system:
            return .done([.send(.key(Self.namedKey(arrow)))])
        case .arrow(let arrow):
            let movement: CaretMovement = [.left: .characterLeft, .right: .characterRight, .up: .start, .down: .end][arrow]!
            return .done(perform(.move(movement), at: time))
        case .escape where mode == .system:
            return .done([.send(.key(.escape))])
        case .escape:
            return .escape
        case .tab:
            return .done(edit(.insertText("\t"), at: time))
        case .backspace:
            return .done(edit(.deleteBackward, at: time))
        case .character(let text):
            return .characters(text)
        case .space:
            return .done(edit(.insertText(" "), at: time))
        default:
            return .done([])
        }
    }

    /// Types `action` with `modifiers` (not empty): in system mode a keystroke with them held;
    /// on the host screen the text field's shortcut for it, if it has one (Ctrl+A selects all,
    /// Ctrl+← moves by words), else the key as if typed plainly.
    public mutating func typeWithModifiers(_ action: KeyAction, _ modifiers: KeyModifiers, at time: Duration,
                                           cased: (String) -> String) -> KeyOutcome {
        switch mode {
        case .system:
            let stroke: Keystroke?
            var effects: [KeyboardEffect] = []
            switch action {
            case .character(let text):
                for character in cased(text) { effects.append(.send(.shortcut(character, modifiers: modifiers))) }
                stroke = nil
            case .space: stroke = .shortcut(" ", modifiers: modifiers)
            case .return: stroke = .key(.return, modifiers: modifiers)
            case .tab: stroke = .key(.tab, modifiers: modifiers)
            case .escape: stroke = .key(.escape, modifiers: modifiers)
            case .backspace: stroke = .key(.backSpace, modifiers: modifiers)
            case .arrow(let arrow): stroke = .key(Self.namedKey(arrow), modifiers: modifiers)
            default: stroke = nil
            }
            if let stroke { effects.append(.send(stroke)) }
            return .done(effects)
        case .hostScreen:
            let physical: PhysicalKey?
            switch action {
            case .character(let text) where text.count == 1: physical = .letter(Character(text.lowercased()))
            case .backspace: physical = .backspace
            case .escape: physical = .escape
            case .arrow(let arrow): physical = [.left: .left, .right: .right, .up: .up, .down: .down][arrow]
            default: physical = nil
            }
            switch physical.flatMap({ KeyShortcut(key: $0, modifiers: modifiers) }) {
            case .editing(let command)?: return .done(perform(command, at: time))
            case .paste?: return .done([.pasteRequested])
            case .quit?: return .done([.quit])
            case .escape?: return .escape
            case nil: return typePlainly(action, at: time)
            }
        }
    }

    /// The kana pad's `→` outside a composition: the caret moves right, as on iOS.
    public mutating func caretRight(at time: Duration) -> [KeyboardEffect] {
        mode == .system ? [.send(.key(.right))] : perform(.move(.characterRight), at: time)
    }

    /// The X keysym name of an arrow.
    static func namedKey(_ arrow: KeyAction.Arrow) -> NamedKey {
        switch arrow {
        case .left: .left
        case .right: .right
        case .up: .up
        case .down: .down
        }
    }
}
