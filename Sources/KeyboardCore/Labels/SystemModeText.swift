/// System mode's words in one language: the return key's label and the line that says
/// where the keys go.
public struct SystemModeText: Hashable, Sendable {
    /// The return key's label (iOS: "return", 「改行」).
    public var returnKey: String
    /// Before the focused window's title.
    public var keysGoTo: String
    /// Instead of a title, for a window that has none (followed by its id in hex).
    public var untitledWindow: String
    /// When no window has the keyboard focus.
    public var noFocusedWindow: String
    /// When keys cannot be sent at all (not an X11 session).
    public var unavailable: String

    /// Japanese (iOS's 「改行」 for return).
    public static let japanese = SystemModeText(
        returnKey: "改行", keysGoTo: "入力先：", untitledWindow: "名前のないウィンドウ ",
        noFocusedWindow: "フォーカスのあるウィンドウがありません", unavailable: "X11 ではないため入力できません")

    /// English (iOS's "return").
    public static let english = SystemModeText(
        returnKey: "return", keysGoTo: "Keys go to: ", untitledWindow: "untitled window ",
        noFocusedWindow: "No window has focus", unavailable: "Cannot type here: not an X11 session")

    /// The words for `language`.
    public static func of(_ language: Language) -> SystemModeText {
        language == .ja ? japanese : english
    }

    /// The line above the keys for `target`, e.g. "Keys go to: Terminal".
    public func targetLine(_ target: KeyTarget) -> String {
        switch target {
        case .noFocusedWindow:
            return noFocusedWindow
        case .unavailable:
            return unavailable
        case .window(let window):
            let name = window.title.isEmpty ? untitledWindow + "0x" + String(window.id, radix: 16) : window.title
            return keysGoTo + name
        }
    }
}
