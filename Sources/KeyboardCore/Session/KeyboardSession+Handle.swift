/// The session's one entry point: an input at a time, routed to the parts it concerns,
/// answered with their effects in order.
extension KeyboardSession {
    /// Applies `input`, which happened at `time`, and returns what to perform, in order.
    public mutating func handle(_ input: KeyboardInput, at time: Duration) -> [KeyboardEffect] {
        // Time passing alone is not a visible change: the clock moves before the revisions
        // that decide whether to redraw are read.
        let previousClock = clock
        clock = max(clock, time)
        let before = visibleRevisions
        let wasAnimating = isAnimating(at: time), caretWasVisible = isCaretVisible(at: previousClock)
        var effects: [KeyboardEffect] = []
        // Repeats due before the input happen first. One due at this very instant waits for
        // the tick: an input at the same time goes first, so a release wins a tie.
        fireRepeats(upTo: clock, including: input == .tick, &effects)
        fireHold(upTo: clock, including: input == .tick, &effects)
        fireAutoHide(upTo: clock, &effects)
        switch input {
        case .launched:
            effects.append(.layoutChanged)
            // Auto-show with no field focused: hidden from the start, never drawn (issue 30).
            effects += hostScreen.launched(shown: autoShow.launched(at: time) != .hide)
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
                abandonPress(of: id, &effects)
                updatePressedKeys(from: held, time: time, &effects)
            }
        case .pointersCancelled:
            let held = pressedKeys
            for id in pointers.targets.keys { _ = endHold(of: id, commit: false, &effects) }
            pointers.removeAll()
            updatePressedKeys(from: held, time: time, &effects)
        case .touchesCancelled:
            let held = pressedKeys
            for id in pointers.targets.keys where id != .mouse {
                // A bubble or trackpad a finger had types nothing; a slide's layer stays.
                _ = endHold(of: id, commit: false, &effects)
                pointers.forgetLayerReturn(of: id)
            }
            pointers.removeFingers()
            updatePressedKeys(from: held, time: time, &effects)
        case .textInput(let text):
            guard hostScreen.isTextFieldFocused else { break }
            commitComposition(&effects)
            effects += document.textInput(text, at: clock)
        case .composition(let text, let cursor):
            guard hostScreen.isTextFieldFocused else { break }
            let composition = text.isEmpty ? nil : Document.Composition(text: text, cursor: min(max(cursor, 0), text.count))
            effects += document.setComposition(composition, at: clock)
        case .editing(let command):
            // While the input method composes, the keys belong to it.
            guard hostScreen.isTextFieldFocused, document.composition == nil else { break }
            commitComposition(&effects)
            effects += document.perform(command, at: clock)
        case .paste(let text):
            guard hostScreen.isTextFieldFocused else { break }
            commitComposition(&effects)
            effects += document.paste(text, at: clock)
        case .placeCaret(let offset, let extending, let clicks):
            guard hostScreen.isTextFieldFocused else { break }
            commitComposition(&effects)
            effects += document.placeCaret(at: offset, extending: extending, clicks: clicks, time: clock)
        case .escape:
            escapePressed(at: time, &effects)
        case .quitShortcut:
            effects.append(.quit)
        case .windowResized(let size):
            windowResized(to: size, time: time, &effects)
        case .keyTargetChanged(let target):
            document.keyTargetChanged(target)
        case .textContextChanged(let context, let focus):
            textContextChanged(context, focus: focus, at: time, &effects)
        case .textContextUnavailable:
            textContextChanged(nil, focus: 0, at: time, &effects)
        case .visibilityRequested(let visible):
            visibilityRequested(visible, at: time, &effects)
        case .textContextUnknown:
            textContextUnknown(at: time, &effects)
        case .conversion(let reading, let segments):
            _ = kanaInput(.conversion(reading: reading, segments: segments), &effects)
        case .emojiData(let text):
            emojiDataArrived(text, &effects)
        case .kaomojiData(let text):
            kana.setKaomoji(Kaomoji.parse(text))
        case .scroll(let steps):
            if definition.name == EmojiPanel.layoutName { turnEmojiPage(steps, &effects) }
        case .secureFieldChanged(let secure):
            document.secureFieldChanged(secure)
        case .tick:
            break
        }
        reportKeyboardFrame(at: time, &effects)
        pointers.resumeIdleRepeat(fieldRevisions: document.textField.revisions, at: clock)
        if visibleRevisions != before || isAnimating(at: time) || wasAnimating || isCaretVisible(at: clock) != caretWasVisible {
            effects.append(.needsDisplay)
        }
        // After the redraw decision: what was announced is not drawn.
        effects += document.announce(keysToPrepare)
        return effects
    }

    /// The window changed size: the layer shown is laid out again for it. A bubble or trackpad
    /// drawn for the old geometry closes, and its pointer's press ends with it: the finger
    /// rests on no key and types nothing on release (it would slide onto whatever key the new
    /// geometry puts under it). A press still waiting for its hold delay stays held.
    mutating func windowResized(to size: Size, time: Duration, _ effects: inout [KeyboardEffect]) {
        guard layouts.resize(to: size) else { return }
        kana.relayout(barFrame: layout.candidateBar)
        if pointers.trackpad != nil { effects.append(.trackpadChanged(false)) }
        let held = pressedKeys
        pointers.closeOverlays()
        updatePressedKeys(from: held, time: time, &effects)
        effects.append(.layoutChanged)
        if hostScreen.isTextFieldFocused { effects.append(.startTextInput(layout.textField)) }
    }
}
