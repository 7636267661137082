import KeyboardCore

/// Types system mode's keystrokes into the application that has the keyboard focus.
///
/// One implementation per platform: `X11KeystrokeSender` (XTEST, with characters the layout
/// lacks borrowed onto spare keycodes) and `WaylandKeystrokeSender` (input-method-v2 for text
/// while a text input is active, else virtual-keyboard-v1). The session decides what to type (`.send` effects);
/// a sender only delivers, in order, and says why when it cannot.
protocol KeySender: AnyObject {
    /// Types `stroke` now (`now`: the app's clock, for work the sender defers).
    /// - Returns: the way it went where there are several, for the trace's `via`
    ///   (Wayland: `input-method`, `virtual-keyboard`); `nil` where there is one (X11).
    /// - Throws: `KeySendFailure` with the reason when it was not typed (no key for a
    ///   character and no spare keycode left, the server refused, ...).
    @discardableResult
    func send(_ stroke: Keystroke, at now: Duration) throws(KeySendFailure) -> String?

    /// Gets keys ready for the characters of `text` before a press needs them — the
    /// session's `KeyboardEffect.prepareKeys`, most urgent first: the keys held, a bubble's
    /// choices, the kana pad's commit, 「へぇ〜」, the layer shown — so the press costs no
    /// keymap change. Failures are left for `send` to report.
    func prepare(_ text: String, at now: Duration)

    /// When the sender has work due without input (borrowed keycodes given back), if any.
    var deadline: Duration? { get }

    /// Whether keystrokes handed over by `send` still wait their turn (Wayland: for the
    /// application's answer to the keystrokes before them): the app delivers them before it
    /// quits.
    var hasQueuedKeystrokes: Bool { get }

    /// Does the work due at `now`.
    func tick(at now: Duration)
}

/// Why a keystroke was not typed, in words for the trace's `dropped` and for stderr.
struct KeySendFailure: Error, CustomStringConvertible {
    /// One line, e.g. "no window has focus".
    let description: String
}

extension KeySender {
    var hasQueuedKeystrokes: Bool { false }
}
