/// The host screen's words in one language. The Japanese ones are seed 001's; the inserted
/// text is always 「へぇ〜」 whatever the language.
public struct HostScreenText: Hashable, Sendable {
    /// The window's title.
    public var windowTitle: String
    /// The navigation title (seed 001: `.navigationTitle("キーボード監視")`).
    public var title: String
    /// The text field's placeholder (seed 001: `TextField("タップしてください", ...)`).
    public var placeholder: String
    /// The status row's label and its two values (seed 001's `KeyboardStatus.rowValue`).
    public var statusLabel: String
    public var shown: String
    public var hidden: String
    /// The size row's label.
    public var sizeLabel: String
    /// The button that closes the keyboard (seed 001).
    public var closeKeyboard: String
    /// The volume row's label.
    public var volumeLabel: String
    /// The navigation bar's button that resets the count.
    public var resetCount: String

    /// Seed 001's Japanese.
    public static let japanese = HostScreenText(
        windowTitle: "へぇキーボード", title: "キーボード監視", placeholder: "タップしてください",
        statusLabel: "状態", shown: "開いている", hidden: "閉じている", sizeLabel: "サイズ",
        closeKeyboard: "キーボードを閉じる", volumeLabel: "音量", resetCount: "リセット")

    /// English.
    public static let english = HostScreenText(
        windowTitle: "Hee Keyboard", title: "Keyboard Monitor", placeholder: "Tap here",
        statusLabel: "Status", shown: "Shown", hidden: "Hidden", sizeLabel: "Size",
        closeKeyboard: "Close keyboard", volumeLabel: "Volume", resetCount: "Reset")

    /// The words for `language`.
    public static func of(_ language: Language) -> HostScreenText {
        language == .ja ? japanese : english
    }

    /// The status row's value.
    public func status(_ status: KeyboardStatus) -> String {
        status == .show ? shown : hidden
    }
}
