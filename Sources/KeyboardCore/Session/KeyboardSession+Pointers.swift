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
        _ = endHold(of: id, commit: false, &effects)
        layerReturns[id] = nil
        updatePressedKeys(from: pressedBefore, time: time, &effects)

        if touchOnOverlay(id, at: point, time: time, &effects) { return }
        if keysAreLive, visibility.isSettled(at: time), let index = candidateBar.candidate(at: point) {
            // A candidate: committed when released over it; keys held before type first.
            commitHeldKeys(at: time, &effects)
            pointers[id] = .candidate(index)
            return
        }
        if keysAreLive, visibility.isSettled(at: time), let key = layout.key(at: point) {
            commitHeldKeys(at: time, &effects)
            // A return committed by this touch ended editing: the keyboard is going away.
            guard keysAreLive else {
                pointers[id] = PointerTarget.none
                return
            }
            let before = pressedKeys
            pointers[id] = .key(key)
            startHold(key, by: id, at: point, time: time)
            updatePressedKeys(from: before, time: time, &effects)
            if case .showLayer(let name) = action(of: key) { layerKeyTouched(name, by: id, &effects) }
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

    /// iOS rollover: a touch that begins on a key while keys that type on release are held
    /// commits them at that moment, so fast overlapping presses type in the order they were
    /// pressed, not released. Each held key (a letter, a digit, space) types now, with the
    /// shift state of now (a one-shot shift goes to the first letter committed; shift held
    /// makes a chord) — an open alternates bubble its highlighted choice —, its key goes up,
    /// and its pointer holds nothing from then on: its later release, or a slide to another
    /// key, does nothing more. A press that slid off the keys ends the same way. The へぇ
    /// button, shift, backspace and the layer keys act on touch-down and keep their presses;
    /// a trackpad in use ends.
    mutating func commitHeldKeys(at time: Duration, _ effects: inout [KeyboardEffect]) {
        let held = pointers.compactMap { id, target -> (PointerID, KeyID?)? in
            guard case .key(let key) = target, key.map({ actsOnTouchDown($0) }) != true else { return nil }
            return (id, key)
        }
        guard !held.isEmpty else { return }
        let before = pressedKeys
        // At most one press types on release at a time (each new touch commits the others);
        // sorted anyway, so the order never depends on the dictionary's.
        for (id, key) in held.sorted(by: { $0.0.precedes($1.0) }) {
            pointers[id] = PointerTarget.none
            layerReturns[id] = nil
            if endHold(of: id, commit: true, &effects) { continue }
            if let key { type(key, at: time, &effects) }
        }
        updatePressedKeys(from: before, time: time, &effects)
        finishReturn(at: time, &effects)
    }

    mutating func pointerMoved(_ id: PointerID, to point: Point, time: Duration,
                               _ effects: inout [KeyboardEffect]) {
        guard case .key(let held)? = pointers[id] else { return }
        // An open bubble or the trackpad takes the pointer's movements.
        if holdMoved(id, to: point, &effects) { return }
        if hold?.pointer == id { hold?.point = point }
        // The へぇ button, shift and backspace keep their press however the pointer moves
        // (seed 000's `isTouching` guard); a flick key's press follows the finger's direction
        // (`holdMoved`), never another key. A press that types on release follows the finger
        // to the key under it and is cancelled off the keys; so does one that began on a
        // layer key, once it reaches a key of the new layer that types.
        if let held, actsOnTouchDown(held), !isLayerKey(held) { return }
        let under = keysAreLive ? layout.key(at: point) : nil
        var next = under.flatMap { actsOnTouchDown($0) ? nil : $0 }
        if let held, isLayerKey(held) {
            if next == nil { next = held } else {
                // Sliding off a layer key onto a key that types is like touching it: other
                // presses waiting to type commit first (rollover).
                commitHeldKeys(at: time, &effects)
            }
        }
        guard next != held else { return }
        let before = pressedKeys
        pointers[id] = .key(next)
        startHold(next, by: id, at: point, time: time)
        updatePressedKeys(from: before, time: time, &effects)
    }

    /// Whether `key` shows a layer.
    func isLayerKey(_ key: KeyID) -> Bool {
        if case .showLayer = action(of: key) { true } else { false }
    }

    mutating func pointerUp(_ id: PointerID, at point: Point, time: Duration,
                            _ effects: inout [KeyboardEffect]) {
        // The release point is the pointer's last position: a press types the key under it
        // even if no motion event reported the move.
        pointerMoved(id, to: point, time: time, &effects)
        guard let target = pointers[id] else { return }
        let before = pressedKeys
        pointers[id] = nil
        // A choice typed from a bubble counts as the key typing: after a slide from a layer
        // key, the layer it came from comes back.
        let typesChoice = bubble?.pointer == id && bubble?.selected != nil
        if endHold(of: id, commit: true, &effects) {
            // The bubble typed its choice (or nothing), or the trackpad ended.
            if typesChoice { returnFromSlide(of: id, &effects) } else { layerReturns[id] = nil }
        } else if case .key(let key?) = target, !actsOnTouchDown(key) {
            // Keys that type do so on release, with the key under the pointer then.
            type(key, at: time, &effects)
            returnFromSlide(of: id, &effects)
        } else {
            layerReturns[id] = nil
        }
        updatePressedKeys(from: before, time: time, &effects)
        // Closing reports the keys it releases itself, so it comes after `before` is used
        // (otherwise a key held by another pointer would be reported released twice).
        finishReturn(at: time, &effects)
        if case .host(let control) = target, control.isButton, layout.frame(of: control).contains(point) {
            press(control, at: time, &effects)
        }
        if case .candidate(let index) = target, keysAreLive, candidateBar.candidate(at: point) == index {
            candidateTapped(index, &effects)
        }
    }

    /// Emits touch events for keys whose pressed state changed, and runs the touch-down /
    /// touch-up rules of the keys that act on them.
    mutating func updatePressedKeys(from before: Set<KeyID>, time: Duration,
                                    _ effects: inout [KeyboardEffect]) {
        let now = pressedKeys
        for key in before.subtracting(now).sorted() {
            effects.append(.keyTouched(key, down: false))
            switch action(of: key) {
            case .hee:
                hee.touchUp()
                capTransition = capTransition.retargeted(to: 0, at: time, fullDuration: Self.pressAnimationDuration)
            case .shift:
                if shift.touchUp() { effects.append(.shiftChanged(shift.state)) }
            case .backspace, .arrow:
                if keyRepeat?.key == key { keyRepeat = nil }
            case .modifier(let modifier):
                modifierTouched(modifier, down: false, at: time, &effects)
            default:
                break
            }
        }
        for key in now.subtracting(before).sorted() {
            effects.append(.keyTouched(key, down: true))
            switch action(of: key) {
            case .hee:
                capTransition = capTransition.retargeted(to: 1, at: time, fullDuration: Self.pressAnimationDuration)
                if hee.touchDown() {
                    // The kana pad's composition goes in first (issue 22), then 「へぇ〜」.
                    commitComposition(&effects)
                    effects.append(.heeCounted(hee.count))
                    // Ctrl and Alt go with it and are used up, but 「へぇ〜」 arrives unchanged.
                    documentEdit(.insertText(HeeButtonModel.insertedText), &effects)
                    modifiersUsed(&effects)
                    effects.append(.playSound(.hee))
                }
            case .shift:
                if shift.touchDown(at: time) { effects.append(.shiftChanged(shift.state)) }
            case .backspace, .arrow:
                let modifiers = pressRepeating(key, &effects)
                keyRepeat = KeyRepeat(key: key, pressedAt: time, nextFire: time + KeyRepeat.initialDelay, modifiers: modifiers)
            case .modifier(let modifier):
                modifierTouched(modifier, down: true, at: time, &effects)
            case .nextLayout:
                switchToNextLayout(&effects)
            default:
                break
            }
        }
    }
}
