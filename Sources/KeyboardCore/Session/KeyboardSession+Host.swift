/// The host screen (seed 001) routed: the text field's focus, the keyboard shown and closed,
/// its buttons, and the keyboard's frame reported once it settles.
extension KeyboardSession {
    /// Makes the text field first responder: the caret shows (its blink starts) and text
    /// input starts.
    mutating func focusTextField(_ effects: inout [KeyboardEffect]) {
        let focused = hostScreen.focusTextField(frame: layout.textField)
        guard !focused.isEmpty else { return }
        document.caretMoved(at: clock)
        effects += focused
    }

    /// A host-screen button released over itself.
    mutating func press(_ control: HostControl, at time: Duration, _ effects: inout [KeyboardEffect]) {
        switch control {
        case .closeKeyboard:
            closeKeyboard(at: time, &effects)
        case .volumeDown, .volumeUp:
            effects += hee.stepVolume(up: control == .volumeUp)
        case .resetCount:
            effects += hee.resetCount()
        case .textField:
            break
        }
    }

    /// Seed 001's `closeKeyboard()`: the text field resigns first responder, the keyboard
    /// slides away, and presses on its keys end without typing: an open alternates bubble
    /// closes, the trackpad ends, a pending hold is forgotten.
    mutating func closeKeyboard(at time: Duration, _ effects: inout [KeyboardEffect]) {
        // The kana pad's composition is committed to the field it was typed for.
        commitComposition(&effects)
        pointers.cancelFlick()
        if hostScreen.isTextFieldFocused {
            let resigned = hostScreen.resignTextField()
            effects += document.setComposition(nil, at: clock)
            effects += resigned
        }
        let hidden = hostScreen.hideKeyboard(at: time)
        guard !hidden.isEmpty else { return }
        effects += hidden
        endKeyPresses(at: time, &effects)
    }

    /// The keyboard goes away: presses on its keys end without typing (an open alternates
    /// bubble closes, the trackpad ends, a pending hold is forgotten).
    mutating func endKeyPresses(at time: Duration, _ effects: inout [KeyboardEffect]) {
        let before = pressedKeys
        for (id, target) in pointers.targets {
            guard case .key = target else { continue }
            pointers.set(id, to: Pointers.Target.none)
            _ = endHold(of: id, commit: false, &effects)
            pointers.forgetLayerReturn(of: id)
        }
        updatePressedKeys(from: before, time: time, &effects)
    }

    /// The host screen's return, typed by a release or a rollover: the text field resigns
    /// first responder and the keyboard slides away (seed 001's `closeKeyboard()`).
    mutating func finishReturn(at time: Duration, _ effects: inout [KeyboardEffect]) {
        guard hostScreen.takeReturn() else { return }
        closeKeyboard(at: time, &effects)
    }

    /// Reports the keyboard's frame to the host screen once a slide or a resize has settled.
    mutating func reportKeyboardFrame(at time: Duration, _ effects: inout [KeyboardEffect]) {
        effects += hostScreen.reportKeyboardFrame(at: time, keyboardFrame: layout.keyboardFrame)
    }

    /// Escape (the physical key, or the desktop row's on the host screen): closes the
    /// keyboard, or quits once it is closed. System mode's keyboard has no way back once
    /// closed: Escape does nothing there.
    mutating func escapePressed(at time: Duration, _ effects: inout [KeyboardEffect]) {
        switch hostScreen.escapePressed() {
        case .ignored: break
        case .closeKeyboard: closeKeyboard(at: time, &effects)
        case .quit: effects.append(.quit)
        }
    }
}
