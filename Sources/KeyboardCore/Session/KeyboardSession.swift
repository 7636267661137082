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
    /// The desktop row's Ctrl and Alt: seed 002's shift rules (issue 21); `on` latches the
    /// modifier for the next key, `capsLock` is their locked state.
    public internal(set) var ctrl = ShiftKeyModel()
    public internal(set) var alt = ShiftKeyModel()
    /// Whether the desktop row (esc tab ctrl alt ← ↓ ↑ →) is shown under the へぇ button.
    public let desktopKeys: Bool
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
    /// The auto-repeat of the key held (backspace, an arrow).
    public internal(set) var keyRepeat: KeyRepeat?
    /// The input method's text being composed, shown at the caret and not yet in the field.
    public internal(set) var composition: Composition?
    /// When the caret last moved or the text changed (the blink restarts from there).
    public internal(set) var caretActivity: Duration = .zero
    /// The layout in use: its layers, keys, widths and alternates (`layout` is its shown
    /// layer laid out for the window).
    public internal(set) var definition: LayoutDefinition
    /// Pointers that touched a layer key and slid on: the layer to go back to once the key
    /// they slid onto types (iOS: touch 123, slide to 3, release: "3", letters again).
    public internal(set) var layerReturns: [PointerID: String] = [:]
    /// The press waiting for the hold delay (alternates, the space bar's trackpad).
    public internal(set) var hold: HoldTimer?
    /// The alternates bubble, while one is open.
    public internal(set) var bubble: AlternatesBubble?
    /// The space bar's trackpad, while a press on it has turned into one.
    public internal(set) var trackpad: Trackpad?
    /// The host screen's return key typed: editing ends once the release is reported.
    var returnPending = false
    /// System mode: `keysToPrepare` as last announced with `.prepareKeys`.
    var announcedKeys = ""
    /// The layouts the globe key switches between, in its order (the user's `layouts`
    /// setting); empty or one: no globe key.
    public internal(set) var layouts: [LayoutDefinition] = []
    /// The kana pad's rules and its composition (issue 22): used by a layout with flick keys.
    public internal(set) var kanaPad = KanaPad()
    /// The flick key held, while one is (its direction follows the finger).
    public internal(set) var flick: FlickHold?
    /// The kana pad's candidate bar as shown.
    public internal(set) var candidateBar = CandidateBar()

    /// The caret blinks with this period (visible the first half) after activity...
    public static let caretBlinkPeriod: Duration = .milliseconds(1_000)
    /// ...and stays solid once this long has passed without activity, as GTK does, so an idle
    /// app never wakes up.
    public static let caretBlinkTimeout: Duration = .seconds(10)
    /// The latest time handled (times never go backwards for repeats).
    var clock: Duration = .zero

    /// The volume buttons' step.
    public static let volumeStep = 10

    /// A session for a window of `windowSize` points; send `.launched` to start it.
    /// - Parameters:
    ///   - limit: the show's limit for the へぇ counter, if any.
    ///   - volume: the starting volume, 0...100.
    ///   - mode: where the keys type (the host screen's text field by default).
    ///   - definition: the layout (the built-in iPhone English one by default); its first
    ///     layer is shown first.
    ///   - desktopKeys: show the desktop row (system mode's default; the host screen's on
    ///     request).
    ///   - layouts: the layouts the globe key (🌐) switches between, in its order; when there
    ///     is more than one layout in all, every layout without a globe key gets one beside
    ///     its layer key (`LayoutDefinition.withGlobeKey()`), and `definition` is the one of
    ///     its name among them.
    ///   - flickOnly: the kana pad's 「フリックのみ」: repeated taps never step a kana.
    public init(windowSize: Size, limit: Int? = nil, volume: Int = 100, mode: KeyboardMode = .hostScreen,
                definition: LayoutDefinition = .english, desktopKeys: Bool? = nil, layouts: [LayoutDefinition] = [],
                flickOnly: Bool = false) {
        self.mode = mode
        var definition = definition
        let others = layouts.filter { $0.name != definition.name }
        if !others.isEmpty {
            self.layouts = layouts.map { $0.withGlobeKey() }
            definition = self.layouts.first { $0.name == definition.name } ?? definition.withGlobeKey()
        }
        self.definition = definition
        kanaPad = KanaPad(isFlickOnly: flickOnly, modifiers: definition.kanaModifiers)
        let desktopKeys = desktopKeys ?? (mode == .system)
        self.desktopKeys = desktopKeys
        layout = KeyboardLayout(windowSize: windowSize, mode: mode, definition: definition, desktopKeys: desktopKeys)
        candidateBar = CandidateBar(frame: layout.candidateBar)
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
         keyRepeat.flatMap { $0.isIdle ? nil : $0.nextFire }, hold?.due].compactMap { $0 }.min()
    }
}
