import AppModel
import CSDL
import CWayland
import KeyboardCore

/// Turns `SDL_Event`s into `AppEvent`s. Translates, never decides: every rule is in the
/// session.
///
/// - One physical input is one action whatever SDL's hints say (`InputEcho`): mouse events
///   SDL makes from touches (`which == SDL_TOUCH_MOUSEID`) and finger events it makes from
///   the mouse (`touchId == SDL_MOUSE_TOUCHID`) are dropped.
/// - Mouse positions come in window coordinates and are divided by `coordinateScale`
///   (window coordinates per point, `--scale`); finger positions come as fractions of the
///   window and become points (`FingerPlacement`).
/// - The compositor taking the touches back (`SDL_USEREVENT` from `WaylandTouchCancelWatch`)
///   is the session's `touchesCancelled`.
struct EventTranslator {
    /// The window's size in points.
    var windowSize: Size
    /// Window coordinates per point.
    var coordinateScale: Double
    /// The modifier keys held, from the last key event (live or replayed), as `SDL_Keymod`
    /// bits: a replay extends exactly the clicks the recorded run extended.
    private(set) var keyModifiers: UInt16 = 0

    init(windowSize: Size, coordinateScale: Double) {
        self.windowSize = windowSize
        self.coordinateScale = coordinateScale
        assert(InputEcho.touchMouseID == HEE_SDL_TOUCH_MOUSEID && InputEcho.mouseTouchID == HEE_SDL_MOUSE_TOUCHID,
               "InputEcho's ids are SDL's")
    }

    /// Everything `event` means, in the order the owners act on it; empty when nothing.
    mutating func meanings(of event: SDL_Event) -> [AppEvent] {
        let type = SDL_EventType(event.type)
        if type == SDL_KEYDOWN || type == SDL_KEYUP { keyModifiers = event.key.keysym.mod }
        switch type {
        case SDL_SYSWMEVENT:
            return [.platformEvent]
        case SDL_USEREVENT where event.user.code == HEE_USER_EVENT_TOUCHES_CANCELLED:
            // The compositor took the touches back (WaylandTouchCancelWatch): the session's.
            return [.input(.touchesCancelled)]
        case SDL_USEREVENT where event.user.code == InstanceSocket.showRequestedCode:
            return [.showRequested]
        case _ where type.rawValue >= SDL_USEREVENT.rawValue && type.rawValue < SDL_LASTEVENT.rawValue:
            // Wayland system mode's connection has events (see WaylandConnection).
            return [.platformEvent]
        case SDL_AUDIODEVICEREMOVED:
            return event.adevice.iscapture == 0 ? [.audioDeviceRemoved(event.adevice.which)] : []
        case SDL_WINDOWEVENT:
            let id = SDL_WindowEventID(UInt32(event.window.event))
            var meanings: [AppEvent] = [.windowStateChanged(id)]
            if let meaning = meaning(of: event) { meanings.append(meaning) }
            if id == SDL_WINDOWEVENT_SIZE_CHANGED || id == SDL_WINDOWEVENT_DISPLAY_CHANGED {
                meanings.append(.pixelScaleMayHaveChanged)
            }
            return meanings
        case SDL_MOUSEMOTION where !InputEcho.isMouseFromTouch(which: event.motion.which):
            let m = event.motion
            var meanings: [AppEvent] = [.pointerOverWindow]
            if let meaning = meaning(of: event) { meanings.append(meaning) }
            if m.state & HEE_SDL_BUTTON_LMASK != 0 {
                meanings.append(.placeCaret(.mouse, at: point(x: m.x, y: m.y), clicks: 1, extending: true))
            }
            return meanings
        case SDL_MOUSEBUTTONDOWN where !InputEcho.isMouseFromTouch(which: event.button.which) && event.button.button == HEE_SDL_BUTTON_LEFT:
            let b = event.button
            let extending = UInt32(keyModifiers) & KMOD_SHIFT.rawValue != 0
            return [meaning(of: event), .placeCaret(.mouse, at: point(x: b.x, y: b.y), clicks: Int(b.clicks), extending: extending)]
                .compactMap { $0 }
        case SDL_FINGERDOWN where !InputEcho.isFingerFromMouse(touchID: event.tfinger.touchId):
            let f = event.tfinger
            let p = fingerPoint(f)
            return [meaning(of: event), .placeCaret(.finger(f.fingerId), at: p, clicks: 1, extending: false)].compactMap { $0 }
        default:
            return meaning(of: event).map { [$0] } ?? []
        }
    }

