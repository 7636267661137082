/// The kana pad in the session (issue 22): flick keys held and released, the pad's other keys,
/// its composition shown at the caret (or, in system mode, in the window's own line), its
/// candidate bar, the converter's round trip, and the globe key.
///
/// The rules are `KanaPad`'s; this file routes the session's inputs to it and its effects
/// back out: `.commit` becomes the document's `insertText` (the text field's, or system
/// mode's keystrokes), `.compositionChanged` a `.compositionChanged` effect, `.convert` a
/// `.convert` effect that the app answers with `KeyboardInput.conversion`.
extension KeyboardSession {
    /// A flick key held by a pointer: the key, where the touch went down and when, and
    /// where it points now.
    public struct FlickHold: Hashable, Sendable {
        /// The pointer holding it.
        public var pointer: PointerID
        /// The key: a kana key or 「゛゜小」.
        public var key: KeyID
        /// The touch's direction so far (window points).
        public var gesture: FlickGesture
        /// When the touch went down (decides whether a tap continues a toggle cycle).
        public var touchDown: Duration
        /// The pointer's last position (a rollover releases the key there).
        public var point: Point
    }

    /// Whether the kana pad holds a composition (空白 is 次候補 and 改行 確定 meanwhile).
    public var isComposing: Bool { !kanaPad.composition.isEmpty }

    /// The kana pad's composition as shown at the caret (the chosen candidate in place of its
    /// reading), or `nil` when nothing is composed.
    public var kanaCompositionText: String? {
        isComposing ? kanaPad.composition.displayText : nil
    }

    /// The flick guide to draw while a flick key is held: the key and its neighbours (for
    /// 「゛゜小」, the forms of the composition's last kana), the selected one highlighted.
    public var flickGuide: (key: KeyID, guide: FlickGuide)? {
        guard let flick else { return nil }
        if let table = definition.kanaKey(flick.key) { return (flick.key, kanaPad.guide(for: table, flick.gesture)) }
        return (flick.key, kanaPad.modifierGuide(flick.gesture))
    }

    // MARK: Flick keys

    /// `key` (a flick key) touched by `pointer` at `point`: its gesture starts there.
    mutating func startFlick(_ key: KeyID, by pointer: PointerID, at point: Point, time: Duration) {
        flick = FlickHold(pointer: pointer, key: key, gesture: FlickGesture(touchDownAt: point), touchDown: time, point: point)
    }

    /// The pointer holding a flick key moved: the direction follows it (the guide redraws when
    /// it changes). Returns whether the flick took the movement.
    mutating func flickMoved(_ pointer: PointerID, to point: Point) -> Bool {
        guard var held = flick, held.pointer == pointer else { return false }
        held.gesture.move(to: point)
        held.point = point
        flick = held
        return true
    }

    /// The flick key of `pointer` is let go (`commit`: lifted, or released by a new touch, at
    /// its last point; otherwise cancelled, typing nothing). Returns whether it held one.
    mutating func endFlick(of pointer: PointerID, commit: Bool, _ effects: inout [KeyboardEffect]) -> Bool {
        guard var held = flick, held.pointer == pointer else { return false }
        flick = nil
        guard commit else { return true }
        let release = held.gesture.release(at: held.point)
        if let table = definition.kanaKey(held.key) {
            _ = kanaInput(.kanaKey(table, release, touchDown: held.touchDown), &effects)
        } else {
            _ = kanaInput(.modifierKey(release.direction), &effects)
        }
        return true
    }

    // MARK: The pad's other keys

