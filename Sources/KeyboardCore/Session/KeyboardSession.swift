/// The whole app's behaviour as one state machine, fed with `KeyboardInput`s and the time they
/// happened, answering with the `KeyboardEffect`s to perform.
///
/// It is composed of parts, each a value type that owns its state and its rules, as a TCA
/// feature is composed of child features: `modifiers` (shift, Ctrl, Alt — seed 002),
/// `pointers` (what each finger holds and its gestures), `document` (where the keys type),
/// `kana` (the kana pad and its candidates), `hostScreen` (seed 001's watch on the keyboard),
/// `hee` (the へぇ button, seed 000), `layouts` (the keys shown) and `autoShow` (system
/// mode's keyboard shown when a field wants it, issue 30). The session routes an
/// input to the parts it concerns and merges their effects in order; no part writes
/// another's state, and what one needs from another is passed to it.
///
/// The keys edit only through the `document`: the host screen's text field, or in system
/// mode (`KeyboardMode.system`) a `KeystrokeDocumentProxy` whose keystrokes come out as
/// `.send` effects for the app to type into another application. Every key rule is the same
/// code in both modes.
///
/// Times are `Duration`s since the session started (the app passes SDL event timestamps), so
/// every rule can be driven exactly by tests and replays.
public struct KeyboardSession: Hashable, Sendable {
    /// Host screen with its text field, or system mode (keys go to another application).
    public let mode: KeyboardMode
    /// The shift key and the desktop row's Ctrl and Alt.
    public internal(set) var modifiers = Modifiers()
    /// The pointers down and their gestures (hold, bubble, trackpad, flick, repeat).
    public internal(set) var pointers = Pointers()
    /// Where the keys type: the text field, or system mode's keystrokes and their target.
    public internal(set) var document: Document
    /// The kana pad and its candidate bar.
    public internal(set) var kana: KanaInput
    /// The host screen's watch on the keyboard: shown or hidden, its reported frame, focus.
    public internal(set) var hostScreen: HostScreen
    /// The へぇ button: its counter, its cap's animation, the volume.
    public internal(set) var hee: HeeButton
    /// The layout in use, its layer shown, and the layouts the globe key switches between.
    public internal(set) var layouts: Layouts
    /// System mode: the keyboard shown when a text field wants it, hidden when none does.
    public internal(set) var autoShow: AutoShow
    /// The emoji keyboard: its catalog, pages, Frequently Used and chosen skin tones (issue 34).
    public internal(set) var emoji: EmojiPanel
    /// The latest time handled (times never go backwards for repeats).
    var clock: Duration = .zero

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
    ///   - autoShow: system mode hides the keyboard while no text field has the focus (issue 30).
    ///   - emojiRecents: the emoji keyboard's saved Frequently Used, most recent first.
    ///   - phoneDock: Phosh's phone dock (issue 31): no target line, the へぇ button scaled whole
    ///     in a strip above the letters.
    public init(windowSize: Size, limit: Int? = nil, volume: Int = 100, mode: KeyboardMode = .hostScreen,
                definition: LayoutDefinition = .english, desktopKeys: Bool? = nil, layouts: [LayoutDefinition] = [],
                flickOnly: Bool = false, autoShow: Bool = false, emojiRecents: [String] = [], phoneDock: Bool = false) {
        self.mode = mode
        self.layouts = Layouts(windowSize: windowSize, mode: mode, definition: definition,
                               desktopKeys: desktopKeys ?? (mode == .system), layouts: layouts, phoneDock: phoneDock)
        document = Document(mode: mode)
        kana = KanaInput(flickOnly: flickOnly, definition: self.layouts.definition, barFrame: self.layouts.layout.candidateBar)
        hostScreen = HostScreen(mode: mode)
        emoji = EmojiPanel(recents: emojiRecents)
        hee = HeeButton(limit: limit, volume: volume)
        self.autoShow = AutoShow(isEnabled: autoShow && mode == .system)
    }

    // MARK: Derived state