    /// Whether `event` asks the app to quit (a signal, the window's close button).
    static func isQuitRequest(_ event: SDL_Event) -> Bool {
        switch SDL_EventType(event.type) {
        case SDL_QUIT: true
        case SDL_WINDOWEVENT: SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_CLOSE
        default: false
        }
    }

    /// The one meaning of events that have one (`nil`: nothing for us).
    private func meaning(of event: SDL_Event) -> AppEvent? {
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
                return nil
            }
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            let b = event.button
            guard !InputEcho.isMouseFromTouch(which: b.which), b.button == HEE_SDL_BUTTON_LEFT else { return nil }
            let p = point(x: b.x, y: b.y)
            return .input(SDL_EventType(event.type) == SDL_MOUSEBUTTONDOWN ? .pointerDown(.mouse, p) : .pointerUp(.mouse, p))
        case SDL_MOUSEMOTION:
            let m = event.motion
            guard !InputEcho.isMouseFromTouch(which: m.which) else { return nil }
            let p = point(x: m.x, y: m.y)
            return .input(m.state & HEE_SDL_BUTTON_LMASK != 0 ? .pointerMoved(.mouse, p) : .pointerHover(.mouse, p))
        case SDL_MOUSEWHEEL:
            // Down or right turns the emoji grid to its next page (SDL: y > 0 is away from the user).
            let w = event.wheel
            let flipped = w.direction == UInt32(SDL_MOUSEWHEEL_FLIPPED.rawValue) ? -1 : 1
            let steps = (Int(w.x) - Int(w.y)) * Int(flipped)
            return steps == 0 ? nil : .input(.scroll(steps: steps.signum()))
        case SDL_FINGERDOWN, SDL_FINGERUP, SDL_FINGERMOTION:
            let f = event.tfinger
            guard !InputEcho.isFingerFromMouse(touchID: f.touchId) else { return nil }
            let p = fingerPoint(f)
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
            return text.isEmpty ? nil : .input(.textInput(text))
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
        case SDL_USEREVENT where event.user.code == HEE_USER_EVENT_TOUCHES_CANCELLED:
            return .input(.touchesCancelled)
        default:
            return nil
        }
    }

    /// A finger's place in points (`FingerPlacement`: SDL gives fractions of the window).
    private func fingerPoint(_ f: SDL_TouchFingerEvent) -> Point {
        FingerPlacement.point(x: Double(f.x), y: Double(f.y), in: windowSize)
    }

    /// Editing keys and shortcuts: SDL's key and modifiers in the core's terms; which key
    /// does what (and that Ctrl+Alt is AltGr, not Ctrl) is `KeyShortcut`'s rule.
    private func keyDown(_ keysym: SDL_Keysym) -> AppEvent? {
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
            guard (UInt32(SDLK_a.rawValue)...UInt32(SDLK_z.rawValue)).contains(sym), let scalar = Unicode.Scalar(sym) else { return nil }
            key = .letter(Character(scalar))
        }
        switch KeyShortcut(key: key, modifiers: modifiers) {
        case .editing(let command)?: return .input(.editing(command))
        case .paste?: return .pasteRequested
        case .quit?: return .input(.quitShortcut)
        case .escape?: return .input(.escape)
        case nil: return nil
        }
    }

    private func point(x: Int32, y: Int32) -> Point {
        Point(x: Double(x) / coordinateScale, y: Double(y) / coordinateScale)
    }
}
