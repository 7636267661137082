/// The host screen's controls that react to a click or touch (seed 001).
public enum HostControl: String, Hashable, Sendable, CaseIterable {
    /// The text field: clicking it focuses it and shows the keyboard.
    case textField
    /// The 「キーボードを閉じる」 button: hides the keyboard (seed 001's `closeKeyboard()`).
    case closeKeyboard
}
