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
