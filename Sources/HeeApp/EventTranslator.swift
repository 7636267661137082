import CSDL
import KeyboardCore

/// What one SDL event means to the app.
enum AppEvent {
    /// Feed this to the session.
    case input(KeyboardInput)
    /// Close the app (window closed, SIGINT/SIGTERM).
    case quit
    /// The window needs repainting (exposed).
    case redraw
    /// The window was minimized (`true`: nothing is drawn until it comes back), or came back
    /// (`false`: restored, maximized or shown; repaint).
    case minimized(Bool)
    /// Ctrl+V: paste the clipboard (the app reads it and feeds `.paste`).
    case pasteRequested
    /// Nothing for us.
    case ignored
}

/// Turns `SDL_Event`s into `AppEvent`s. Translates, never decides: every rule is in the
/// session.
///
/// - Touches arrive both as finger events and as mouse events with `which ==
///   SDL_TOUCH_MOUSEID`; only the finger events are used, so one touch is one action.
/// - Mouse positions come in window coordinates and are divided by `coordinateScale`
///   (window coordinates per point, `--scale`); finger positions come as 0…1 fractions of
///   the window and are multiplied by its size in points.
struct EventTranslator {
    /// The window's size in points.
    var windowSize: Size
    /// Window coordinates per point.
    var coordinateScale: Double

    func meaning(of event: SDL_Event) -> AppEvent {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_RESIZED:
                // SDL sends RESIZED (a resize from outside) before SIZE_CHANGED (any size
                // change) with the same size: the second changes nothing.
                return .input(.windowResized(Size(width: Double(event.window.data1) / coordinateScale,
                                                  height: Double(event.window.data2) / coordinateScale)))
            case SDL_WINDOWEVENT_EXPOSED:
                return .redraw
            case SDL_WINDOWEVENT_MINIMIZED:
                return .minimized(true)
            case SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_MAXIMIZED:
                return .minimized(false)
            case SDL_WINDOWEVENT_FOCUS_LOST:
                return .input(.pointersCancelled)
            case SDL_WINDOWEVENT_CLOSE:
                return .quit
            default:
                return .ignored
            }
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            let b = event.button
            guard b.which != HEE_SDL_TOUCH_MOUSEID, b.button == HEE_SDL_BUTTON_LEFT else { return .ignored }
            let p = point(x: b.x, y: b.y)
            return .input(SDL_EventType(event.type) == SDL_MOUSEBUTTONDOWN ? .pointerDown(.mouse, p) : .pointerUp(.mouse, p))
        case SDL_MOUSEMOTION:
            let m = event.motion
            guard m.which != HEE_SDL_TOUCH_MOUSEID else { return .ignored }
            let p = point(x: m.x, y: m.y)
            return .input(m.state & HEE_SDL_BUTTON_LMASK != 0 ? .pointerMoved(.mouse, p) : .pointerHover(.mouse, p))
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
        case SDL_TEXTEDITING:
            var e = event.edit
            let text = withUnsafeBytes(of: &e.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .input(.composition(text, cursor: Int(e.start)))
        case SDL_TEXTEDITING_EXT:
            // Long compositions (with SDL_HINT_IME_SUPPORT_EXTENDED_TEXT); the app frees `text`.
            let e = event.editExt
            let text = e.text.map { String(cString: $0) } ?? ""
            return .input(.composition(text, cursor: Int(e.start)))
        case SDL_KEYDOWN:
            return keyDown(event.key.keysym)
        default:
            return .ignored
        }
    }

    /// Editing keys and shortcuts: SDL's key and modifiers in the core's terms; which key
    /// does what (and that Ctrl+Alt is AltGr, not Ctrl) is `KeyShortcut`'s rule.
    private func keyDown(_ keysym: SDL_Keysym) -> AppEvent {
        let mod = UInt32(keysym.mod)
        var modifiers: KeyModifiers = []
        if mod & UInt32(KMOD_SHIFT.rawValue) != 0 { modifiers.insert(.shift) }
        if mod & UInt32(KMOD_CTRL.rawValue) != 0 { modifiers.insert(.control) }
        if mod & UInt32(KMOD_ALT.rawValue) != 0 { modifiers.insert(.alt) }
        if mod & UInt32(KMOD_MODE.rawValue) != 0 { modifiers.insert(.altGr) }
        let key: PhysicalKey
        switch SDL_KeyCode(UInt32(keysym.sym)) {
        case SDLK_BACKSPACE: key = .backspace
        case SDLK_DELETE: key = .delete
        case SDLK_LEFT: key = .left
        case SDLK_RIGHT: key = .right
        case SDLK_HOME: key = .home
        case SDLK_UP: key = .up
        case SDLK_END: key = .end
        case SDLK_DOWN: key = .down
        case SDLK_ESCAPE: key = .escape
        default:
            let sym = UInt32(keysym.sym)
            guard (UInt32(SDLK_a.rawValue)...UInt32(SDLK_z.rawValue)).contains(sym), let scalar = Unicode.Scalar(sym) else { return .ignored }
            key = .letter(Character(scalar))
        }
        switch KeyShortcut(key: key, modifiers: modifiers) {
        case .editing(let command)?: return .input(.editing(command))
        case .paste?: return .pasteRequested
        case .quit?: return .input(.quitShortcut)
        case .escape?: return .input(.escape)
        case nil: return .ignored
        }
    }

    private func point(x: Int32, y: Int32) -> Point {
        Point(x: Double(x) / coordinateScale, y: Double(y) / coordinateScale)
    }
}
