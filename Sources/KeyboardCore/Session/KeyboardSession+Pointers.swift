/// Pointers (mouse and fingers) routed: `pointers` decides what each one holds and what its
/// gestures do; the keys' touch rules, the typing and the host controls they reach are the
/// other parts'.
extension KeyboardSession {
    /// Whether the keys take touches (the keyboard is shown or sliding in).
    var keysAreLive: Bool { hostScreen.keysAreLive }

    mutating func pointerDown(_ id: PointerID, at point: Point, time: Duration,
                              _ effects: inout [KeyboardEffect]) {
        let pressedBefore = pressedKeys
        // A pointer that goes down again while we think it is down lost its release: drop
        // the stale press silently.
        abandonPress(of: id, &effects)
        updatePressedKeys(from: pressedBefore, time: time, &effects)

        if touchOnOverlay(id, at: point, time: time, &effects) { return }
        if keysAreLive, hostScreen.isSettled(at: time), let index = kana.candidateBar.candidate(at: point) {
            // A candidate: committed when released over it; keys held before type first.
            commitHeldKeys(at: time, &effects)
            pointers.set(id, to: .candidate(index))
            return
        }
        if keysAreLive, hostScreen.isSettled(at: time), let key = layout.key(at: point) {
            commitHeldKeys(at: time, &effects)
            // A return committed by this touch ended editing: the keyboard is going away.
            guard keysAreLive else {
                pointers.set(id, to: Pointers.Target.none)
                return
            }
            let before = pressedKeys
            pointers.set(id, to: .key(key))
            emojiPointerDown(id, at: point, on: key)
            startHold(key, by: id, at: point, time: time)
            updatePressedKeys(from: before, time: time, &effects)
            if case .showLayer(let name) = layouts.action(of: key) { layerKeyTouched(name, by: id, &effects) }
            return
        }
        let before = pressedKeys
        if let control = layout.hostControl(at: point) {
            pointers.set(id, to: .host(control))
            if control == .textField {
                focusTextField(&effects)
                effects += hostScreen.showKeyboard(at: time)
            }
        } else {
            pointers.set(id, to: Pointers.Target.none)
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
        let layouts = self.layouts
        let held = pointers.rolloverPresses(actsOnTouchDown: layouts.actsOnTouchDown)
        guard !held.isEmpty else { return }
        let before = pressedKeys
        // At most one press types on release at a time (each new touch commits the others).
        for (id, key) in held {
            pointers.letGo(id)
            if endHold(of: id, commit: true, &effects) { continue }
            if let key { type(key, at: time, &effects) }
        }
        updatePressedKeys(from: before, time: time, &effects)
        finishReturn(at: time, &effects)
    }

    mutating func pointerMoved(_ id: PointerID, to point: Point, time: Duration,
                               _ effects: inout [KeyboardEffect]) {
        guard case .key(let held)? = pointers[id] else { return }
        // An open bubble, the trackpad or a flick takes the pointer's movements.
        if let steps = pointers.gestureMoved(id, to: point) {
            if steps != 0 { documentEdit(.moveCaret(steps), &effects) }
            return
        }
        if emojiPointerDragged(id, to: point, time: time, &effects) { return }
        let layouts = self.layouts
        let under = keysAreLive ? layout.key(at: point) : nil
        guard let slide = Pointers.slide(from: held, over: under, actsOnTouchDown: layouts.actsOnTouchDown,
                                         isLayerKey: layouts.isLayerKey) else { return }
        // Sliding off a layer key onto a key that types is like touching it: other presses
        // waiting to type commit first (rollover).
        if slide.rollover { commitHeldKeys(at: time, &effects) }
        guard slide.next != held else { return }
        let before = pressedKeys
        pointers.set(id, to: .key(slide.next))
        startHold(slide.next, by: id, at: point, time: time)
        updatePressedKeys(from: before, time: time, &effects)
    }

    mutating func pointerUp(_ id: PointerID, at point: Point, time: Duration,
                            _ effects: inout [KeyboardEffect]) {
        // The release point is the pointer's last position: a press types the key under it
        // even if no motion event reported the move.
        pointerMoved(id, to: point, time: time, &effects)
        guard let target = pointers[id] else { return }
        let before = pressedKeys
        pointers.set(id, to: nil)
        if commitGesture(of: id, &effects) {
            // The bubble typed its choice (or nothing), or the trackpad ended.
        } else if case .key(let key?) = target, !layouts.actsOnTouchDown(key) {
            // Keys that type do so on release, with the key under the pointer then.
            type(key, at: time, &effects)
            returnFromSlide(of: id, &effects)
        } else {
            pointers.forgetLayerReturn(of: id)
        }
        updatePressedKeys(from: before, time: time, &effects)
        // Closing reports the keys it releases itself, so it comes after `before` is used
        // (otherwise a key held by another pointer would be reported released twice).
        finishReturn(at: time, &effects)
        if case .host(let control) = target, control.isButton, layout.frame(of: control).contains(point) {
            press(control, at: time, &effects)
        }
        if case .candidate(let index) = target, keysAreLive, kana.candidateBar.candidate(at: point) == index {
            _ = kanaInput(.candidate(index), &effects)
        }
    }

    /// Starts the hold delay (or the flick) of `key` held by `pointer` when holding it does
    /// something; otherwise (and for any other press) forgets a running one of that pointer.
    mutating func startHold(_ key: KeyID?, by pointer: PointerID, at point: Point, time: Duration) {
        let action = key.map { layouts.action(of: $0) }
        let hasAlternates = key.map { !definition.alternates(of: $0).isEmpty } ?? false
        pointers.startHold(key, action: action, hasAlternates: hasAlternates, isComposing: kana.isComposing,
                           by: pointer, at: point, time: time)
    }

    /// Acts on a hold that fell due before `time` (and at `time` when `including`): the space
    /// bar's trackpad, or a key's bubble of its alternates in the case shift gives.
    mutating func fireHold(upTo time: Duration, including: Bool, _ effects: inout [KeyboardEffect]) {
        guard pointers.hold != nil else { return }
        let layouts = self.layouts, modifiers = self.modifiers
        effects += pointers.fireHold(upTo: time, including: including, keysAreLive: keysAreLive, layout: layouts.layout,
                                     isSpace: { layouts.action(of: $0) == .space },
                                     alternates: { layouts.definition.alternates(of: $0).map(modifiers.cased) })
    }

    /// `pointer` lifted, or a new touch committed it: the flick key types its kana, the bubble
    /// its highlighted choice (`commit`; otherwise nothing), and closes; the trackpad ends.
    /// Returns whether a gesture of that pointer ended.
    mutating func endHold(of pointer: PointerID, commit: Bool, _ effects: inout [KeyboardEffect]) -> Bool {
        guard let ended = pointers.endGesture(of: pointer) else { return false }
        switch ended {
        case .flick(let held):
            if commit { _ = kanaInput(KanaInput.input(releasing: held, in: definition), &effects) }
        case .bubble(let open):
            if commit, let text = open.selectedText { typeChosen(text, &effects) }
        case .trackpad:
            effects.append(.trackpadChanged(false))
        }
        return true
    }

    /// `pointer`'s gesture ends as its lift ends it (`endHold`, committing), if it has one. A
    /// choice typed from a bubble counts as the key typing: after a slide from a layer key, the
    /// layer it came from comes back; otherwise the slide returns to no layer. Returns whether
    /// a gesture ended.
    mutating func commitGesture(of pointer: PointerID, _ effects: inout [KeyboardEffect]) -> Bool {
        let typesChoice = pointers.bubbleTypesChoice(for: pointer)
        guard endHold(of: pointer, commit: true, &effects) else { return false }
        if typesChoice { returnFromSlide(of: pointer, &effects) } else { pointers.forgetLayerReturn(of: pointer) }
        return true
    }

    /// `pointer`'s press ends without acting (its release was lost): it holds nothing, its
    /// gesture ends typing nothing, and its slide returns to no layer. The caller reports the
    /// keys it released (`updatePressedKeys`).
    mutating func abandonPress(of pointer: PointerID, _ effects: inout [KeyboardEffect]) {
        pointers.set(pointer, to: nil)
        _ = endHold(of: pointer, commit: false, &effects)
        pointers.forgetLayerReturn(of: pointer)
    }

    /// A layer key touched by `pointer`: its layer is shown at once; if the pointer then
    /// slides onto a key that types and is lifted there, the layer shown before comes back.
    mutating func layerKeyTouched(_ name: String, by pointer: PointerID, _ effects: inout [KeyboardEffect]) {
        let before = layerName
        effects += layouts.showLayer(name)
        emojiCategoryShown(after: before, &effects)
        if before != name { pointers.setLayerReturn(before, for: pointer) }
    }

    /// After `pointer`'s key typed on release: the layer it slid from comes back.
    mutating func returnFromSlide(of pointer: PointerID, _ effects: inout [KeyboardEffect]) {
        guard let back = pointers.takeLayerReturn(of: pointer) else { return }
        let before = layerName
        effects += layouts.showLayer(back)
        emojiCategoryShown(after: before, &effects)
    }
}
