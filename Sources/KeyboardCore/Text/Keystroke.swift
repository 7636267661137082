/// One unit a keyboard sends to another application in system mode: characters to type, or
/// a key the text has no character for. What `KeystrokeDocumentProxy` makes of the edits the
/// keys ask for; the app turns each into key events (X11: XTEST).
public enum Keystroke: Hashable, Sendable, CustomStringConvertible {
    /// Characters to type as they are (one or more `Character`s, no control characters).
    case text(String)
    /// A named key, with Control held while it is pressed when `control` is set.
    case key(NamedKey, control: Bool = false)

    /// How the trace writes the key: the X keysym name, prefixed with `ctrl+` when Control
    /// is held (`BackSpace`, `Return`, `ctrl+BackSpace`). `nil` for text.
    public var keyName: String? {
        guard case .key(let key, let control) = self else { return nil }
        return (control ? "ctrl+" : "") + key.rawValue
    }

    /// For messages and test failures: `text(…)` with the characters, or the key's trace name.
    public var description: String {
        switch self {
        case .text(let text): "text(\(text))"
        case .key: keyName ?? ""
        }
    }
}
