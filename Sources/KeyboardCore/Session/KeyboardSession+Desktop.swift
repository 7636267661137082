/// The desktop row (issue 21): Escape, Tab, the arrows, and Ctrl and Alt with seed 002's
/// shift rules — a tap latches the modifier for the next key, a double tap within 0.25 s locks
/// it, a tap while locked turns it off, and holding it while another finger taps a key makes
/// a chord. A latched or locked modifier goes with the next key of any kind; the へぇ button
/// takes it too but types 「へぇ〜」 unchanged.
extension KeyboardSession {
    /// The modifiers that go with the next key: latched, locked or held.
    public var activeModifiers: KeyModifiers {
        var modifiers: KeyModifiers = []
        if ctrl.typesUpperCase { modifiers.insert(.control) }
        if alt.typesUpperCase { modifiers.insert(.alt) }
        return modifiers
    }

    /// The state model of a desktop modifier key.
    func model(of modifier: KeyAction.Modifier) -> ShiftKeyModel {
        modifier == .ctrl ? ctrl : alt
    }

    /// A modifier key went down (`down`) or up at `time`.
    mutating func modifierTouched(_ modifier: KeyAction.Modifier, down: Bool, at time: Duration,
                                  _ effects: inout [KeyboardEffect]) {
        var model = model(of: modifier)
        let changed = down ? model.touchDown(at: time) : model.touchUp()
        if modifier == .ctrl { ctrl = model } else { alt = model }
        if changed { effects.append(.modifierChanged(modifier, model.state)) }
    }

    /// A key that takes the modifiers acted: latched ones turn off (held ones make a chord),
    /// as shift does after a letter.
    mutating func modifiersUsed(_ effects: inout [KeyboardEffect]) {
        if ctrl.letterTyped() { effects.append(.modifierChanged(.ctrl, ctrl.state)) }
        if alt.letterTyped() { effects.append(.modifierChanged(.alt, alt.state)) }
    }

    /// Types an alternate chosen from a key's bubble (already in the case shift gives): with
    /// Ctrl or Alt latched, locked or held, as a key of its own does (they are used up).
    mutating func typeChosen(_ text: String, _ effects: inout [KeyboardEffect]) {
        let modifiers = activeModifiers
        guard !modifiers.isEmpty else { return typeCharacters(text, &effects) }
        typeWithModifiers(.character(text), modifiers, &effects)
        if Self.hasCase(text), shift.letterTyped() { effects.append(.shiftChanged(shift.state)) }
        modifiersUsed(&effects)
    }

    /// Types `key` with `modifiers` (not empty): in system mode a keystroke with them held;
    /// on the host screen the text field's shortcut for it, if it has one (Ctrl+A selects all,
    /// Ctrl+← moves by words), else the key as if typed plainly.
    mutating func typeWithModifiers(_ action: KeyAction, _ modifiers: KeyModifiers, _ effects: inout [KeyboardEffect]) {
        switch mode {
        case .system:
            let stroke: Keystroke?
            switch action {
            case .character(let text):
                for character in casedText(text) { effects.append(.send(.shortcut(character, modifiers: modifiers))) }
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
            case .editing(let command)?: perform(command, &effects)
            case .paste?: effects.append(.pasteRequested)
            case .quit?: effects.append(.quit)
            case .escape?: escapePressed(at: clock, &effects)
            case nil: typePlainly(action, &effects)
            }
        }
    }

    /// An arrow, Escape, Tab or backspace without modifiers.
    mutating func typePlainly(_ action: KeyAction, _ effects: inout [KeyboardEffect]) {
        switch action {
        case .arrow(let arrow) where mode == .system:
            effects.append(.send(.key(Self.namedKey(arrow))))
        case .arrow(let arrow):
            let movement: CaretMovement = [.left: .characterLeft, .right: .characterRight, .up: .start, .down: .end][arrow]!
            perform(.move(movement), &effects)
        case .escape where mode == .system:
            effects.append(.send(.key(.escape)))
        case .escape:
            escapePressed(at: clock, &effects)
        case .tab:
            documentEdit(.insertText("\t"), &effects)
        case .backspace:
            documentEdit(.deleteBackward, &effects)
        case .character(let text):
            typeCharacters(text, &effects)
        case .space:
            documentEdit(.insertText(" "), &effects)
        default:
            break
        }
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
