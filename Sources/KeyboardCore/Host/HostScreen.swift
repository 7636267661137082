/// The host screen's watch on the keyboard (seed 001): whether the keyboard is shown or
/// sliding, the status and frame last reported to the screen (`KeyboardMonitor`), whether the
/// text field is first responder, and a return that ends editing.
///
/// A part of `KeyboardSession`. It answers with the effects of its own changes (audio started
/// and stopped with the keyboard, text input started and stopped with the focus, the frame
/// reported once it settles); what closing the keyboard does to the keys, the document and
/// the kana pad the session routes to them.
public struct HostScreen: Hashable, Sendable {
    /// Host screen with its text field, or system mode (keys go to another application).
    public let mode: KeyboardMode
    /// Status and frame as last reported to the host screen.
    public private(set) var monitor = KeyboardMonitor() { didSet { if monitor != oldValue { revision &+= 1 } } }
    /// The keyboard shown, hidden or sliding.
    public private(set) var visibility = KeyboardVisibility(resting: .hide) {
        didSet { if visibility != oldValue { revision &+= 1 } }
    }
    /// Whether the text field is first responder (has the caret and takes typing).
    public private(set) var isTextFieldFocused = false { didSet { if isTextFieldFocused != oldValue { revision &+= 1 } } }
    /// The host screen's return key typed: editing ends once the key's release is reported.
    public private(set) var isReturnPending = false
    /// Counts changes of what is drawn: the status and size lines, the keyboard's slide, the
    /// caret's presence.
    public private(set) var revision = 0

    /// What Escape does (`escapePressed()`).
    public enum Escape: Hashable, Sendable {
        /// Nothing (system mode's keyboard has no way back once closed).
        case ignored
        /// The keyboard closes (seed 001's `closeKeyboard()`).
        case closeKeyboard
        /// The app quits: the keyboard is already closed.
        case quit
    }

    /// The screen of `mode`, the keyboard hidden until `launched()`.
    public init(mode: KeyboardMode) {
        self.mode = mode
    }

    /// Whether the keys take touches: the keyboard is shown or sliding in.
    public var keysAreLive: Bool { visibility.target == .show }

    /// Whether the keyboard's slide has finished at `time`.
    public func isSettled(at time: Duration) -> Bool { visibility.isSettled(at: time) }

    /// The keyboard's vertical offset at `time` in points: 0 shown, `height` (the keyboard's,
    /// points) when hidden.
    public func keyboardOffset(at time: Duration, height: Double) -> Double {
        visibility.hiddenFraction(at: time) * height
    }

    // MARK: Inputs

    /// The app started: the keyboard is shown at once (no slide) and the audio engine starts,
    /// or, `shown` false (system mode's auto-show with no field focused, issue 30), it rests
    /// hidden and the audio engine stays closed.
    public mutating func launched(shown: Bool = true) -> [KeyboardEffect] {
        visibility = KeyboardVisibility(resting: shown ? .show : .hide)
        return shown ? [.startAudioEngine] : []
    }

    /// The text field becomes first responder: text input starts at `frame` (points). Nothing
    /// when it already is.
    public mutating func focusTextField(frame: Rect) -> [KeyboardEffect] {
        guard !isTextFieldFocused else { return [] }
        isTextFieldFocused = true
        return [.startTextInput(frame)]
    }

    /// The text field resigns first responder: text input stops. Nothing when it was not.
    public mutating func resignTextField() -> [KeyboardEffect] {
        guard isTextFieldFocused else { return [] }
        isTextFieldFocused = false
        return [.stopTextInput]
    }

    /// The keyboard starts sliding in at `time` (the audio engine with it); nothing when it is
    /// already shown or showing.
    public mutating func showKeyboard(at time: Duration) -> [KeyboardEffect] {
        visibility.show(at: time) ? [.startAudioEngine] : []
    }

    /// The keyboard starts sliding away at `time`, and the audio engine stops; nothing (an
    /// empty answer) when it is already hidden or hiding.
    public mutating func hideKeyboard(at time: Duration) -> [KeyboardEffect] {
        visibility.hide(at: time) ? [.stopAudioEngine] : []
    }

    /// System mode's keyboard appears (`shown`) or goes at once, with no slide (its surface is
    /// mapped or unmapped; issue 30), the audio engine with it; nothing when it already is so.
    public mutating func setShownAtOnce(_ shown: Bool) -> [KeyboardEffect] {
        guard (visibility.target == .show) != shown else { return [] }
        visibility = KeyboardVisibility(resting: shown ? .show : .hide)
        return [shown ? .startAudioEngine : .stopAudioEngine]
    }

    /// What Escape does now: nothing in system mode, else the keyboard closes, or the app
    /// quits once it is closed.
    public func escapePressed() -> Escape {
        if mode == .system { .ignored } else if visibility.target == .show { .closeKeyboard } else { .quit }
    }

    /// The host screen's return key typed: editing will end once its release is reported
    /// (`takeReturn()`), so keys held by other pointers are released once.
    public mutating func returnTyped() { isReturnPending = true }

    /// Whether a return is pending (and it is no longer): editing ends now.
    public mutating func takeReturn() -> Bool {
        guard isReturnPending else { return false }
        isReturnPending = false
        return true
    }

    /// Reports the keyboard's frame (`keyboardFrame` while shown, zero while hidden, points)
    /// once a slide or a resize has settled at `time` (seed 001's keyboard-did-change-frame).
    public mutating func reportKeyboardFrame(at time: Duration, keyboardFrame: Rect) -> [KeyboardEffect] {
        guard visibility.isSettled(at: time) else { return [] }
        let frame = visibility.target == .show ? keyboardFrame : .zero
        guard frame != monitor.keyboardRect else { return [] }
        monitor.keyboardDidChangeFrame(frame)
        return [.keyboardFrameChanged(monitor.keyboardStatus, frame)]
    }
}
