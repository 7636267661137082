/// What a physical key does, given the modifiers held: the editing keys and the shortcuts
/// (Ctrl+A / C / X / V / Z / Y, Ctrl+Shift+Z, Ctrl+Q; Shift extends the selection, Ctrl moves
/// and deletes by word).
public enum KeyShortcut: Hashable, Sendable {
    /// An edit of the text field (`KeyboardInput.editing`).
    case editing(EditingCommand)
    /// Ctrl+V: the app reads the clipboard and sends `.paste`.
    case paste
    /// Ctrl+Q: quit (`KeyboardInput.quitShortcut`).
    case quit
    /// Escape: closes the keyboard, or quits when it is closed (`KeyboardInput.escape`).
    case escape

    /// The action of `key` with `modifiers`, or `nil` when the key does nothing by itself
    /// (a letter without Ctrl is typed through text input, as is anything typed with AltGr).
    public init?(key: PhysicalKey, modifiers: KeyModifiers) {
        let command = modifiers.isCommand
        let extending = modifiers.contains(.shift)
        func move(_ m: CaretMovement) -> KeyShortcut { .editing(.move(m, extendingSelection: extending)) }
        switch key {
        case .backspace: self = .editing(command ? .deleteWordBackward : .deleteBackward)
        case .delete: self = .editing(.deleteForward)
        case .left: self = move(command ? .wordLeft : .characterLeft)
        case .right: self = move(command ? .wordRight : .characterRight)
        case .home, .up: self = move(.start)
        case .end, .down: self = move(.end)
        case .escape: self = .escape
        case .letter(let letter):
            guard command else { return nil }
            switch letter {
            case "a": self = .editing(.selectAll)
            case "c": self = .editing(.copy)
            case "x": self = .editing(.cut)
            case "v": self = .paste
            case "z": self = .editing(extending ? .redo : .undo)
            case "y": self = .editing(.redo)
            case "q": self = .quit
            default: return nil
            }
        }
    }
}
