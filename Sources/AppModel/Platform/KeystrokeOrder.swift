/// When system mode's next keystroke may go on Wayland, where text goes through the input
/// method (`zwp_input_method_v2.commit_string`) and keys through the virtual keyboard
/// (`zwp_virtual_keyboard_v1.key`): two ways with no common order at the application (issue 28).
///
/// GTK 3 and Firefox apply committed text as its `done` arrives and keys later, from their
/// event queue: a key followed 0–5 ms later by text came out after the text (`acb` for `a`,
/// Left, `c`, `b` in 19 of 20 tries in a GtkEntry at 0 ms). Both answer every change to the
/// field with their text input's state (surrounding text, cursor, anchor) at a `done`. So:
/// - after text, everything waits for its answer (foot also drops text whose `done` is older
///   than its last commit);
/// - after a key into an active text input, text waits for the key's answer; keys go on
///   (one way, one order);
/// - an answer is a `done` whose surrounding text differs from the one before (Firefox first
///   answers text with the state before it, 3–46 ms later, then with the text in it), or any
///   `done` from a text input that reports none; a key that changes nothing (Return in a
///   one-line field) gets no answer: `answerWait` bounds every wait;
/// - when the virtual keyboard joins the seat, the compositor (sway) sends the focused window
///   a keyboard leave and enter, and GTK and Firefox disable and enable their text input
///   40–113 ms later: text committed in between was lost. Text waits until that
///   deactivate–activate pair has been seen, at most `joinWait`.
///
/// Time is an input (the app's clock); `deadline` says when a wait ends without an answer.
public struct KeystrokeOrder: Sendable {
    /// The way a keystroke goes.
    public enum Way: Equatable, Sendable {
        case inputMethod
        case virtualKeyboard
    }

    /// The text input's state at a `done` (text-input-v3's surrounding text: the text around
    /// the cursor, the cursor and the selection's anchor in bytes of it).
    public struct Surrounding: Equatable, Sendable {
        public var text: String
        public var cursor: UInt32
        public var anchor: UInt32
        public init(text: String, cursor: UInt32, anchor: UInt32) {
            self.text = text
            self.cursor = cursor
            self.anchor = anchor
        }
    }

    /// The longest wait for an application's answer to text or a key: Firefox 153 answered
    /// a Left key 72 ms after it, text 50 ms after (sway headless, 2 shared cores).
    public static let answerWait: Duration = .milliseconds(250)
    /// The longest text waits after the virtual keyboard joined the seat for the focused
    /// window's deactivate–activate (Firefox 153: 113 ms after, GTK 3: 40 ms).
    public static let joinWait: Duration = .milliseconds(500)

    /// What the keystrokes sent wait for: the way of the last one, since when, and how many
    /// answers (changes of the surrounding text) are still due.
    private var awaiting: (way: Way, since: Duration, answers: Int)?
    /// Since when the virtual keyboard is on the seat without the focused window's
    /// deactivate–activate seen yet, and whether its deactivate was.
    private var joined: (since: Duration, deactivated: Bool)?
    /// The surrounding text at the last `done`, if the text input reports it.
    private var surrounding: Surrounding?

    public init() {}

    /// Whether a keystroke going `way` may go at `now`.
    public func mayGo(_ way: Way, at now: Duration) -> Bool {
        if way == .inputMethod, let joined, now < joined.since + Self.joinWait { return false }
        guard let awaiting, now < awaiting.since + Self.answerWait else { return true }
        // After text everything waits; after a key only text does.
        return awaiting.way == .virtualKeyboard && way == .virtualKeyboard
    }

    /// A keystroke went `way` at `now`; `answered` says whether the application answers it
    /// (text always does; a key only into an active text input that is not a terminal's).
    public mutating func sent(_ way: Way, at now: Duration, answered: Bool) {
        guard answered else { return }
        if way == .inputMethod {
            awaiting = (.inputMethod, now, 1)
        } else if let previous = awaiting, previous.way == .virtualKeyboard, now < previous.since + Self.answerWait {
            awaiting = (.virtualKeyboard, now, previous.answers + 1)
        } else {
            awaiting = (.virtualKeyboard, now, 1)
        }
    }

    /// The virtual keyboard joined the seat at `now` (the compositor re-enters the focused
    /// window).
    public mutating func virtualKeyboardJoined(at now: Duration) {
        joined = (now, false)
    }

    /// The input method's `done`: whether a text input is `active` now and its surrounding
    /// text (`nil` when it reports none).
    public mutating func inputMethodDone(active: Bool, surrounding new: Surrounding?) {
        if let state = joined {
            if !active {
                joined = (state.since, true)
            } else if state.deactivated {
                joined = nil
            }
        }
        let changed = new == nil || new != surrounding
        surrounding = active ? new : nil
        guard let waiting = awaiting else { return }
        if !active {
            awaiting = nil  // the text input ended: nothing more will answer
        } else if changed {
            awaiting = waiting.answers > 1 ? (waiting.way, waiting.since, waiting.answers - 1) : nil
        }
    }

    /// When a wait ends without an answer (the app's clock), if one is on.
    public var deadline: Duration? {
        let ends = [awaiting.map { $0.since + Self.answerWait }, joined.map { $0.since + Self.joinWait }].compactMap { $0 }
        return ends.min()
    }

    /// Forgets waits that have ended by `now`.
    public mutating func expire(at now: Duration) {
        if let waiting = awaiting, now >= waiting.since + Self.answerWait { awaiting = nil }
        if let state = joined, now >= state.since + Self.joinWait { joined = nil }
    }
}
