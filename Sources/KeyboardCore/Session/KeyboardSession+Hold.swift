/// Touch and hold: after `AlternatesBubble.holdDelay` a key with alternates opens its bubble
/// and the space bar becomes iOS's trackpad.
extension KeyboardSession {
    /// Starts the hold delay for `key` held by `pointer` when holding it does something;
    /// otherwise (and for any other press) forgets a running one of that pointer.
    mutating func startHold(_ key: KeyID?, by pointer: PointerID, at point: Point, time: Duration) {
        if flick?.pointer == pointer { flick = nil }
        if let key, action(of: key).isFlicked {
            // A kana key (or 「゛゜小」): its press follows the finger's direction from here.
            startFlick(key, by: pointer, at: point, time: time)
            if hold?.pointer == pointer { hold = nil }
        } else if let key, (action(of: key) == .space && !isComposing) || !alternates(of: key).isEmpty {
            hold = HoldTimer(pointer: pointer, key: key, due: time + AlternatesBubble.holdDelay, point: point)
        } else if hold?.pointer == pointer {
            hold = nil
        }
    }

    /// The alternates `key` shows, in the case shift gives letters now.
    func alternates(of key: KeyID) -> [String] {
        definition.alternates(of: key).map { casedText($0) }
    }

    /// Acts on a hold that fell due before `time` (and at `time` when `including`: a tick at
    /// the very moment the delay ends opens the bubble, an input at that moment goes first).
    mutating func fireHold(upTo time: Duration, including: Bool, _ effects: inout [KeyboardEffect]) {
        guard let timer = hold, including ? timer.due <= time : timer.due < time else { return }
        hold = nil
        guard pointers[timer.pointer] == .key(timer.key), keysAreLive, let frame = layout.keys[timer.key] else { return }
        if action(of: timer.key) == .space {
            trackpad = Trackpad(pointer: timer.pointer, startX: timer.point.x, moved: 0)
            effects.append(.trackpadChanged(true))
            return
        }
        let opened = AlternatesBubble(key: timer.key, pointer: timer.pointer, texts: alternates(of: timer.key),
                                      keyFrame: frame, cellWidth: frame.width,
                                      keyboardFrame: layout.keyboardFrame)
        bubble = opened
        effects.append(.alternatesShown(timer.key, opened.choices))
    }

    /// A held pointer moved: the bubble's highlight or the trackpad's caret follows it.
    /// Returns whether the bubble or the trackpad took the movement.
    mutating func holdMoved(_ pointer: PointerID, to point: Point, _ effects: inout [KeyboardEffect]) -> Bool {
        if flickMoved(pointer, to: point) { return true }
        if var open = bubble, open.pointer == pointer {
            open.selected = open.choice(at: point)
            bubble = open
            return true
        }
        if var pad = trackpad, pad.pointer == pointer {
            let steps = pad.steps(toX: point.x)
            if steps != 0 {
                pad.moved += steps
                documentEdit(.moveCaret(steps), &effects)
            }
            trackpad = pad
            return true
        }
        return false
    }

    /// `pointer` lifted, or a new touch committed it: the bubble types its highlighted
    /// choice (`commit`) or nothing, and closes; the trackpad ends. Returns whether either
    /// was open for that pointer.
    mutating func endHold(of pointer: PointerID, commit: Bool, _ effects: inout [KeyboardEffect]) -> Bool {
        if hold?.pointer == pointer { hold = nil }
        if endFlick(of: pointer, commit: commit, &effects) { return true }
        if let open = bubble, open.pointer == pointer {
            bubble = nil
            if commit, let text = open.selectedText { typeChosen(text, &effects) }
            return true
        }
        if trackpad?.pointer == pointer {
            trackpad = nil
            effects.append(.trackpadChanged(false))
            return true
        }
        return false
    }
}

/// A touch while another finger's overlay is open (issue 28, class 8).
extension KeyboardSession {
    /// A new touch at `point` while a held gesture's overlay is open — the alternates bubble,
    /// the trackpad — belongs to that gesture, never to the key the overlay covers (a second
    /// finger on a bubble over the top row pressed the へぇ button under it):
    /// - on a bubble's cell it chooses that cell, and the bubble ends as the holding finger's
    ///   lift would end it now (the choice typed; the holding finger then holds nothing, its
    ///   lift types nothing more); on the held key itself (the bubble's stem) it ends the
    ///   bubble with the choice already highlighted;
    /// - anywhere on the keyboard while the space bar is the trackpad it is part of the
    ///   trackpad (iOS: the whole keyboard is the trackpad until the finger lifts) and types
    ///   nothing.
    /// The touch itself then holds nothing: its lift types nothing. Elsewhere (outside the
    /// overlay) a touch is iOS rollover as before (`commitHeldKeys`). The kana pad's flick
    /// guide is not such an overlay: it opens with every touch of a kana key and covers its
    /// neighbours, as a letter's callout covers the key above it, so a touch on it is the
    /// next key of fast two-thumb typing (rollover: あ held, か touched types あ, then か).
    /// Returns whether the touch was taken.
    mutating func touchOnOverlay(_ id: PointerID, at point: Point, time: Duration, _ effects: inout [KeyboardEffect]) -> Bool {
        guard keysAreLive else { return false }
        if var open = bubble, let keyFrame = layout.keys[open.key] {
            let cell = open.cell(containing: point)
            guard cell != nil || keyFrame.contains(point) else { return false }
            if let cell {
                open.selected = cell
                bubble = open
            }
            releaseHolder(open.pointer, time: time, &effects)
        } else if trackpad != nil {
            guard layout.keyboardFrame.contains(point) else { return false }
        } else {
            return false
        }
        pointers[id] = PointerTarget.none
        return true
    }

    /// The finger holding an overlay lets go of it as if lifted now: the gesture commits, its
    /// key goes up, and the finger holds nothing from then on.
    private mutating func releaseHolder(_ holder: PointerID, time: Duration, _ effects: inout [KeyboardEffect]) {
        let before = pressedKeys
        let typesChoice = bubble?.pointer == holder && bubble?.selected != nil
        pointers[holder] = PointerTarget.none
        _ = endHold(of: holder, commit: true, &effects)
        if typesChoice { returnFromSlide(of: holder, &effects) } else { layerReturns[holder] = nil }
        updatePressedKeys(from: before, time: time, &effects)
    }
}
