/// The keys that act when touched, routed: the へぇ button (`hee`), shift, Ctrl and Alt
/// (`modifiers`), backspace and the arrows with their repeats (`pointers`, `document`), the
/// globe key (`layouts`).
extension KeyboardSession {
    /// Emits touch events for keys whose pressed state changed, and runs the touch-down /
    /// touch-up rules of the keys that act on them.
    mutating func updatePressedKeys(from before: Set<KeyID>, time: Duration,
                                    _ effects: inout [KeyboardEffect]) {
        let now = pressedKeys
        for key in before.subtracting(now).sorted() {
            effects.append(.keyTouched(key, down: false))
            switch layouts.action(of: key) {
            case .hee:
                hee.touchUp(at: time)
            case .shift:
                effects += modifiers.touched(.shift, down: false, at: time)
            case .backspace, .arrow:
                pointers.stopRepeat(of: key)
            case .modifier(let modifier):
                effects += modifiers.touched(.desktop(modifier), down: false, at: time)
            default:
                break
            }
        }
        for key in now.subtracting(before).sorted() {
            effects.append(.keyTouched(key, down: true))
            switch layouts.action(of: key) {
            case .hee:
                if hee.touchDown(at: time) { heeCounted(&effects) }
            case .shift:
                effects += modifiers.touched(.shift, down: true, at: time)
            case .backspace, .arrow:
                let active = pressRepeating(key, &effects)
                pointers.startRepeat(key, at: time, modifiers: active)
            case .modifier(let modifier):
                effects += modifiers.touched(.desktop(modifier), down: true, at: time)
            case .nextLayout:
                switchToNextLayout(&effects)
            case .previousLayout:
                leaveEmoji(&effects)
            default:
                break
            }
        }
    }

    /// The へぇ button counted a press (seed 000's keyboard controller): the kana pad's
    /// composition goes in first (issue 22), then 「へぇ〜」 — Ctrl and Alt go with it and are
    /// used up, but it arrives unchanged — and the clip plays.
    mutating func heeCounted(_ effects: inout [KeyboardEffect]) {
        commitComposition(&effects)
        effects.append(.heeCounted(hee.model.count))
        documentEdit(.insertText(HeeButtonModel.insertedText), &effects)
        effects += modifiers.keyActed()
        effects.append(.playSound(.hee))
    }

    /// Performs the held key's repeats (backspace, an arrow) due before `time` (and at `time`
    /// when `including`), each at its own scheduled time, so the result depends only on when
    /// the key went down and came up.
    mutating func fireRepeats(upTo time: Duration, including: Bool, _ effects: inout [KeyboardEffect]) {
        func isDue(_ fire: Duration) -> Bool { including ? fire <= time : fire < time }
        guard var schedule = pointers.keyRepeat, !schedule.isIdle, isDue(schedule.nextFire) else { return }
        while isDue(schedule.nextFire) {
            let revisions = document.textField.revisions
            let composing = kana.isComposing
            let action = layouts.action(of: schedule.key)
            if action == .backspace && schedule.modifiers.isEmpty && backspaceOnKanaPad(&effects) {
                // ⌫ deletes from the kana pad's composition first (issue 22).
            } else if action == .backspace && schedule.modifiers.isEmpty {
                // iOS's backspace: characters, then whole words from 2 s on.
                documentEdit(schedule.deletesWords ? .deleteWordBackward : .deleteBackward, &effects)
            } else {
                // An arrow, or backspace pressed with modifiers: the press's keystroke again.
                typeRepeating(action, schedule.modifiers, &effects)
            }
            schedule.nextFire += KeyRepeat.interval
            // Only the host screen's field can be seen to have nothing left to delete;
            // another application's text (system mode) cannot.
            if mode == .hostScreen && !composing && document.textField.revisions == revisions {
                // Nothing to delete: the next repeats would change nothing either.
                schedule.idleAt = revisions
                break
            }
        }
        pointers.repeatFired(schedule)
    }

    /// Backspace or an arrow touched: with the modifiers active now, which it uses up.
    /// Returns them (its repeats go with them). While the kana pad composes, ⌫ deletes from
    /// the composition (no modifiers then).
    mutating func pressRepeating(_ key: KeyID, _ effects: inout [KeyboardEffect]) -> KeyModifiers {
        let action = layouts.action(of: key)
        if action == .backspace, activeModifiers.isEmpty, backspaceOnKanaPad(&effects) { return [] }
        let active = activeModifiers
        typeRepeating(action, active, &effects)
        effects += modifiers.keyActed()
        return active
    }

    /// Backspace or an arrow acting with `modifiers` (its press, or a repeat of it).
    mutating func typeRepeating(_ action: KeyAction, _ modifiers: KeyModifiers, _ effects: inout [KeyboardEffect]) {
        let casing = self.modifiers
        routeTyped(document.type(action, with: modifiers, at: clock, cased: casing.cased), &effects)
    }
}
