/// Keys that edit text without typing a character. Raw values are X keysym names (the
/// names the trace uses and X11's `XStringToKeysym` knows).
public enum NamedKey: String, Hashable, Sendable, CaseIterable {
    case backSpace = "BackSpace"
    case `return` = "Return"
    case tab = "Tab"
    case left = "Left"
    case right = "Right"
}
