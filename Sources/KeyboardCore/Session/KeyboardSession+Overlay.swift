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
        guard let overlay = pointers.overlay(at: point, layout: layout, keysAreLive: keysAreLive) else { return false }
        if case .bubble(let cell) = overlay, let holder = pointers.bubble?.pointer {
            if let cell { pointers.selectBubbleCell(cell) }
            releaseHolder(holder, time: time, &effects)
        }
        pointers.set(id, to: Pointers.Target.none)
        return true
    }

    /// The finger holding an overlay lets go of it as if lifted now: the gesture commits, its
    /// key goes up, and the finger holds nothing from then on.
    private mutating func releaseHolder(_ holder: PointerID, time: Duration, _ effects: inout [KeyboardEffect]) {
        let before = pressedKeys
        pointers.set(holder, to: Pointers.Target.none)
        _ = commitGesture(of: holder, &effects)
        updatePressedKeys(from: before, time: time, &effects)
    }
}
