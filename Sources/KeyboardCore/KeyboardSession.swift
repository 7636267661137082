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

    public private(set) var layout: KeyboardLayout
    /// Host screen with its text field, or system mode (keys go to another application).
    public let mode: KeyboardMode
    public private(set) var hee: HeeButtonModel
    /// Playback volume, 0...100.
    public private(set) var volume: Int
    public private(set) var shift = ShiftKeyModel()
    /// The text field's content. The keyboard edits it only through `TextDocumentProxy`.
    public private(set) var textField = TextBuffer()
    /// System mode's document: the keys' edits as keystrokes (taken at once, see `.send`).
    public private(set) var keystrokes = KeystrokeDocumentProxy()
    /// System mode: where the keys go, as the app last reported it (shown above the keys).
    public private(set) var keyTarget = KeyTarget.noFocusedWindow
    /// Status and frame as last reported to the host screen (seed 001).
    public private(set) var monitor = KeyboardMonitor()
    public private(set) var visibility = KeyboardVisibility(resting: .hide)
    /// Whether the text field is first responder (has the caret and takes typing).
    public private(set) var isTextFieldFocused = false
    /// The cap's press animation: 0 at rest, 1 pressed (10 pt down, highlight colour).
    public private(set) var capTransition = Transition.resting(at: 0)
    /// What each pointer that is down is holding.
    public private(set) var pointers: [PointerID: PointerTarget] = [:]
    /// Backspace's auto-repeat while it is held.
    public private(set) var backspaceRepeat: KeyRepeat?
    /// The input method's text being composed, shown at the caret and not yet in the field.
    public private(set) var composition: Composition?
    /// When the caret last moved or the text changed (the blink restarts from there).
    public private(set) var caretActivity: Duration = .zero

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
    private var clock: Duration = .zero

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

    // MARK: Transitions

    /// Applies `input`, which happened at `time`, and returns what to perform, in order.
    public mutating func handle(_ input: KeyboardInput, at time: Duration) -> [KeyboardEffect] {
        // Time passing alone is not a visible change: the clock moves before the snapshot
        // that decides whether to redraw.
        let previousClock = clock
        clock = max(clock, time)
        // A snapshot to tell whether anything visible changed, without the text field's
        // string: holding it would make the first edit below copy the whole text.
        var before = self
        before.textField = TextBuffer()
        let textRevision = textField.textRevision, selectionRevision = textField.selectionRevision
        var effects: [KeyboardEffect] = []
        // Repeats due before the input happen first. One due at this very instant waits for
        // the tick: an input at the same time goes first, so a release wins a tie.
        fireRepeats(upTo: clock, including: input == .tick, &effects)
        switch input {
        case .launched:
            effects.append(.layoutChanged)
            visibility = KeyboardVisibility(resting: .show)
            effects.append(.startAudioEngine)
            // System mode has no text field: text input stays off.
            if mode == .hostScreen { focusTextField(&effects) }
        case .pointerDown(let id, let point):
            pointerDown(id, at: point, time: time, &effects)
        case .pointerMoved(let id, let point):
            pointerMoved(id, to: point, time: time, &effects)
        case .pointerUp(let id, let point):
            pointerUp(id, at: point, time: time, &effects)
        case .pointerHover(let id, _):
            // A pointer that moves with no button held while we think it is down lost its
            // release (it was let go outside the window): end the press without acting.
            if pointers[id] != nil {
                let held = pressedKeys
                pointers[id] = nil
                updatePressedKeys(from: held, time: time, &effects)
            }
        case .pointersCancelled:
            let held = pressedKeys
            pointers = [:]
            updatePressedKeys(from: held, time: time, &effects)
        case .textInput(let text):
            guard isTextFieldFocused else { break }
            setComposition(nil, &effects)
            edit(&effects) { $0.insertText(text) }
        case .composition(let text, let cursor):
            guard isTextFieldFocused else { break }
            setComposition(text.isEmpty ? nil : Composition(text: text, cursor: min(max(cursor, 0), text.count)), &effects)
        case .editing(let command):
            // While the input method composes, the keys belong to it.
            guard isTextFieldFocused, composition == nil else { break }
            perform(command, &effects)
        case .paste(let text):
            guard isTextFieldFocused else { break }
            edit(&effects) { field in
                field.breakUndoCoalescing()
                field.insertText(text)
                field.breakUndoCoalescing()
            }
        case .placeCaret(let offset, let extending, let clicks):
            guard isTextFieldFocused else { break }
            edit(&effects) { field in
                switch clicks {
                case 2: field.selectWord(at: offset)
                case 3...: field.selectAll()
                default: field.setCaret(offset, extendingSelection: extending)
                }
            }
        case .escape:
            // System mode's keyboard has no way back once closed: Escape does nothing there.
            if mode == .system {
                break
            } else if visibility.target == .show {
                closeKeyboard(at: time, &effects)
            } else {
                effects.append(.quit)
            }
        case .quitShortcut:
            effects.append(.quit)
        case .windowResized(let size):
            let newLayout = KeyboardLayout(windowSize: size, mode: mode)
            if newLayout != layout {
                layout = newLayout
                effects.append(.layoutChanged)
                if isTextFieldFocused { effects.append(.startTextInput(layout.textField)) }
            }
        case .keyTargetChanged(let target):
            keyTarget = target
        case .tick:
            break
        }
        reportKeyboardFrame(at: time, &effects)
        resumeIdleRepeat()
        var after = self
        after.textField = TextBuffer()
        let fieldChanged = textField.textRevision != textRevision || textField.selectionRevision != selectionRevision
        if after != before || fieldChanged || isAnimating(at: time) || before.isAnimating(at: time)
            || isCaretVisible(at: clock) != before.isCaretVisible(at: previousClock) {
            effects.append(.needsDisplay)
        }
        return effects
    }

    // MARK: Pointers

    private var keysAreLive: Bool { visibility.target == .show }

    private mutating func pointerDown(_ id: PointerID, at point: Point, time: Duration,
                                      _ effects: inout [KeyboardEffect]) {
        let pressedBefore = pressedKeys
        // A pointer that goes down again while we think it is down lost its release: drop
        // the stale press silently.
        pointers[id] = nil
        updatePressedKeys(from: pressedBefore, time: time, &effects)

        if keysAreLive, visibility.isSettled(at: time), let key = layout.key(at: point) {
            commitHeldLetters(at: time, &effects)
            let before = pressedKeys
            pointers[id] = .key(key)
            updatePressedKeys(from: before, time: time, &effects)
            return
        }
        let before = pressedKeys
        if let control = layout.hostControl(at: point) {
            pointers[id] = .host(control)
            if control == .textField {
                focusTextField(&effects)
                showKeyboard(at: time, &effects)
            }
        } else {
            pointers[id] = PointerTarget.none
        }
        updatePressedKeys(from: before, time: time, &effects)
    }

    /// iOS rollover: a touch that begins on a key while letters are held commits them at
    /// that moment, so fast overlapping presses type in the order they were pressed, not
    /// released. Each held letter (or space) types now, with the shift state of now (a
    /// one-shot shift goes to the first letter committed; shift held makes a chord), its key
    /// goes up, and its pointer holds nothing from then on: its later release, or a slide to
    /// another letter, does nothing more. A press that slid off the letters ends the same way.
    /// The へぇ button, shift and backspace act on touch-down and keep their presses.
    private mutating func commitHeldLetters(at time: Duration, _ effects: inout [KeyboardEffect]) {
        let held = pointers.compactMap { id, target -> (PointerID, KeyID?)? in
            guard case .key(let key) = target, key?.actsOnTouchDown != true else { return nil }
            return (id, key)
        }
        guard !held.isEmpty else { return }
        let before = pressedKeys
        // At most one press types on release at a time (each new touch commits the others);
        // sorted anyway, so the order never depends on the dictionary's.
        for (id, key) in held.sorted(by: { $0.0.precedes($1.0) }) {
            pointers[id] = PointerTarget.none
            if let key { type(key, &effects) }
        }
        updatePressedKeys(from: before, time: time, &effects)
    }

    private mutating func pointerMoved(_ id: PointerID, to point: Point, time: Duration,
                                       _ effects: inout [KeyboardEffect]) {
        guard case .key(let held)? = pointers[id] else { return }
        // The へぇ button, shift and backspace keep their press however the pointer moves
        // (seed 000's `isTouching` guard); a letter press follows the finger to the letter
        // under it and is cancelled off the letters.
        if let held, held.actsOnTouchDown { return }
        let under = keysAreLive ? layout.key(at: point) : nil
        let next = (under?.actsOnTouchDown == false) ? under : nil
        guard next != held else { return }
        let before = pressedKeys
        pointers[id] = .key(next)
        updatePressedKeys(from: before, time: time, &effects)
    }

    private mutating func pointerUp(_ id: PointerID, at point: Point, time: Duration,
                                    _ effects: inout [KeyboardEffect]) {
        // The release point is the pointer's last position: a letter press types the
        // letter under it even if no motion event reported the move.
        pointerMoved(id, to: point, time: time, &effects)
        guard let target = pointers[id] else { return }
        let before = pressedKeys
        pointers[id] = nil
        if case .key(let key?) = target, !key.actsOnTouchDown {
            // Letters and space type on release, with the key under the pointer then.
            type(key, &effects)
        }
        updatePressedKeys(from: before, time: time, &effects)
        // Closing reports the keys it releases itself, so it comes after `before` is used
        // (otherwise a key held by another pointer would be reported released twice).
        if case .host(let control) = target, control.isButton, layout.frame(of: control).contains(point) {
            press(control, at: time, &effects)
        }
    }

    /// Emits touch events for keys whose pressed state changed, and runs the touch-down /
    /// touch-up rules of the keys that act on them.
    private mutating func updatePressedKeys(from before: Set<KeyID>, time: Duration,
                                            _ effects: inout [KeyboardEffect]) {
        let now = pressedKeys
        for key in before.subtracting(now).sorted() {
            effects.append(.keyTouched(key, down: false))
            switch key {
            case .hee:
                hee.touchUp()
                capTransition = capTransition.retargeted(to: 0, at: time, fullDuration: Self.pressAnimationDuration)
            case .shift:
                if shift.touchUp() { effects.append(.shiftChanged(shift.state)) }
            case .backspace:
                backspaceRepeat = nil
            default:
                break
            }
        }
        for key in now.subtracting(before).sorted() {
            effects.append(.keyTouched(key, down: true))
            switch key {
            case .hee:
                capTransition = capTransition.retargeted(to: 1, at: time, fullDuration: Self.pressAnimationDuration)
                if hee.touchDown() {
                    effects.append(.heeCounted(hee.count))
                    documentEdit(.insertText(HeeButtonModel.insertedText), &effects)
                    effects.append(.playSound(.hee))
                }
            case .shift:
                if shift.touchDown(at: time) { effects.append(.shiftChanged(shift.state)) }
            case .backspace:
                documentEdit(.deleteBackward, &effects)
                backspaceRepeat = KeyRepeat(pressedAt: time, nextFire: time + KeyRepeat.initialDelay)
            default:
                break
            }
        }
    }

    /// Performs the backspace repeats due before `time` (and at `time` when `including`),
    /// each at its own scheduled time, so the result depends only on when backspace went
    /// down and came up.
    private mutating func fireRepeats(upTo time: Duration, including: Bool, _ effects: inout [KeyboardEffect]) {
        func isDue(_ fire: Duration) -> Bool { including ? fire <= time : fire < time }
        guard var schedule = backspaceRepeat, !schedule.isIdle, isDue(schedule.nextFire) else { return }
        while isDue(schedule.nextFire) {
            let wholeWords = schedule.nextFire - schedule.pressedAt >= KeyRepeat.wordsAfter
            let revisions = textField.revisions
            documentEdit(wholeWords ? .deleteWordBackward : .deleteBackward, &effects)
            schedule.nextFire += KeyRepeat.interval
            // Only the host screen's field can be seen to have nothing left to delete;
            // another application's text (system mode) cannot.
            if mode == .hostScreen && textField.revisions == revisions {
                // Nothing to delete: the next repeats would change nothing either.
                schedule.idleAt = revisions
                break
            }
        }
        backspaceRepeat = schedule
    }

    /// An idle repeat starts again once the text or the caret changed (text typed, the caret
    /// moved while backspace is held), at the next time of its schedule — the time it would
    /// have deleted at had it kept firing.
    private mutating func resumeIdleRepeat() {
        guard var schedule = backspaceRepeat, let idle = schedule.idleAt, idle != textField.revisions else { return }
        schedule.idleAt = nil
        schedule.nextFire = schedule.firstFire(atOrAfter: clock)
        backspaceRepeat = schedule
    }

    private mutating func type(_ key: KeyID, _ effects: inout [KeyboardEffect]) {
        switch key {
        case .letter(let letter):
            let typed = shift.apply(to: String(letter))
            documentEdit(.insertText(typed), &effects)
            if shift.letterTyped() { effects.append(.shiftChanged(shift.state)) }
        case .space:
            documentEdit(.insertText(" "), &effects)
        case .return:
            documentEdit(.insertText("\n"), &effects)
        default:
            break
        }
    }

    // MARK: Text field and keyboard

    /// An edit a key asks of the document it types into.
    private enum DocumentEdit {
        case insertText(String), deleteBackward, deleteWordBackward

        func apply<Document: TextDocumentProxy>(to document: inout Document) {
            switch self {
            case .insertText(let text): document.insertText(text)
            case .deleteBackward: document.deleteBackward()
            case .deleteWordBackward: document.deleteWordBackward()
            }
        }
    }

    /// Performs a key's edit through the mode's `TextDocumentProxy`: the text field (with
    /// `edit`'s change reporting), or in system mode the keystroke proxy, whose keystrokes
    /// become `.send` effects at once.
    private mutating func documentEdit(_ change: DocumentEdit, _ effects: inout [KeyboardEffect]) {
        switch mode {
        case .hostScreen:
            edit(&effects) { change.apply(to: &$0) }
        case .system:
            change.apply(to: &keystrokes)
            effects += keystrokes.takePending().map { .send($0) }
        }
    }

    /// Runs `change` on the text field and reports a change of its text or caret (a new
    /// selection alone is drawn but not traced). Any change restarts the caret's blink.
    private mutating func edit(_ effects: inout [KeyboardEffect], _ change: (inout TextBuffer) -> Void) {
        // Edited in place (a copy of the buffer would make every key copy the whole text);
        // the revisions tell what changed.
        let textRevision = textField.textRevision, selectionRevision = textField.selectionRevision
        let caret = textField.caret
        change(&textField)
        let textChanged = textField.textRevision != textRevision
        guard textChanged || textField.selectionRevision != selectionRevision else { return }
        caretActivity = clock
        if textChanged || textField.caret != caret { effects.append(.textChanged(textField.text, caret: textField.caret)) }
    }

    /// Shows `next` as the input method's composition at the caret (`nil`: none), and reports
    /// a change. The composition is never part of the text.
    private mutating func setComposition(_ next: Composition?, _ effects: inout [KeyboardEffect]) {
        guard next != composition else { return }
        composition = next
        caretActivity = clock  // the caret stays visible while composing
        effects.append(.compositionChanged(next?.text ?? "", cursor: next?.cursor ?? 0))
    }

    /// Applies a physical-keyboard editing command to the text field.
    private mutating func perform(_ command: EditingCommand, _ effects: inout [KeyboardEffect]) {
        switch command {
        case .copy, .cut:
            guard let selected = textField.selectedText else { return }
            effects.append(.setClipboard(selected))
            if command == .cut { edit(&effects) { $0.deleteSelection() } }
        default:
            edit(&effects) { field in
                switch command {
                case .deleteBackward: field.deleteBackward()
                case .deleteForward: field.deleteForward()
                case .deleteWordBackward: field.deleteWordBackward()
                case .move(let movement, let extending): field.moveCaret(movement, extendingSelection: extending)
                case .selectAll: field.selectAll()
                case .undo: field.undo()
                case .redo: field.redo()
                case .copy, .cut: break
                }
            }
        }
    }

    private mutating func focusTextField(_ effects: inout [KeyboardEffect]) {
        guard !isTextFieldFocused else { return }
        isTextFieldFocused = true
        caretActivity = clock
        effects.append(.startTextInput(layout.textField))
    }

    private mutating func showKeyboard(at time: Duration, _ effects: inout [KeyboardEffect]) {
        if visibility.show(at: time) { effects.append(.startAudioEngine) }
    }

    /// A host-screen button released over itself.
    private mutating func press(_ control: HostControl, at time: Duration, _ effects: inout [KeyboardEffect]) {
        switch control {
        case .closeKeyboard:
            closeKeyboard(at: time, &effects)
        case .volumeDown, .volumeUp:
            let step = control == .volumeUp ? Self.volumeStep : -Self.volumeStep
            let next = min(max(volume + step, 0), 100)
            guard next != volume else { return }
            volume = next
            effects.append(.setVolume(next))
        case .resetCount:
            guard hee.count != 0 else { return }
            hee.reset()
            effects.append(.countReset)
        case .textField:
            break
        }
    }

    /// Seed 001's `closeKeyboard()`: the text field resigns first responder, the keyboard
    /// slides away, and presses on its keys end.
    private mutating func closeKeyboard(at time: Duration, _ effects: inout [KeyboardEffect]) {
        if isTextFieldFocused {
            isTextFieldFocused = false
            setComposition(nil, &effects)
            effects.append(.stopTextInput)
        }
        guard visibility.hide(at: time) else { return }
        effects.append(.stopAudioEngine)
        let before = pressedKeys
        for (id, target) in pointers {
            if case .key = target { pointers[id] = PointerTarget.none }
        }
        updatePressedKeys(from: before, time: time, &effects)
    }

    /// Reports the keyboard's frame to the host screen once a slide or a resize has settled.
    private mutating func reportKeyboardFrame(at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard visibility.isSettled(at: time) else { return }
        let frame = visibility.target == .show ? layout.keyboardFrame : .zero
        guard frame != monitor.keyboardRect else { return }
        monitor.keyboardDidChangeFrame(frame)
        effects.append(.keyboardFrameChanged(monitor.keyboardStatus, frame))
    }
}
