/// Keys that edit text without typing a character. Raw values are X keysym names (the
/// names the trace uses and X11's `XStringToKeysym` knows).
public enum NamedKey: String, Hashable, Sendable, CaseIterable {
    /// Deletes the character before the caret; with Control, the word (`deleteWordBackward`).
    case backSpace = "BackSpace"
    /// A line break (the return key, a typed LF, CR or CR LF).
    case `return` = "Return"
    /// A typed tab character.
    case tab = "Tab"
    /// Moves the caret one character left / right (`adjustTextPosition`).
    case left = "Left"
    case right = "Right"
}
