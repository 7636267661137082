/// Modifier keys held with a physical key (SDL's `SDL_Keymod`, told apart only as far as
/// shortcuts need).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let control = KeyModifiers(rawValue: 1 << 1)
    public static let alt = KeyModifiers(rawValue: 1 << 2)
    /// AltGr where the system reports it as its own modifier (X11's ISO_Level3_Shift, SDL's
    /// `KMOD_MODE`).
    public static let altGr = KeyModifiers(rawValue: 1 << 3)

    /// Whether Ctrl makes the key a shortcut: Ctrl held without Alt or AltGr. Where AltGr
    /// arrives as Ctrl+Alt (Windows, and X servers set up that way; Polish, German and other
    /// layouts type `ą`, `@`, `€` with it), Ctrl+Alt+key is the layout typing a character,
    /// which comes as text: it must type, not select all or undo.
    public var isCommand: Bool { contains(.control) && isDisjoint(with: [.alt, .altGr]) }
}

/// The physical keys that edit or act (letters only as far as shortcuts use them).
public enum PhysicalKey: Hashable, Sendable {
    case backspace, delete, left, right, home, end, up, down, escape
    /// A letter key, by the lowercase letter its keysym names (`a` for SDLK_a).
    case letter(Character)
}

/// What a physical key does, given the modifiers held: the editing keys and the shortcuts
/// (Ctrl+A / C / X / V / Z / Y, Ctrl+Shift+Z, Ctrl+Q; Shift extends the selection, Ctrl moves
/// and deletes by word).
public enum KeyShortcut: Hashable, Sendable {
    case editing(EditingCommand)
    /// Ctrl+V: the app reads the clipboard and sends `.paste`.
    case paste
    case quit
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
