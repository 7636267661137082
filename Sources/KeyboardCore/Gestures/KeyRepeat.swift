/// A held key's repeat schedule, backspace's on iOS: after 0.5 s held, every 0.1 s; from 2 s
/// on, each backspace repeat deletes a whole word. The desktop row's arrows repeat on the same
/// schedule. A press made with Ctrl or Alt (latched, locked or held) repeats with them, every
/// repeat the same keystroke: Ctrl+BackSpace already deletes words, and the word phase never
/// turns Alt+BackSpace into Ctrl+Alt+BackSpace.
public struct KeyRepeat: Hashable, Sendable {
    public static let initialDelay: Duration = .milliseconds(500)
    public static let interval: Duration = .milliseconds(100)
    public static let wordsAfter: Duration = .seconds(2)
    /// The key repeating (backspace, or an arrow).
    public var key: KeyID = .backspace
    /// When it went down.
    public var pressedAt: Duration
    /// When the next repeat fires (while not idle).
    public var nextFire: Duration
    /// The modifiers the press went with (a latched one is used up by the press, and still
    /// goes with its repeats).
    public var modifiers: KeyModifiers = []
    /// The text field's revisions when a repeat changed nothing (the field empty, the caret
    /// at its start): the repeat then waits, with no deadline, until they change, so a key
    /// held over a long gap costs nothing once there is nothing to delete.
    var idleAt: TextBuffer.Revisions?

    /// Whether the repeat waits for the text or caret to change.
    public var isIdle: Bool { idleAt != nil }

    /// Whether the repeat due now deletes whole words (backspace held 2 s or more).
    public var deletesWords: Bool { nextFire - pressedAt >= Self.wordsAfter }

    /// The first repeat of this press's schedule at or after `time`.
    func firstFire(atOrAfter time: Duration) -> Duration {
        let first = pressedAt + Self.initialDelay
        guard time > first else { return first }
        var k = Int(((time - first) / Self.interval).rounded(.down))
        while first + Self.interval * k < time { k += 1 }
        while k > 0, first + Self.interval * (k - 1) >= time { k -= 1 }
        return first + Self.interval * k
    }
}
