/// The host screen's controls that react to a click or touch (seed 001).
public enum HostControl: String, Hashable, Sendable, CaseIterable {
    /// The text field: clicking it focuses it and shows the keyboard.
    case textField
    /// The 「キーボードを閉じる」 button: hides the keyboard (seed 001's `closeKeyboard()`).
    case closeKeyboard
    /// The volume row's − and ＋ buttons (10 points a step).
    case volumeDown
    case volumeUp
    /// The navigation bar's 「リセット」 button: the count goes back to 0.
    case resetCount

    /// Controls that act when released over them (buttons), as opposed to the text field.
    public var isButton: Bool { self != .textField }
}
