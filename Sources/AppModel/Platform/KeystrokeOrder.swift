/// When system mode's next keystroke may go on Wayland, where text goes through the input
/// method (`zwp_input_method_v2.commit_string`) and keys through the virtual keyboard
/// (`zwp_virtual_keyboard_v1.key`): two ways with no common order at the application (issue 28).
///
/// GTK 3 and Firefox apply committed text as its `done` arrives and keys later, from their
/// event queue: a key followed 0–5 ms later by text came out after the text (`acb` for `a`,
/// Left, `c`, `b` in 19 of 20 tries in a GtkEntry at 0 ms). Text sent after a key is safe
/// only once the application has applied the key, which it says by reporting its text
/// input's new state (surrounding text, cursor, anchor) at a `done`. So:
/// - text waits until every key sent before it into a text field has been answered; keys
///   go on after keys (one way, one order);
/// - after text, everything waits until it has been answered: Firefox holds a key that comes
///   while it still applies text, and applied text committed after that key first (`xyz`
///   for `xy`, Left, `z` in 1 of 15 tries at 0 ms); foot 1.13 drops text whose `done` is
///   older than its last commit;
/// - BackSpace goes through the input method (`delete_surrounding_text`) where the field
///   reports its text, nothing is selected and the state shows everything sent
///   (`stateIsCurrent`): one way with the text, as typed;
/// - each state reported answers the oldest keystroke not yet answered, in order: text when
///   the text before the cursor ends with it (Firefox first reports the state before the
///   text, 3–46 ms later, and sometimes reports a commit only with the next one), a key when
///   the state changed; any `done` when the field reports no state; the text input ending
///   answers everything sent to it (Tab to the next field). A starting text input's first
///   state answers nothing: text typed between Tab's deactivate and the next field's activate
///   goes through the virtual keyboard and is not in it yet (`cefd` for `cdef` in Firefox).
///   A key that changes nothing (Return in a one-line field) gets no answer: each waits at
///   most `answerWait`, and text found in a state after its wait ended answers nothing else;
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

        /// How many times `typed` occurs in the text.
        func count(of typed: String) -> Int {
            let needle = Array(typed.utf8), haystack = Array(text.utf8)
            guard !needle.isEmpty, needle.count <= haystack.count else { return 0 }
            var found = 0
            var start = 0
            while start + needle.count <= haystack.count {
                if haystack[start..<start + needle.count].elementsEqual(needle) {
                    found += 1
                    start += needle.count
                } else {
                    start += 1
                }
            }
            return found
        }

        /// Whether `typed` came into this state since `before`: it occurs once more.
        public func shows(_ typed: String, since before: Surrounding) -> Bool {
            count(of: typed) > before.count(of: typed)
        }

        /// This state with `typed` inserted at the cursor (replacing the selection).
        public func inserting(_ typed: String) -> Surrounding {
            let bytes = Array(text.utf8)
            let start = Int(min(min(cursor, anchor), UInt32(bytes.count))), end = Int(min(max(cursor, anchor), UInt32(bytes.count)))
            let result = String(decoding: bytes[..<start], as: UTF8.self) + typed + String(decoding: bytes[end...], as: UTF8.self)
            let at = UInt32(start + typed.utf8.count)
            return Surrounding(text: result, cursor: at, anchor: at)
        }
    }

    /// The longest a keystroke waits for an application's answer: Firefox 153 answered a
    /// Left key 22–72 ms after it (sway headless, 2 shared cores).
    public static let answerWait: Duration = .milliseconds(250)
    /// How long a keystroke waits for an answer before the field is asked for its state (an
    /// empty commit: the compositor sends the text input a `done`, and GTK, Firefox and
    /// Chromium report their state as it is then). Chromium 156 and, at times, Firefox 153
    /// report a change only when asked: they answer our text with the state before it.
    public static let askAfter: Duration = .milliseconds(30)
    /// The longest text waits after the virtual keyboard joined the seat for the focused
    /// window's deactivate–activate (Firefox 153: 113 ms after, GTK 3: 40 ms).
    public static let joinWait: Duration = .milliseconds(500)

    /// A keystroke sent and not answered yet: text (what to find before the cursor) or a key.
    private enum Unanswered: Sendable {
        /// Text, and the field's state when it went.
        case text(String, before: Surrounding?)
        /// A deletion through the input method (BackSpace).
        case deletion
        case key
    }

    /// Keystrokes sent and not answered yet, oldest first, with when each went.
    private var unanswered: [(what: Unanswered, since: Duration)] = []
    /// Text whose wait ended unanswered: found later, it answers nothing else.
    private var late: [(text: String, before: Surrounding?)] = []
    /// Since when the virtual keyboard is on the seat without the focused window's
    /// deactivate–activate seen yet, and whether its deactivate was.
    private var joined: (since: Duration, deactivated: Bool)?
    /// When the field was last asked for its state, if since the oldest unanswered keystroke.
    private var asked: Duration?
    /// The state at the last `done` while a text input was active, and whether one was.
    private var surrounding: Surrounding?
    private var wasActive = false

    public init() {}

    /// Whether a keystroke going `way` may go at `now`.
    public func mayGo(_ way: Way, at now: Duration) -> Bool {
        if way == .inputMethod, let joined, now < joined.since + Self.joinWait { return false }
        return !unanswered.contains { keystroke in
            guard now < keystroke.since + Self.answerWait else { return false }
            // Text holds everything after it; a key holds text.
            if case .key = keystroke.what { return way == .inputMethod }
            return true
        }
    }

    /// `text` went through the input method at `now`.
    public mutating func sentText(_ text: String, at now: Duration) {
        unanswered.append((.text(text, before: surrounding), now))
    }

    /// A deletion before the cursor went through the input method at `now` (BackSpace where
    /// the field reports its text: then it keeps its place among the text; any change of the
    /// state answers it, and everything after it waits for that, as after text).
    public mutating func sentDeletion(at now: Duration) {
        unanswered.append((.deletion, now))
    }

    /// A key went through the virtual keyboard at `now`; `answered` says whether the
    /// application answers it: unless a terminal reads it or the input method is not ours (a
    /// key sent while no text input is active, Tab moving to the next field say, is answered
    /// once the next field's state shows it).
    public mutating func sentKey(at now: Duration, answered: Bool) {
        if answered { unanswered.append((.key, now)) }
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
        defer {
            surrounding = active ? new : nil
            wasActive = active
        }
        if !active {
            // The text input ended: nothing sent to it will be answered.
            if wasActive {
                unanswered.removeAll()
                late.removeAll()
            }
            return
        }
        guard wasActive else { return }
        guard let new else {
            if !unanswered.isEmpty { unanswered.removeFirst() }
            return
        }
        guard new != surrounding else { return }
        if let index = late.firstIndex(where: { Self.came($0.text, into: new, since: $0.before) }) {
            late.remove(at: index)
            return
        }
        guard let oldest = unanswered.first else { return }
        switch oldest.what {
        case .key, .deletion:
            unanswered.removeFirst()
        case .text(let text, let before) where Self.came(text, into: new, since: before):
            unanswered.removeFirst()
            // A state that is not just the text typed in also shows the key after it (Left
            // applied before Firefox reported the text).
            if let before, new != before.inserting(text), case .key? = unanswered.first?.what { unanswered.removeFirst() }
        case .text:
            break
        }
    }

    /// Whether `text` came into the state `new` since `before` (unknown: it is before the
    /// cursor).
    private static func came(_ text: String, into new: Surrounding, since before: Surrounding?) -> Bool {
        guard let before else { return String(decoding: new.text.utf8.prefix(Int(new.cursor)), as: UTF8.self).hasSuffix(text) }
        return new.shows(text, since: before)
    }

    /// When a wait ends without an answer (the app's clock), if one is on.
    public var deadline: Duration? {
        let ends = [joined.map { $0.since + Self.joinWait }, unanswered.first.map { $0.since + Self.answerWait }, nextAsk].compactMap { $0 }
        return ends.min()
    }

    /// Whether the state last reported shows every keystroke sent (nothing unanswered, no
    /// text whose wait ended without it showing since): a deletion measured on it deletes
    /// what the application's own copy of it says (GTK converts its bytes to characters with
    /// the text it reported; measured on a state that lacked the last text, BackSpace
    /// deleted two characters in Firefox).
    public var stateIsCurrent: Bool { wasActive && unanswered.isEmpty && late.isEmpty }

    /// Whether to ask the field for its state at `now` (a keystroke waits `askAfter` since it
    /// went or since the field was last asked, and a text input is active).
    public func shouldAsk(at now: Duration) -> Bool {
        guard wasActive, let oldest = unanswered.first, let due = nextAsk else { return false }
        return now >= due && now < oldest.since + Self.answerWait
    }

    /// The field was asked for its state at `now`.
    public mutating func asked(at now: Duration) {
        asked = now
    }

    /// When the field is asked next, if a keystroke waits.
    private var nextAsk: Duration? {
        guard wasActive, let oldest = unanswered.first else { return nil }
        return max(oldest.since, asked ?? oldest.since) + Self.askAfter
    }

    /// Forgets waits that have ended by `now`.
    public mutating func expire(at now: Duration) {
        if let state = joined, now >= state.since + Self.joinWait { joined = nil }
        while let oldest = unanswered.first, now >= oldest.since + Self.answerWait {
            unanswered.removeFirst()
            if case .text(let text, let before) = oldest.what { late = Array((late + [(text, before)]).suffix(4)) }
        }
    }
}