    /// The layer shown, laid out for the window (`layouts.layout`).
    public var layout: KeyboardLayout { layouts.layout }
    /// The layout in use (`layouts.definition`).
    public var definition: LayoutDefinition { layouts.definition }
    /// The layer shown.
    public var layerName: String { layouts.layerName }
    /// Whether the desktop row is shown.
    public var desktopKeys: Bool { layouts.desktopKeys }

    /// Keys held by at least one pointer.
    public var pressedKeys: Set<KeyID> { pointers.pressedKeys }

    /// The host control held by a pointer, if any (drawn highlighted).
    public var pressedHostControl: HostControl? { pointers.pressedHostControl }

    /// The modifiers that go with the next key: latched, locked or held.
    public var activeModifiers: KeyModifiers { modifiers.active }

    /// The keyboard's vertical offset at `time` in points: 0 shown, its height when hidden.
    public func keyboardOffset(at time: Duration) -> Double {
        hostScreen.keyboardOffset(at: time, height: layout.keyboardFrame.height)
    }

    /// The cap's press fraction at `time`: 0 at rest ... 1 fully down and highlighted.
    public func capPress(at time: Duration) -> Double { hee.capPress(at: time) }

    /// Whether the text field's caret is drawn at `time`: while focused, visible for the first
    /// half of each blink period after the last activity, and always after the timeout.
    public func isCaretVisible(at time: Duration) -> Bool {
        document.isCaretVisible(at: time, focused: hostScreen.isTextFieldFocused)
    }

    /// The next time the caret blinks on or off, if it still blinks.
    public func nextBlink(after time: Duration) -> Duration? {
        document.nextBlink(after: time, focused: hostScreen.isTextFieldFocused)
    }

    /// Whether the kana pad holds a composition (空白 is 次候補 and 改行 確定 meanwhile).
    public var isComposing: Bool { kana.isComposing }

    /// The kana pad's composition as shown at the caret (the chosen candidate in place of its
    /// reading), or `nil` when nothing is composed.
    public var kanaCompositionText: String? { kana.compositionText }

    /// The flick guide to draw while a flick key is held: the key and its neighbours (for
    /// 「゛゜小」, the forms of the composition's last kana), the selected one highlighted.
    public var flickGuide: (key: KeyID, guide: FlickGuide)? {
        guard let flick = pointers.flick else { return nil }
        return (flick.key, kana.guide(for: flick, in: definition))
    }

    /// Whether something moves at `time` (draw another frame soon).
    public func isAnimating(at time: Duration) -> Bool {
        hee.cap.isRunning(at: time) || !hostScreen.isSettled(at: time)
    }

    /// The next time something changes without input: an animation ends, backspace repeats
    /// or the caret blinks. The app sleeps until then.
    public func nextDeadline(after time: Duration) -> Duration? {
        [nextAnimationDeadline(after: time), nextBlink(after: time)].compactMap { $0 }.min()
    }

    /// The next time an animation ends or backspace repeats (the caret's blink aside).
    public func nextAnimationDeadline(after time: Duration) -> Duration? {
        [hee.cap.isRunning(at: time) ? hee.cap.end : nil, hostScreen.visibility.deadline(after: time),
         pointers.keyRepeat.flatMap { $0.isIdle ? nil : $0.nextFire }, pointers.hold?.due,
         autoShow.hideDue].compactMap { $0 }.min()
    }

    /// What the parts' revisions say about what is drawn: equal values, nothing visible
    /// changed in between (time aside: animations and the caret's blink).
    struct VisibleRevisions: Equatable {
        var modifiers, pointers, document, kana, hostScreen, hee, layouts, emoji, autoShow: Int
        var field: TextBuffer.Revisions
    }

    /// The parts' revisions now.
    var visibleRevisions: VisibleRevisions {
        VisibleRevisions(modifiers: modifiers.revision, pointers: pointers.revision, document: document.revision,
                         kana: kana.revision, hostScreen: hostScreen.revision, hee: hee.revision,
                         layouts: layouts.revision, emoji: emoji.revision, autoShow: autoShow.revision, field: document.textField.revisions)
    }
}
