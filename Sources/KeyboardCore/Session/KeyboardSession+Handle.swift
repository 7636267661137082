/// The session's one entry point: an input at a time, answered with the effects to perform.
extension KeyboardSession {
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
        fireHold(upTo: clock, including: input == .tick, &effects)
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
                _ = endHold(of: id, commit: false, &effects)
                layerReturns[id] = nil
                updatePressedKeys(from: held, time: time, &effects)
            }
        case .pointersCancelled:
            let held = pressedKeys
            for id in pointers.keys { _ = endHold(of: id, commit: false, &effects) }
            pointers = [:]
            layerReturns = [:]
            updatePressedKeys(from: held, time: time, &effects)
        case .touchesCancelled:
            let held = pressedKeys
            for id in pointers.keys where id != .mouse {
                // A bubble or trackpad a finger had types nothing; a slide's layer stays.
                _ = endHold(of: id, commit: false, &effects)
                layerReturns[id] = nil
            }
            pointers = pointers.filter { $0.key == .mouse }
            updatePressedKeys(from: held, time: time, &effects)
        case .textInput(let text):
            guard isTextFieldFocused else { break }
            commitComposition(&effects)
            setComposition(nil, &effects)
            edit(&effects) { $0.insertText(text) }
        case .composition(let text, let cursor):
            guard isTextFieldFocused else { break }
            setComposition(text.isEmpty ? nil : Composition(text: text, cursor: min(max(cursor, 0), text.count)), &effects)
        case .editing(let command):
            // While the input method composes, the keys belong to it.
            guard isTextFieldFocused, composition == nil else { break }
            commitComposition(&effects)
            perform(command, &effects)
        case .paste(let text):
            guard isTextFieldFocused else { break }
            commitComposition(&effects)
            edit(&effects) { field in
                field.breakUndoCoalescing()
                field.insertText(text)
                field.breakUndoCoalescing()
            }
        case .placeCaret(let offset, let extending, let clicks):
            guard isTextFieldFocused else { break }
            commitComposition(&effects)
            edit(&effects) { field in
                switch clicks {
                case 2: field.selectWord(at: offset)
                case 3...: field.selectAll()
                default: field.setCaret(offset, extendingSelection: extending)
                }
            }
        case .escape:
            escapePressed(at: time, &effects)
        case .quitShortcut:
            effects.append(.quit)
        case .windowResized(let size):
            let newLayout = KeyboardLayout(windowSize: size, mode: mode, definition: definition, layer: layout.layerName,
                                           desktopKeys: desktopKeys)
            if newLayout != layout {
                layout = newLayout
                relayoutCandidateBar()
                // A bubble or trackpad drawn for the old geometry closes, and its pointer's
                // press ends with it: the finger rests on no key and types nothing on release
                // (it would slide onto whatever key the new geometry puts under it). A press
                // still waiting for its hold delay stays held.
                if trackpad != nil { effects.append(.trackpadChanged(false)) }
                let held = pressedKeys
                for id in [bubble?.pointer, trackpad?.pointer].compactMap({ $0 }) {
                    pointers[id] = KeyboardSession.PointerTarget.none
                    layerReturns[id] = nil
                }
                (hold, bubble, trackpad) = (nil, nil, nil)
                updatePressedKeys(from: held, time: time, &effects)
                effects.append(.layoutChanged)
                if isTextFieldFocused { effects.append(.startTextInput(layout.textField)) }
            }
        case .keyTargetChanged(let target):
            keyTarget = target
        case .conversion(let reading, let segments):
            _ = kanaInput(.conversion(reading: reading, segments: segments), &effects)
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
        // After the redraw decision: what was announced is not drawn.
        announceKeysToPrepare(&effects)
        return effects
    }
}
