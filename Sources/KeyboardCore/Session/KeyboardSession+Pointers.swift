/// Pointers (mouse and fingers) on the keys and host controls: which key each holds, iOS
/// rollover, and the touch-down / touch-up rules of the keys that act on them.
extension KeyboardSession {
    var keysAreLive: Bool { visibility.target == .show }

    mutating func pointerDown(_ id: PointerID, at point: Point, time: Duration,
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
    mutating func commitHeldLetters(at time: Duration, _ effects: inout [KeyboardEffect]) {
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

    mutating func pointerMoved(_ id: PointerID, to point: Point, time: Duration,
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

    mutating func pointerUp(_ id: PointerID, at point: Point, time: Duration,
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
    mutating func updatePressedKeys(from before: Set<KeyID>, time: Duration,
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
}
