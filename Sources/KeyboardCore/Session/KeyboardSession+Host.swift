/// The host screen (seed 001): the text field's focus, the keyboard shown and closed, its
/// buttons, and the keyboard's frame reported once it settles.
extension KeyboardSession {
    /// Makes the text field first responder: the caret shows and text input starts.
    mutating func focusTextField(_ effects: inout [KeyboardEffect]) {
        guard !isTextFieldFocused else { return }
        isTextFieldFocused = true
        caretActivity = clock
        effects.append(.startTextInput(layout.textField))
    }

    mutating func showKeyboard(at time: Duration, _ effects: inout [KeyboardEffect]) {
        if visibility.show(at: time) { effects.append(.startAudioEngine) }
    }

    /// A host-screen button released over itself.
    mutating func press(_ control: HostControl, at time: Duration, _ effects: inout [KeyboardEffect]) {
        switch control {
        case .closeKeyboard:
            closeKeyboard(at: time, &effects)
        case .volumeDown, .volumeUp:
            let step = control == .volumeUp ? Self.volumeStep : -Self.volumeStep
            let next = min(max(volume + step, 0), 100)
            guard next != volume else { return }
            volume = next
            effects.append(.setVolume(next))
        case .resetCount:
            guard hee.count != 0 else { return }
            hee.reset()
            effects.append(.countReset)
        case .textField:
            break
        }
    }

    /// Seed 001's `closeKeyboard()`: the text field resigns first responder, the keyboard
    /// slides away, and presses on its keys end.
    mutating func closeKeyboard(at time: Duration, _ effects: inout [KeyboardEffect]) {
        if isTextFieldFocused {
            isTextFieldFocused = false
            setComposition(nil, &effects)
            effects.append(.stopTextInput)
        }
        guard visibility.hide(at: time) else { return }
        effects.append(.stopAudioEngine)
        let before = pressedKeys
        for (id, target) in pointers {
            if case .key = target { pointers[id] = PointerTarget.none }
        }
        updatePressedKeys(from: before, time: time, &effects)
    }

    /// Reports the keyboard's frame to the host screen once a slide or a resize has settled.
    mutating func reportKeyboardFrame(at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard visibility.isSettled(at: time) else { return }
        let frame = visibility.target == .show ? layout.keyboardFrame : .zero
        guard frame != monitor.keyboardRect else { return }
        monitor.keyboardDidChangeFrame(frame)
        effects.append(.keyboardFrameChanged(monitor.keyboardStatus, frame))
    }
}
