/// What keys do: backspace's repeat schedule and typing a released key.
extension KeyboardSession {
    /// Performs the held key's repeats (backspace, an arrow) due before `time` (and at `time`
    /// when `including`), each at its own scheduled time, so the result depends only on when
    /// the key went down and came up.
    mutating func fireRepeats(upTo time: Duration, including: Bool, _ effects: inout [KeyboardEffect]) {
        func isDue(_ fire: Duration) -> Bool { including ? fire <= time : fire < time }
        guard var schedule = keyRepeat, !schedule.isIdle, isDue(schedule.nextFire) else { return }
        while isDue(schedule.nextFire) {
            let revisions = textField.revisions
            let composing = isComposing
            let action = action(of: schedule.key)
            if action == .backspace && schedule.modifiers.isEmpty && backspaceOnKanaPad(&effects) {
                // ⌫ deletes from the kana pad's composition first (issue 22).
            } else if action == .backspace && schedule.modifiers.isEmpty {
                // iOS's backspace: characters, then whole words from 2 s on.
                let wholeWords = schedule.nextFire - schedule.pressedAt >= KeyRepeat.wordsAfter
                documentEdit(wholeWords ? .deleteWordBackward : .deleteBackward, &effects)
            } else {
                // An arrow, or backspace pressed with modifiers: the press's keystroke again.
                typeRepeating(action, schedule.modifiers, &effects)
            }
            schedule.nextFire += KeyRepeat.interval
            // Only the host screen's field can be seen to have nothing left to delete;
            // another application's text (system mode) cannot.
            if mode == .hostScreen && !composing && textField.revisions == revisions {
                // Nothing to delete: the next repeats would change nothing either.
                schedule.idleAt = revisions
                break
            }
        }
        keyRepeat = schedule
    }

    /// An idle repeat starts again once the text or the caret changed (text typed, the caret
    /// moved while backspace is held), at the next time of its schedule — the time it would
    /// have deleted at had it kept firing.
    mutating func resumeIdleRepeat() {
        guard var schedule = keyRepeat, let idle = schedule.idleAt, idle != textField.revisions else { return }
        schedule.idleAt = nil
        schedule.nextFire = schedule.firstFire(atOrAfter: clock)
        keyRepeat = schedule
    }

    /// Types a key that acts when released: its characters (in the case shift gives letters),
    /// a space, Escape, Tab, or return — a line break in system mode; on the host screen's
    /// one-line field, return ends editing as a SwiftUI `TextField` does. Ctrl and Alt
    /// latched, locked or held go with it (`typeWithModifiers`) and are used up.
    mutating func type(_ key: KeyID, at time: Duration, _ effects: inout [KeyboardEffect]) {
        let action = action(of: key)
        if typeOnKanaPad(action, &effects) { return }
        let modifiers = activeModifiers
        switch action {
        case .return where mode == .hostScreen:
            // The host screen's field ends editing once the key's release is reported
            // (`finishReturn`), so keys held by other pointers are released once.
            returnPending = true
        case .return where modifiers.isEmpty:
            documentEdit(.insertText("\n"), &effects)
        case .character, .space, .escape, .tab, .return:
            if modifiers.isEmpty {
                typePlainly(action, &effects)
            } else {
                typeWithModifiers(action, modifiers, &effects)
                if case .character(let text) = action, Self.hasCase(text), shift.letterTyped() {
                    effects.append(.shiftChanged(shift.state))
                }
            }
        default:
            return
        }
        modifiersUsed(&effects)
    }

    /// Types `text`, upper case when it is a letter and shift says so (a one-shot shift then
    /// turns off, as after a letter); text without case (digits, symbols) leaves shift as it is.
    mutating func typeCharacters(_ text: String, _ effects: inout [KeyboardEffect]) {
        let typed = casedText(text)
        documentEdit(.insertText(typed), &effects)
        if Self.hasCase(text), shift.letterTyped() { effects.append(.shiftChanged(shift.state)) }
    }

    /// `text` in the case shift gives letters now. A letter whose upper case is longer (ß →
    /// SS) keeps its form.
    func casedText(_ text: String) -> String {
        guard Self.hasCase(text) else { return text }
        let cased = shift.apply(to: text)
        return cased.count == text.count ? cased : text
    }

    /// Whether `text` has an upper and a lower case (letters do; digits and symbols do not).
    static func hasCase(_ text: String) -> Bool { text.uppercased() != text.lowercased() }

    /// The host screen's return, typed by a release or a rollover: the text field resigns
    /// first responder and the keyboard slides away (seed 001's `closeKeyboard()`).
    mutating func finishReturn(at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard returnPending else { return }
        returnPending = false
        closeKeyboard(at: time, &effects)
    }

    /// Backspace or an arrow touched: with the modifiers active now, which it uses up.
    /// Returns them (its repeats go with them). While the kana pad composes, ⌫ deletes from
    /// the composition (no modifiers then).
    mutating func pressRepeating(_ key: KeyID, _ effects: inout [KeyboardEffect]) -> KeyModifiers {
        if action(of: key) == .backspace, activeModifiers.isEmpty, backspaceOnKanaPad(&effects) { return [] }
        let modifiers = activeModifiers
        typeRepeating(action(of: key), modifiers, &effects)
        modifiersUsed(&effects)
        return modifiers
    }

    /// Backspace or an arrow acting with `modifiers` (its press, or a repeat of it).
    mutating func typeRepeating(_ action: KeyAction, _ modifiers: KeyModifiers, _ effects: inout [KeyboardEffect]) {
        if modifiers.isEmpty { typePlainly(action, &effects) } else { typeWithModifiers(action, modifiers, &effects) }
    }
}
