/// What keys do: backspace's repeat schedule and typing a released key.
extension KeyboardSession {
    /// Performs the backspace repeats due before `time` (and at `time` when `including`),
    /// each at its own scheduled time, so the result depends only on when backspace went
    /// down and came up.
    mutating func fireRepeats(upTo time: Duration, including: Bool, _ effects: inout [KeyboardEffect]) {
        func isDue(_ fire: Duration) -> Bool { including ? fire <= time : fire < time }
        guard var schedule = backspaceRepeat, !schedule.isIdle, isDue(schedule.nextFire) else { return }
        while isDue(schedule.nextFire) {
            let wholeWords = schedule.nextFire - schedule.pressedAt >= KeyRepeat.wordsAfter
            let revisions = textField.revisions
            documentEdit(wholeWords ? .deleteWordBackward : .deleteBackward, &effects)
            schedule.nextFire += KeyRepeat.interval
            // Only the host screen's field can be seen to have nothing left to delete;
            // another application's text (system mode) cannot.
            if mode == .hostScreen && textField.revisions == revisions {
                // Nothing to delete: the next repeats would change nothing either.
                schedule.idleAt = revisions
                break
            }
        }
        backspaceRepeat = schedule
    }

    /// An idle repeat starts again once the text or the caret changed (text typed, the caret
    /// moved while backspace is held), at the next time of its schedule — the time it would
    /// have deleted at had it kept firing.
    mutating func resumeIdleRepeat() {
        guard var schedule = backspaceRepeat, let idle = schedule.idleAt, idle != textField.revisions else { return }
        schedule.idleAt = nil
        schedule.nextFire = schedule.firstFire(atOrAfter: clock)
        backspaceRepeat = schedule
    }

    mutating func type(_ key: KeyID, _ effects: inout [KeyboardEffect]) {
        switch key {
        case .letter(let letter):
            let typed = shift.apply(to: String(letter))
            documentEdit(.insertText(typed), &effects)
            if shift.letterTyped() { effects.append(.shiftChanged(shift.state)) }
        case .space:
            documentEdit(.insertText(" "), &effects)
        case .return:
            documentEdit(.insertText("\n"), &effects)
        default:
            break
        }
    }
}
