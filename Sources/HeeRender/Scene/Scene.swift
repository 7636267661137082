import KeyboardCore

/// Everything one frame shows, captured from a `KeyboardSession` at one instant. The
/// renderer draws a `Scene` and nothing else, so a frame is a pure function of it.
public struct Scene: Hashable, Sendable {
    public var layout: KeyboardLayout
    /// How far the keyboard has slid down, in points (0: fully shown).
    public var keyboardOffset: Double
    /// The cap's press fraction: 0 at rest ... 1 pressed (10 pt lower, highlight colour).
    public var capPress: Double
    /// The counter's two characters (seed 000's `%2d`).
    public var counterText: String
    public var shiftState: ShiftState
    /// Whether letters type upper case now (shift on, caps lock, or shift held): the keys'
    /// labels and callouts show that case.
    public var lettersUpperCase: Bool
    public var pressedKeys: Set<KeyID>
    public var pressedHostControl: HostControl?
    public var text: String
    /// Caret offset in `Character`s, and as a UTF-8 offset into `text`.
    public var caret: Int
    public var caretUTF8: Int
    /// The selection's other end (equal to `caret` when nothing is selected), Characters.
    public var anchor: Int
    public var isTextFieldFocused: Bool
    /// Whether the caret is drawn in this frame (it blinks).
    public var isCaretVisible: Bool
    /// The input method's composition, drawn at the caret, underlined.
    public var composition: KeyboardSession.Composition?
    /// The host screen's words (Japanese or English).
    public var strings: HostScreenText
    /// The 「状態」 and 「サイズ」 rows' values.
    public var statusText: String
    public var sizeText: String
    /// Playback volume 0...100 (the volume row).
    public var volume: Int
    /// Whether the counter reached the show's limit (its label reads 「満へぇ」).
    public var isCounterFull: Bool
    /// System mode: the line above the keys that says where they go.
    public var targetLine: String
    /// The return key's label (system mode).
    public var returnLabel: String

    /// The scene of `session` at `time`, labelled in `language`.
    public init(session: KeyboardSession, at time: Duration, language: Language = .ja) {
        layout = session.layout
        keyboardOffset = session.keyboardOffset(at: time)
        capPress = session.capPress(at: time)
        counterText = session.hee.counterText
        shiftState = session.shift.state
        lettersUpperCase = session.shift.typesUpperCase
        pressedKeys = session.pressedKeys
        pressedHostControl = session.pressedHostControl
        text = session.textField.text
        caret = session.textField.caret
        caretUTF8 = session.textField.caretUTF8
        anchor = session.textField.anchor
        isTextFieldFocused = session.isTextFieldFocused
        isCaretVisible = session.isCaretVisible(at: time)
        composition = session.composition
        strings = HostScreenText.of(language)
        statusText = strings.status(session.monitor.keyboardStatus)
        sizeText = session.monitor.sizeText
        volume = session.volume
        isCounterFull = session.hee.isFull
        let systemText = SystemModeText.of(language)
        targetLine = systemText.targetLine(session.keyTarget)
        returnLabel = systemText.returnKey
    }

    /// Whether any part of the keyboard is inside the window.
    public var isKeyboardVisible: Bool { keyboardOffset < layout.keyboardFrame.height }
}
