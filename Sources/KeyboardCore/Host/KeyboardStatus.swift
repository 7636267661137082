/// Whether the keyboard is on screen (seed 001's `KeyboardStatus`).
public enum KeyboardStatus: String, Hashable, Sendable {
    case show
    case hide

    /// The 「状態」 row's text, from seed 001: 「開いている」 (open) or 「閉じている」 (closed).
    /// (Seed 001 spells the property `rowValue`.)
    public var rowValue: String {
        switch self {
        case .show: "開いている"
        case .hide: "閉じている"
        }
    }
}
