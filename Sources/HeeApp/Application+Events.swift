import CSDL
import HeeRender
import KeyboardCore

/// One SDL event, live or replayed, turned into what it means: recorded (`--record`), then
/// translated (`EventTranslator`) into session inputs, window state and X11 system mode's
/// focus changes.
extension Application {
    /// Handles one event, live or replayed. `clipboard`: the text a replayed Ctrl+V pasted
    /// when it was recorded (otherwise the clipboard is read now).
    func handle(_ event: SDL_Event, at time: Duration, live: Bool, clipboard: String? = nil) {
        let meaning = translator.meaning(of: event)
        var pasted: String?
        // The clipboard is read only when the paste has somewhere to go (reading another
        // client's can take up to 2 s; the session ignores a paste without the field focused).
        if case .pasteRequested = meaning, session.isTextFieldFocused { pasted = clipboard ?? clipboardText() }
        if let recorder, var record = InputRecord(recording: event) {
            // Live or replayed (`--replay A --record B` writes what A fed in, so replaying B
            // does the same), stamped with the app's clock, which runs on after a replay.
            record.t = Int((time.seconds * 1000).rounded())
            record.clipboard = pasted
            recorder.write(record)
        }
        if X11WindowLoss.isWindowDestroyed(by: event) {
            running = false
            return
        }
        switch SDL_EventType(event.type) {
        case SDL_SYSWMEVENT:
            // X events for system mode: focus, titles, keymap changes, the pointer on the keys.
            var copy = event
            if systemMode?.handle(&copy, at: clock.now) == true { keyTargetChanged(at: time) }
            return
        case SDL_AUDIODEVICEREMOVED where event.adevice.iscapture == 0:
            emit(audio.deviceRemoved(event.adevice.which, at: time), at: clock.now)
        case SDL_MOUSEMOTION where event.motion.which != HEE_SDL_TOUCH_MOUSEID:
            // A mouse moving over the window: get a suspended audio device ready for a press.
            emit(audio.pointerMoved(at: time), at: clock.now)
        default:
            break
        }
        if live, SDL_EventType(event.type) == SDL_WINDOWEVENT,
           windowState.handle(SDL_WindowEventID(UInt32(event.window.event)), window: window, at: time) {
            settingsChanged()
        }
        let type = SDL_EventType(event.type)
        if type == SDL_KEYDOWN || type == SDL_KEYUP { keyModifiers = event.key.keysym.mod }
        switch meaning {
        case .input(let input):
            if case .windowResized(let size) = input {
                translator.windowSize = size
                if live {
                    windowState.resized(to: size, at: time)
                    settingsChanged()
                }
                // Also when only the display's scale changed (the window moved to another
                // output): the same points, more pixels.
                needsDisplay = true
            }
            send(input, at: time)
        case .quit:
            running = false
        case .redraw:
            needsDisplay = true
        case .minimized(let minimized):
            isMinimized = minimized
            if !minimized { needsDisplay = true }
        case .pasteRequested:
            if let pasted { send(.paste(pasted), at: time) }
        case .ignored:
            break
        }
        if type == SDL_WINDOWEVENT, [SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_DISPLAY_CHANGED]
            .contains(SDL_WindowEventID(UInt32(event.window.event))), tracedPixelScale != pixelScaleNow() {
            // The same layout at another pixel scale (the window moved to a HiDPI display).
            traceLayout(at: time)
            needsDisplay = true
        }
        if SDL_EventType(event.type) == SDL_TEXTEDITING_EXT, let text = event.editExt.text { SDL_free(text) }
        placeCaretFromPointer(event, at: time)
    }

    /// A click, tap or drag in the text field puts the caret where the pointer is (after the
    /// session has focused the field): the renderer knows where each character is drawn.
    private func placeCaretFromPointer(_ event: SDL_Event, at time: Duration) {
        let point: Point
        var clicks = 1
        var extending = false
        switch SDL_EventType(event.type) {
        case SDL_MOUSEBUTTONDOWN where event.button.which != HEE_SDL_TOUCH_MOUSEID && event.button.button == HEE_SDL_BUTTON_LEFT:
            guard session.pointers[.mouse] == .host(.textField) else { return }
            point = Point(x: Double(event.button.x) / coordinateScale, y: Double(event.button.y) / coordinateScale)
            clicks = Int(event.button.clicks)
            // The modifiers of the key events (live or replayed), not SDL's live state, so a
            // replay extends exactly the clicks the recorded run extended.
            extending = UInt32(keyModifiers) & KMOD_SHIFT.rawValue != 0
        case SDL_MOUSEMOTION where event.motion.which != HEE_SDL_TOUCH_MOUSEID && event.motion.state & HEE_SDL_BUTTON_LMASK != 0:
            guard session.pointers[.mouse] == .host(.textField) else { return }
            point = Point(x: Double(event.motion.x) / coordinateScale, y: Double(event.motion.y) / coordinateScale)
            extending = true
        case SDL_FINGERDOWN:
            guard session.pointers[.finger(event.tfinger.fingerId)] == .host(.textField) else { return }
            point = Point(x: Double(event.tfinger.x) * translator.windowSize.width, y: Double(event.tfinger.y) * translator.windowSize.height)
        default:
            return
        }
        // Map through the text as it is now: events handled since the last frame (a replay
        // batch, a burst of live events) may have changed it.
        if needsDisplay { try? drawIfNeeded(at: time) }
        let offset = clicks == 2
            ? sceneRenderer.textFieldCharacterIndex(atX: point.x * pixelScale)
            : sceneRenderer.textFieldCharacterOffset(atX: point.x * pixelScale)
        send(.placeCaret(at: offset, extendingSelection: extending, clickCount: clicks), at: time)
    }
}
