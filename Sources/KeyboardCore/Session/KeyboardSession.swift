/// The whole app's behaviour as one state machine: host screen (seed 001), へぇ button
/// (seed 000), shift key (seed 002) and the letter keys, fed with `KeyboardInput`s and the
/// time they happened, answering with the `KeyboardEffect`s to perform.
///
/// The keys edit only through a `TextDocumentProxy`: the host screen's text field, or in
/// system mode (`KeyboardMode.system`) a `KeystrokeDocumentProxy` whose keystrokes come out
/// as `.send` effects for the app to type into another application. Every key rule is the
/// same code in both modes.
///
/// Times are `Duration`s since the session started (the app passes SDL event timestamps), so
/// every rule can be driven exactly by tests and replays.
public struct KeyboardSession: Hashable, Sendable {
    /// How long the cap takes to sink or rise (about 0.1 s, the figure).
    public static let pressAnimationDuration: Duration = .milliseconds(100)

    public internal(set) var layout: KeyboardLayout
    /// Host screen with its text field, or system mode (keys go to another application).
    public let mode: KeyboardMode
    public internal(set) var hee: HeeButtonModel
    /// Playback volume, 0...100.
    public internal(set) var volume: Int
    public internal(set) var shift = ShiftKeyModel()
    /// The text field's content. The keyboard edits it only through `TextDocumentProxy`.
    public internal(set) var textField = TextBuffer()
    /// System mode's document: the keys' edits as keystrokes (taken at once, see `.send`).
    public internal(set) var keystrokes = KeystrokeDocumentProxy()
    /// System mode: where the keys go, as the app last reported it (shown above the keys).
    public internal(set) var keyTarget = KeyTarget.noFocusedWindow
    /// Status and frame as last reported to the host screen (seed 001).
    public internal(set) var monitor = KeyboardMonitor()
    public internal(set) var visibility = KeyboardVisibility(resting: .hide)
    /// Whether the text field is first responder (has the caret and takes typing).
    public internal(set) var isTextFieldFocused = false
    /// The cap's press animation: 0 at rest, 1 pressed (10 pt down, highlight colour).
    public internal(set) var capTransition = Transition.resting(at: 0)
    /// What each pointer that is down is holding.
    public internal(set) var pointers: [PointerID: PointerTarget] = [:]
    /// Backspace's auto-repeat while it is held.
    public internal(set) var backspaceRepeat: KeyRepeat?
    /// The input method's text being composed, shown at the caret and not yet in the field.
    public internal(set) var composition: Composition?
    /// When the caret last moved or the text changed (the blink restarts from there).
    public internal(set) var caretActivity: Duration = .zero

    /// Text an input method is composing.
    public struct Composition: Hashable, Sendable {
        public var text: String
        /// The IME's cursor within `text`, in Characters.
        public var cursor: Int
    }

    /// The caret blinks with this period (visible the first half) after activity...
    public static let caretBlinkPeriod: Duration = .milliseconds(1_000)
    /// ...and stays solid once this long has passed without activity, as GTK does, so an idle
    /// app never wakes up.
    public static let caretBlinkTimeout: Duration = .seconds(10)
    /// The latest time handled (times never go backwards for repeats).
    var clock: Duration = .zero

    /// Backspace's repeat schedule, like iOS: after 0.5 s held, every 0.1 s; from 2 s on,
    /// each repeat deletes a whole word.
    public struct KeyRepeat: Hashable, Sendable {
        public static let initialDelay: Duration = .milliseconds(500)
        public static let interval: Duration = .milliseconds(100)
        public static let wordsAfter: Duration = .seconds(2)
        /// When backspace went down.
        public var pressedAt: Duration
        /// When the next repeat fires (while not idle).
        public var nextFire: Duration
        /// The text field's revisions when a repeat changed nothing (the field empty, the
        /// caret at its start): the repeat then waits, with no deadline, until they change,
        /// so a key held over a long gap costs nothing once there is nothing to delete.
        var idleAt: TextBuffer.Revisions?

