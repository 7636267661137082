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
    /// Wayland, after `keysGoTo`: the focused window, when the compositor does not say more.
    public var focusedWindow: String
    /// Wayland, after `keysGoTo`: the focused application's text field (input method active).
    public var textField: String
    /// The focused field's kind, after the target (issue 30): each purpose's name, around it
    /// `kindOpen` and `kindClose`.
    public var kindNames: [TextContext.Purpose: String]
    public var kindOpen: String
    public var kindClose: String

    /// Japanese (iOS's 「改行」 for return).
    public static let japanese = SystemModeText(
        returnKey: "改行", keysGoTo: "入力先：", untitledWindow: "名前のないウィンドウ ",
        noFocusedWindow: "フォーカスのあるウィンドウがありません", unavailable: "X11 ではないため入力できません",
        focusedWindow: "フォーカスのあるウィンドウ", textField: "テキスト欄（インプットメソッド）",
        kindNames: [.normal: "テキスト", .alpha: "英字", .digits: "数字", .number: "数値", .phone: "電話番号", .url: "URL",
                    .email: "メール", .name: "名前", .password: "パスワード", .pin: "暗証番号", .date: "日付", .time: "時刻",
                    .datetime: "日時", .terminal: "端末"],
        kindOpen: "（", kindClose: "）")

    /// English (iOS's "return").
    public static let english = SystemModeText(
        returnKey: "return", keysGoTo: "Keys go to: ", untitledWindow: "untitled window ",
        noFocusedWindow: "No window has focus", unavailable: "Cannot type here: not an X11 session",
        focusedWindow: "the focused window", textField: "a text field (input method)",
        kindNames: [.normal: "text", .alpha: "letters", .digits: "digits", .number: "number", .phone: "phone", .url: "URL",
                    .email: "email", .name: "name", .password: "password", .pin: "PIN", .date: "date", .time: "time",
                    .datetime: "date and time", .terminal: "terminal"],
        kindOpen: " · ", kindClose: "")

    /// The words for `language`.
    public static func of(_ language: Language) -> SystemModeText {
        language == .ja ? japanese : english
    }

    /// The line above the keys for `target` and the focused `field` (issue 30), e.g.
    /// "Keys go to: Terminal · terminal", 「入力先：Firefox（メール）」: the field's kind only
    /// (`TextContext.kind`), never its text; nothing of it when no field has the focus.
    public func targetLine(_ target: KeyTarget, field: TextContext = .inactive) -> String {
        let line = targetLine(target)
        guard let kind = field.kind, target != .noFocusedWindow, target != .unavailable else { return line }
        return line + kindOpen + (kindNames[kind] ?? kind.name) + kindClose
    }

    /// The line above the keys for `target`, e.g. "Keys go to: Terminal".
    public func targetLine(_ target: KeyTarget) -> String {
        switch target {
        case .noFocusedWindow:
            return noFocusedWindow
        case .unavailable:
            return unavailable
        case .focusedSurface(let textInput):
            return keysGoTo + (textInput == true ? textField : focusedWindow)
        case .window(let window):
            let name = window.title.isEmpty ? untitledWindow + "0x" + String(window.id, radix: 16) : window.title
            return keysGoTo + name
        }
    }
}
