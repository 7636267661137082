/// One unit a keyboard sends to another application in system mode: characters to type, a
/// key the text has no character for, or a character as a shortcut with Ctrl or Alt held.
/// What `KeystrokeDocumentProxy` makes of the edits the keys ask for, and what the desktop
/// row's modifiers make of the next key; the app turns each into key events (X11: XTEST).
public enum Keystroke: Hashable, Sendable, CustomStringConvertible {
    /// Characters to type as they are (one or more `Character`s, no control characters).
    case text(String)
    /// A named key, with `modifiers` (Control, Alt) held while it is pressed.
    case key(NamedKey, modifiers: KeyModifiers = [])
    /// A character's key pressed with `modifiers` (Control and/or Alt) held: Ctrl+C is Control
    /// with the key that types `c` on the current layout, wherever that layout has it.
    case shortcut(Character, modifiers: KeyModifiers)

    /// A named key with Control held or not (backspace's word deletion is Ctrl+BackSpace).
    public static func key(_ key: NamedKey, control: Bool) -> Keystroke {
        .key(key, modifiers: control ? .control : [])
    }

    /// The modifiers held for it.
    public var modifiers: KeyModifiers {
        switch self {
        case .text: []
        case .key(_, let modifiers), .shortcut(_, let modifiers): modifiers
        }
    }

    /// How the trace writes the key: the X keysym name (the character itself for a
    /// shortcut), prefixed with `ctrl+` and `alt+` for the modifiers held (`BackSpace`,
    /// `ctrl+BackSpace`, `ctrl+c`, `alt+Left`). `nil` for text.
    public var keyName: String? {
        let base: String
        switch self {
        case .text: return nil
        case .key(let key, _): base = key.rawValue
        case .shortcut(let character, _): base = String(character)
        }
        return modifiers.traceNames.map { $0 + "+" }.joined() + base
    }

    /// For messages and test failures: `text(…)` with the characters, or the key's trace name.
    public var description: String {
        switch self {
        case .text(let text): "text(\(text))"
        case .key, .shortcut: keyName ?? ""
        }
    }
}

extension KeyModifiers {
    /// The names the trace gives the modifiers a keystroke carries, in order: `ctrl`, `alt`.
    public var traceNames: [String] {
        (contains(.control) ? ["ctrl"] : []) + (contains(.alt) ? ["alt"] : [])
    }
}
