/// The host screen's words, from seed 001's `ContentView`.
public enum HostScreenText {
    /// `.navigationTitle("キーボード監視")` (keyboard monitor).
    public static let title = "キーボード監視"
    /// The text field's placeholder, `TextField("タップしてください", ...)` (please tap).
    public static let placeholder = "タップしてください"
    /// The status row's label (state).
    public static let statusLabel = "状態"
    /// The size row's label.
    public static let sizeLabel = "サイズ"
    /// The button's label (close the keyboard).
    public static let closeKeyboard = "キーボードを閉じる"
}