    /// A key that acts when released, on a layout with a kana pad (or the pad's own `→` and
    /// `↶` anywhere): returns whether the pad took it. 空白 and 改行 go to the pad (次候補,
    /// 確定) and, when nothing is composed, do what they always do; a key that types text
    /// commits the composition first.
    mutating func typeOnKanaPad(_ action: KeyAction, _ effects: inout [KeyboardEffect]) -> Bool {
        switch action {
        case .kanaNext:
            if kanaInput(.next, &effects) {
                // Outside a composition → moves the caret right, as on iOS.
                if mode == .system { effects.append(.send(.key(.right))) } else { perform(.move(.characterRight), &effects) }
            }
            return true
        case .kanaUndo:
            _ = kanaInput(.undo, &effects)
            return true
        case .space where definition.hasKanaPad:
            return !kanaInput(.space, &effects)
        case .return where definition.hasKanaPad:
            return !kanaInput(.returnKey, &effects)
        case .character, .escape, .tab, .space, .return:
            commitComposition(&effects)
            return false
        default:
            return false
        }
    }

    /// ⌫ (touched or repeating) while composing: deletes from the composition. Returns
    /// whether it did (nothing composed: the key is the document's).
    mutating func backspaceOnKanaPad(_ effects: inout [KeyboardEffect]) -> Bool {
        guard isComposing else { return false }
        return !kanaInput(.backspace, &effects)
    }

    /// A candidate of the bar tapped: it is committed (the rest of the reading stays).
    mutating func candidateTapped(_ index: Int, _ effects: inout [KeyboardEffect]) {
        _ = kanaInput(.candidate(index), &effects)
    }

    /// Commits whatever is composed (the へぇ button, the globe key, the keyboard closing,
    /// typing or clicking in the field): it becomes text, the candidate bar empties.
    mutating func commitComposition(_ effects: inout [KeyboardEffect]) {
        guard isComposing else { return }
        _ = kanaInput(.commitAll, &effects)
    }

    /// Feeds `input` to the pad at the session's time and performs its effects. Returns
    /// whether the pad passed the key through (nothing was composed).
    mutating func kanaInput(_ input: KanaPadInput, _ effects: inout [KeyboardEffect]) -> Bool {
        var passThrough = false
        for effect in kanaPad.handle(input, at: clock) {
            switch effect {
            case .commit(let text):
                effects.append(.kanaCommitted(text))
                documentEdit(.insertText(text), &effects)
            case .compositionChanged(let text):
                caretActivity = clock  // the caret stays visible while composing
                effects.append(.compositionChanged(text, cursor: text.count))
            case .candidatesChanged(let candidates, let selected):
                candidateBar = CandidateBar(frame: layout.candidateBar, candidates: candidates, selected: selected)
                effects.append(.candidatesChanged(candidateBar))
            case .convert(let reading):
                effects.append(.convert(reading))
            case .passThrough:
                passThrough = true
            }
        }
        return passThrough
    }

    // MARK: Layouts

    /// The globe key: commits the composition and shows the next of `layouts` (after the one
    /// shown; the first when the one shown is not among them), at its first layer.
    mutating func switchToNextLayout(_ effects: inout [KeyboardEffect]) {
        guard !layouts.isEmpty else { return }
        let next = layouts.firstIndex { $0.name == definition.name }.map { (layouts.index(after: $0)) % layouts.count } ?? 0
        guard layouts[next] != definition else { return }
        commitComposition(&effects)
        definition = layouts[next]
        kanaPad = KanaPad(isFlickOnly: kanaPad.isFlickOnly, toggleTimeout: kanaPad.toggleTimeout, modifiers: definition.kanaModifiers)
        (hold, bubble, trackpad, flick) = (nil, nil, nil, nil)
        layerReturns = [:]
        layout = KeyboardLayout(windowSize: layout.windowSize, mode: mode, definition: definition, desktopKeys: desktopKeys)
        candidateBar = CandidateBar(frame: layout.candidateBar)
        effects.append(.keyboardLayoutChanged(definition.name))
        effects.append(.layoutChanged)
        if isTextFieldFocused { effects.append(.startTextInput(layout.textField)) }
    }

    /// The candidate bar laid out again for the layout shown (after a resize).
    mutating func relayoutCandidateBar() {
        let composition = kanaPad.composition
        candidateBar = CandidateBar(frame: layout.candidateBar, candidates: composition.candidates,
                                    selected: composition.selectedCandidate)
    }
}
