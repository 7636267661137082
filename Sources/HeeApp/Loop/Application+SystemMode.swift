import CSDL
import AppModel
import KeyboardCore

/// Starting `--system` mode and following where its keys go.
extension Application {
    /// System mode: sets the window up as a keyboard that never takes the focus and starts
    /// watching the focus (X11), or says in one line why keys cannot reach every window.
    func startSystemMode() {
        do {
            systemMode = try X11SystemMode(window: screen.window.pointer, readyText: HeeButtonModel.insertedText)
        } catch {
            Console.error("\(Console.program): --system: \(error); keys are not sent")
        }
        if let notice = SystemModeNotice.message(videoDriver: sdl.videoDriver.description, environment: FileSystem.environment) {
            Console.error("\(Console.program): \(notice)")
        }
        // Text input and the input method stay off: the window never has the focus.
        SDL_EventState(UInt32(SDL_TEXTINPUT.rawValue), SDL_DISABLE)
        SDL_EventState(UInt32(SDL_TEXTEDITING.rawValue), SDL_DISABLE)
        SDL_EventState(UInt32(SDL_TEXTEDITING_EXT.rawValue), SDL_DISABLE)
    }

    /// System mode: tells the session and the trace where keys go now.
    func keyTargetChanged(at time: Duration) {
        let watcher = systemMode?.focusWatcher
        if let watcher { trace.emit(.target(watcher.focusedWindow), at: clock.now) }
        send(.keyTargetChanged(watcher?.keyTarget ?? .unavailable), at: time)
    }

    /// Types `stroke` through the platform's key sender; returns why it was not typed, if it
    /// was not (for the trace's `dropped`).
    func sendKeystroke(_ stroke: Keystroke) -> String? {
        guard let systemMode else { return "keys cannot be sent (not X11)" }
        // Where the platform knows no window has the focus, keys would go nowhere.
        if systemMode.focusWatcher.keyTarget == .noFocusedWindow { return "no window has focus" }
        do throws(KeySendFailure) {
            try systemMode.keySender.send(stroke, at: clock.now)
            return nil
        } catch {
            return error.description
        }
    }
}
