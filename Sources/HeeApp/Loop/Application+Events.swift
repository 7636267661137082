import AppModel
import CSDL
import HeeRender
import KeyboardCore

/// One SDL event, live or replayed: what it means (`EventTranslator`), recorded
/// (`--record`), then each meaning handed to the owner that acts on it.
extension Application {
    /// Handles one live event, at the app's time of its SDL timestamp.
    func handleLive(_ event: SDL_Event) {
        if event.type == SDL_MOUSEBUTTONDOWN.rawValue || event.type == SDL_MOUSEBUTTONUP.rawValue { LatencyProbe.mark("sdlbutton") }
        handle(event, at: clock.time(ofTimestamp: event.common.timestamp), live: true)
    }

    /// Handles one event, live or replayed. `clipboard`: the text a replayed Ctrl+V pasted
    /// when it was recorded (otherwise the clipboard is read now).
    func handle(_ event: SDL_Event, at time: Duration, live: Bool, clipboard recorded: String? = nil) {
        let meanings = translator.meanings(of: event)
        var pasted: String?
        // The clipboard is read only when the paste has somewhere to go (reading another
        // client's can take up to 2 s; the session ignores a paste without the field focused).
        if meanings.contains(.pasteRequested), session.hostScreen.isTextFieldFocused { pasted = recorded ?? clipboard.text() }
        if let recorder, var record = InputRecord(recording: event) {
            // Live or replayed (`--replay A --record B` writes what A fed in, so replaying B
            // does the same), stamped with the app's clock, which runs on after a replay.
            record.t = Int((time.seconds * 1000).rounded())
            record.clipboard = pasted
            recorder.write(record)
        }
        for meaning in meanings {
            act(on: meaning, of: event, at: time, live: live, pasted: pasted)
        }
        if SDL_EventType(event.type) == SDL_TEXTEDITING_EXT, let text = event.editExt.text { SDL_free(text) }
    }

    /// Hands one meaning of `event` to its owner.
    private func act(on meaning: AppEvent, of event: SDL_Event, at time: Duration, live: Bool, pasted: String?) {
        switch meaning {
        case .platformEvent:
            if X11WindowLoss.isWindowDestroyed(by: event) {
                running = false
                return
            }
            // X events for system mode: focus, titles, keymap changes, the pointer on the keys.
            var copy = event
            if systemMode?.handle(&copy, at: clock.now) == true { keyTargetChanged(at: time) }
            // The focused field's context (the AT-SPI watch's wake-up on X11).
            if systemMode?.textContextSource?.handle(&copy) == true { textContextChanged(at: time) }
            // Phosh's SetVisible, gnome-session's end (the session bus's thread wakes the loop the same way).
            sessionBusReported(at: time)
        case .showRequested:
            trace.emit(.showRequested, at: clock.now)
            systemMode?.showWindow()
        case .audioDeviceRemoved(let device):
            emit(audio.deviceRemoved(device, at: time), at: clock.now)
        case .pointerOverWindow:
            // A mouse moving over the window: get a suspended audio device ready for a press.
            emit(audio.pointerMoved(at: time), at: clock.now)
        case .windowStateChanged(let id):
            if live, windowState.handle(id, window: screen.window, at: time) { settingsChanged() }
        case .input(let input):
            if case .windowResized(let size) = input {
                translator.windowSize = size
                if live {
                    windowState.resized(to: size, at: time)
                    settingsChanged()
                }
                // Also when only the display's scale changed (the window moved to another
                // output): the same points, more pixels.
                screen.needsDisplay = true
            }
            send(input, at: time)
        case .quit:
            running = false
        case .redraw:
            screen.needsDisplay = true
        case .minimized(let minimized):
            screen.isMinimized = minimized
            if !minimized { screen.needsDisplay = true }
        case .pasteRequested:
            if let pasted { send(.paste(pasted), at: time) }
        case .pixelScaleMayHaveChanged:
            if screen.tracedPixelScale != screen.pixelScaleNow() {
                // The same layout at another pixel scale (the window moved to a HiDPI display).
                traceLayout(at: time)
                screen.needsDisplay = true
            }
        case .placeCaret(let pointer, let point, let clicks, let extending):
            placeCaret(for: pointer, at: point, clicks: clicks, extending: extending, time: time)
        }
    }

    /// A click, tap or drag in the text field puts the caret where the pointer is (after the
    /// session has focused the field): the renderer knows where each character is drawn.
    private func placeCaret(for pointer: PointerID, at point: Point, clicks: Int, extending: Bool, time: Duration) {
        guard session.pointers[pointer] == .host(.textField) else { return }
        // Map through the text as it is now: events handled since the last frame (a replay
        // batch, a burst of live events) may have changed it.
        if screen.needsDisplay { try? drawIfNeeded(at: time) }
        let offset = screen.textFieldOffset(atX: point.x, clicks: clicks)
        send(.placeCaret(at: offset, extendingSelection: extending, clickCount: clicks), at: time)
    }
}
