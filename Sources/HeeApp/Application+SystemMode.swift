import CSDL
import KeyboardCore

/// Starting `--system` mode and following where its keys go.
extension Application {
    /// System mode: sets the window up as a keyboard that never takes the focus and starts
    /// watching the focus (X11), or says in one line why keys cannot reach every window.
    func startSystemMode() {
        do {
            systemMode = try X11SystemMode(window: window.pointer)
            systemMode?.readyText = HeeButtonModel.insertedText
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
        let target = systemMode?.keyTarget ?? .unavailable
        if let systemMode { trace.emit(.target(systemMode.target), at: clock.now) }
        send(.keyTargetChanged(target), at: time)
    }
}
