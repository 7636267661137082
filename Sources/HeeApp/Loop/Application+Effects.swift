import CSDL
import HeeRender
import KeyboardCore

/// Feeding the session and performing the effects it returns: the trace line of each, sound,
/// text input, the clipboard, keystrokes for another window (system mode), redraws.
extension Application {
    /// Feeds `input`, which happened at `time`, to the session and performs its effects.
    func send(_ input: KeyboardInput, at time: Duration) {
        // A conversion waiting for its frame comes before any input (but not before time
        // passing): the input then sees the candidates of what is composed.
        if input != .tick, pendingConversion != nil { runPendingConversion() }
        sessionTime = max(sessionTime, time)
        apply(session.handle(input, at: time), at: time)
    }

    /// Performs the session's effects for an input at `time` and traces them, stamped with
    /// that time.
    func apply(_ effects: [KeyboardEffect], at now: Duration) {
        // Keystrokes for another application go out first, in their order: they are what the
        // user waits for (the trace lines and the sound of the same input follow).
        var effects = effects
        if effects.contains(where: { if case .send = $0 { true } else { false } }) {
            let sends = effects.filter { if case .send = $0 { true } else { false } }
            effects = sends + effects.filter { if case .send = $0 { false } else { true } }
        }
        for effect in effects {
            switch effect {
            case .layoutChanged:
                traceLayout(at: now)
                screen.needsDisplay = true
            case .keyboardFrameChanged(let status, let frame):
                trace.emit(.keyboard(status, frame.scaled(by: coordinateScale)), at: now)
                // System mode's keyboard appears and goes with its surface (auto-show).
                systemMode?.setKeyboardShown(status == .show)
                sessionBus?.keyboardShown(status == .show)
                if status == .show { screen.needsDisplay = true }
            case .keyTouched(let key, let down):
                trace.emit(.touch(key, down: down), at: now)
                if !down { bench?.releaseHandled() }
            case .heeCounted(let count):
                trace.emit(.hee(count: count, full: session.hee.model.isFull), at: now)
            case .countReset:
                trace.emit(.reset, at: now)
            case .setVolume(let volume):
                audio.setVolume(volume)
                settings?.settings.volume = volume
                SettingsSnapshot.publish(settings)
                trace.emit(.volume(volume), at: now)
            case .quit:
                running = false
            case .shiftChanged(let state):
                trace.emit(.shift(state), at: now)
            case .textChanged(let text, let caret):
                trace.emit(.text(text, caret: caret), at: now)
            case .compositionChanged(let text, let cursor):
                trace.emit(.composition(text, cursor: cursor), at: now)
                bench?.compositionChanged(text)
            case .playSound(let name):
                let outcome = audio.press(at: now)
                emit(outcome, at: now)
                if outcome.started { trace.emit(.sound(name), at: now) }
                bench?.actionPerformed(.hee)
            case .startAudioEngine:
                // Opening the device (and loading SDL_mixer) waits until the first frame is on
                // screen: sound is not needed to show the window.
                guard screen.firstFramePresented else {
                    audioStartPending = true
                    break
                }
                emit(audio.start(at: now), at: now)
            case .stopAudioEngine:
                audioStartPending = false
                emit(audio.stop(), at: now)
            case .startTextInput(let rect):
                let f = rect.scaled(by: coordinateScale)
                var r = SDL_Rect(x: Int32(f.x), y: Int32(f.y), w: Int32(f.width), h: Int32(f.height))
                SDL_SetTextInputRect(&r)
                SDL_StartTextInput()
            case .stopTextInput:
                SDL_StopTextInput()
            case .setClipboard(let text):
                SDL_SetClipboardText(text)
            case .send(let stroke):
                LatencyProbe.mark("send")
                let (dropped, via) = sendKeystroke(stroke)
                LatencyProbe.mark("sent")
                trace.emit(.send(stroke, dropped: dropped, via: via), at: now)
            case .prepareKeys(let text):
                // After the keystrokes of the same input (they went first, above).
                systemMode?.keySender.prepare(text, at: now)
            case .modifierChanged(let modifier, let state):
                trace.emit(.modifier(modifier, state), at: now)
            case .pasteRequested:
                // Ctrl+V from the desktop row: as the physical Ctrl+V does, live only (a
                // replay feeds what was pasted through its keydown's `clipboard`).
                if session.hostScreen.isTextFieldFocused, replay.records.isEmpty, let text = clipboard.text() { send(.paste(text), at: now) }
            case .layerChanged(let name):
                trace.emit(.layer(name), at: now)
                bench?.actionPerformed(.layer)
            case .alternatesShown(let key, let choices):
                trace.emit(.alternates(key, choices, coordinateScale: coordinateScale), at: now)
                bench?.actionPerformed(.bubble)
            case .trackpadChanged(let active):
                trace.emit(.trackpad(active), at: now)
            case .kanaCommitted(let text):
                trace.emit(.commit(text), at: now)
            case .candidatesChanged(let bar):
                trace.emit(.candidates(bar, coordinateScale: coordinateScale), at: now)
                bench?.candidatesChanged(bar)
            case .convert(let reading):
                conversionRequested(reading, at: now)
            case .keyboardLayoutChanged(let name):
                trace.emit(.keyboardLayout(name), at: now)
                // The globe key's choice is the user's: saved as the layout to start with
                // (the emoji keyboard is not one to start with).
                if name != EmojiPanel.layoutName {
                    settings?.settings.layout = name
                    SettingsSnapshot.publish(settings)
                }
            case .emojiCategoryChanged(let category):
                trace.emit(.emojiCategory(category.rawValue), at: now)
            case .emojiDataNeeded:
                emojiDataNeeded(at: now)
            case .emojiDataRejected(let reason):
                Console.error("\(Console.program): \(reason); the emoji keyboard is empty")
            case .emojiRecentsChanged(let recents):
                settings?.settings.emojiRecents = recents
                SettingsSnapshot.publish(settings)
            case .needsDisplay:
                screen.needsDisplay = true
            }
        }
    }

    /// Writes the audio engine's trace events.
    func emit(_ outcome: AudioEngine.Outcome, at now: Duration) {
        for event in outcome.events { trace.emit(event, at: now) }
    }

    /// Writes the `layout` trace line, at the time of the event that changed the layout
    /// (whether or not a frame is drawn then: also while minimized).
    func traceLayout(at time: Duration) {
        let scale = screen.pixelScaleNow()
        screen.tracedPixelScale = scale
        trace.emit(.layout(session.layout, scale: scale, coordinateScale: coordinateScale), at: time)
    }
}
