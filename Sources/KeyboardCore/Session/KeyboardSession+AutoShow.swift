/// Auto-show (issue 30) routed: the focused field's context and the `hide` key go to the
/// `autoShow` part, and what it decides shows or hides system mode's keyboard through
/// `hostScreen`, at once; presses on the keys end when it hides.
extension KeyboardSession {
    /// The platform's focused field changed (`.textContextChanged`), or it cannot tell
    /// (`context` `nil`: `.textContextUnavailable`).
    mutating func textContextChanged(_ context: TextContext?, focus: UInt64, at time: Duration,
                                     _ effects: inout [KeyboardEffect]) {
        guard mode == .system else { return }
        let change = context.map { autoShow.contextChanged($0, focus: focus, at: time) } ?? autoShow.unavailable()
        applyAutoShow(change, at: time, &effects)
    }

    /// The focused window says nothing of what has the focus (`.textContextUnknown`).
    mutating func textContextUnknown(at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard mode == .system else { return }
        applyAutoShow(autoShow.contextUnknown(), at: time, &effects)
    }

    /// The `hide` key released: the keyboard hides until a field gains the focus again.
    mutating func dismissKeyboard(at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard mode == .system else { return }
        applyAutoShow(autoShow.dismissed(), at: time, &effects)
    }

    /// The shell or the user asked for the keyboard shown or hidden (`sm.puri.OSK0.SetVisible`).
    mutating func visibilityRequested(_ visible: Bool, at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard mode == .system else { return }
        applyAutoShow(autoShow.visibilityRequested(visible), at: time, &effects)
    }

    /// The hold after the last field went away ends at `time`, when it is due.
    mutating func fireAutoHide(upTo time: Duration, _ effects: inout [KeyboardEffect]) {
        guard mode == .system else { return }
        applyAutoShow(autoShow.tick(at: time), at: time, &effects)
    }

    /// Shows or hides the keyboard as `autoShow` decided. Hiding ends what the keys were doing,
    /// as closing the host screen's keyboard does: the kana pad's composition goes to the field
    /// it was typed for, a flick is forgotten, and held keys, a bubble or the trackpad end
    /// without typing.
    private mutating func applyAutoShow(_ change: AutoShow.Change?, at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard let change else { return }
        if change == .hide {
            commitComposition(&effects)
            pointers.cancelFlick()
        }
        let changed = hostScreen.setShownAtOnce(change == .show)
        guard !changed.isEmpty else { return }
        effects += changed
        if change == .hide { endKeyPresses(at: time, &effects) }
    }
}
