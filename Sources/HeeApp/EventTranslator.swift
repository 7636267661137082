import CSDL
import KeyboardCore

/// What one SDL event means to the app.
enum AppEvent {
    /// Feed this to the session.
    case input(KeyboardInput)
    /// Close the app (window closed, SIGINT/SIGTERM).
    case quit
    /// The window needs repainting (exposed, shown).
    case redraw
    /// Nothing for us.
    case ignored
}

/// Turns `SDL_Event`s into `AppEvent`s. Translates, never decides: every rule is in the
/// session. Touches arrive both as finger events and as mouse events with `which ==
/// SDL_TOUCH_MOUSEID`; only the finger events are used.
struct EventTranslator {
    /// The window's size in points, to turn finger positions (0…1) into points.
    var windowSize: Size

    /// The event's meaning, and its timestamp as time since SDL started.
    func translate(_ event: SDL_Event) -> (AppEvent, Duration) {
        let time = Duration.milliseconds(Int64(event.common.timestamp))
        return (meaning(of: event), time)
    }

    private func meaning(of event: SDL_Event) -> AppEvent {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                return .input(.windowResized(Size(width: Double(event.window.data1), height: Double(event.window.data2))))
            case SDL_WINDOWEVENT_EXPOSED, SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED:
                return .redraw
            case SDL_WINDOWEVENT_FOCUS_LOST:
                return .input(.pointersCancelled)
            default:
                return .ignored
            }
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            let b = event.button
            guard b.which != HEE_SDL_TOUCH_MOUSEID, b.button == HEE_SDL_BUTTON_LEFT else { return .ignored }
            let p = Point(x: Double(b.x), y: Double(b.y))
            return .input(SDL_EventType(event.type) == SDL_MOUSEBUTTONDOWN ? .pointerDown(.mouse, p) : .pointerUp(.mouse, p))
        case SDL_MOUSEMOTION:
            let m = event.motion
            guard m.which != HEE_SDL_TOUCH_MOUSEID, m.state & HEE_SDL_BUTTON_LMASK != 0 else { return .ignored }
            return .input(.pointerMoved(.mouse, Point(x: Double(m.x), y: Double(m.y))))
        case SDL_FINGERDOWN, SDL_FINGERUP, SDL_FINGERMOTION:
            let f = event.tfinger
            let p = Point(x: Double(f.x) * windowSize.width, y: Double(f.y) * windowSize.height)
            let id = PointerID.finger(f.fingerId)
            switch SDL_EventType(event.type) {
            case SDL_FINGERDOWN: return .input(.pointerDown(id, p))
            case SDL_FINGERUP: return .input(.pointerUp(id, p))
            default: return .input(.pointerMoved(id, p))
            }
        case SDL_TEXTINPUT:
            var t = event.text
            let text = withUnsafeBytes(of: &t.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return text.isEmpty ? .ignored : .input(.textInput(text))
        case SDL_KEYDOWN:
            switch SDL_KeyCode(UInt32(event.key.keysym.sym)) {
            case SDLK_BACKSPACE: return .input(.editingKey(.backspace))
            case SDLK_LEFT: return .input(.editingKey(.left))
            case SDLK_RIGHT: return .input(.editingKey(.right))
            case SDLK_HOME: return .input(.editingKey(.home))
            case SDLK_END: return .input(.editingKey(.end))
            default: return .ignored
            }
        default:
            return .ignored
        }
    }
}