        /// Whether the repeat waits for the text or caret to change.
        public var isIdle: Bool { idleAt != nil }

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

    /// What a pointer holds.
    public enum PointerTarget: Hashable, Sendable {
        /// A key, or `nil` after a letter press slid off every letter key.
        case key(KeyID?)
        /// A host control (acts when released over it).
        case host(HostControl)
        /// Nothing that reacts.
        case none
    }

    /// The volume buttons' step.
    public static let volumeStep = 10

    /// A session for a window of `windowSize` points; send `.launched` to start it.
    /// - Parameters:
    ///   - limit: the show's limit for the へぇ counter, if any.
    ///   - volume: the starting volume, 0...100.
    ///   - mode: where the keys type (the host screen's text field by default).
    public init(windowSize: Size, limit: Int? = nil, volume: Int = 100, mode: KeyboardMode = .hostScreen) {
        self.mode = mode
        layout = KeyboardLayout(windowSize: windowSize, mode: mode)
        hee = HeeButtonModel(limit: limit)
        self.volume = min(max(volume, 0), 100)
    }

    // MARK: Derived state

    /// Keys held by at least one pointer.
    public var pressedKeys: Set<KeyID> {
        var keys = Set<KeyID>()
        for case .key(let key?) in pointers.values { keys.insert(key) }
        return keys
    }

    /// The host control held by a pointer, if any (drawn highlighted).
    public var pressedHostControl: HostControl? {
        for case .host(let control) in pointers.values { return control }
        return nil
    }

    /// The keyboard's vertical offset at `time` in points: 0 shown, its height when hidden.
    public func keyboardOffset(at time: Duration) -> Double {
        visibility.hiddenFraction(at: time) * layout.keyboardFrame.height
    }

    /// The cap's press fraction at `time`: 0 at rest ... 1 fully down and highlighted.
    public func capPress(at time: Duration) -> Double { capTransition.value(at: time) }

    /// Whether the text field's caret is drawn at `time`: while focused, visible for the first
    /// half of each blink period after the last activity, and always after the timeout.
    public func isCaretVisible(at time: Duration) -> Bool {
        guard isTextFieldFocused else { return false }
        let idle = time - caretActivity
        if idle < .zero || idle >= Self.caretBlinkTimeout { return true }
        let phase = idle.seconds.truncatingRemainder(dividingBy: Self.caretBlinkPeriod.seconds)
        return phase < Self.caretBlinkPeriod.seconds / 2
    }

    /// The next time the caret blinks on or off, if it still blinks.
    public func nextBlink(after time: Duration) -> Duration? {
        guard isTextFieldFocused else { return nil }
        let idle = time - caretActivity
        guard idle >= .zero, idle < Self.caretBlinkTimeout else { return nil }
        let half = Self.caretBlinkPeriod / 2
        let steps = Int((idle.seconds / half.seconds).rounded(.down)) + 1
        return caretActivity + half * steps
    }

    /// Whether something moves at `time` (draw another frame soon).
    public func isAnimating(at time: Duration) -> Bool {
        capTransition.isRunning(at: time) || !visibility.isSettled(at: time)
    }

    /// The next time something changes without input: an animation ends, backspace repeats
    /// or the caret blinks. The app sleeps until then.
    public func nextDeadline(after time: Duration) -> Duration? {
        [nextAnimationDeadline(after: time), nextBlink(after: time)].compactMap { $0 }.min()
    }

    /// The next time an animation ends or backspace repeats (the caret's blink aside).
    public func nextAnimationDeadline(after time: Duration) -> Duration? {
        [capTransition.isRunning(at: time) ? capTransition.end : nil, visibility.deadline(after: time),
         backspaceRepeat.flatMap { $0.isIdle ? nil : $0.nextFire }].compactMap { $0 }.min()
    }
}
