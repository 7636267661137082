import CSDL
import AppModel
import KeyboardCore

extension InputRecord {
    /// The record of a live SDL event, or `nil` for events that are not input (drawing,
    /// audio, ...). Positions stay in SDL's own units (window coordinates, finger fractions).
    init?(recording sdl: SDL_Event) {
        let t = Int(sdl.common.timestamp)
        switch SDL_EventType(sdl.type) {
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            let b = sdl.button
            self.init(t: t, type: SDL_EventType(sdl.type) == SDL_MOUSEBUTTONDOWN ? .mousedown : .mouseup)
            x = Double(b.x); y = Double(b.y); button = Int(b.button)
            if b.clicks > 1 { clicks = Int(b.clicks) }
            if b.which == HEE_SDL_TOUCH_MOUSEID { touch = true }
        case SDL_MOUSEMOTION:
            let m = sdl.motion
            self.init(t: t, type: .mousemotion)
            x = Double(m.x); y = Double(m.y); buttons = Int(m.state)
            if m.which == HEE_SDL_TOUCH_MOUSEID { touch = true }
        case SDL_FINGERDOWN, SDL_FINGERUP, SDL_FINGERMOTION:
            let f = sdl.tfinger
            let kind: Kind = switch SDL_EventType(sdl.type) {
            case SDL_FINGERDOWN: .fingerdown
            case SDL_FINGERUP: .fingerup
            default: .fingermotion
            }
            self.init(t: t, type: kind)
            finger = f.fingerId; device = f.touchId
            x = Double(f.x); y = Double(f.y)
        case SDL_KEYDOWN, SDL_KEYUP:
            self.init(t: t, type: SDL_EventType(sdl.type) == SDL_KEYDOWN ? .keydown : .keyup)
            key = String(cString: SDL_GetKeyName(sdl.key.keysym.sym))
            if sdl.key.keysym.mod != 0 { mod = Int(sdl.key.keysym.mod) }
        case SDL_TEXTINPUT:
            var e = sdl.text
            let typed = withUnsafeBytes(of: &e.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !typed.isEmpty else { return nil }
            self.init(t: t, type: .textinput)
            text = typed
        case SDL_TEXTEDITING:
            var e = sdl.edit
            self.init(t: t, type: .textediting)
            text = withUnsafeBytes(of: &e.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            start = Int(max(e.start, 0)); length = Int(max(e.length, 0))
        case SDL_TEXTEDITING_EXT:
            // Recorded like SDL_TEXTEDITING: the replay picks the form the text fits.
            let e = sdl.editExt
            self.init(t: t, type: .textediting)
            text = e.text.map { String(cString: $0) } ?? ""
            start = Int(max(e.start, 0)); length = Int(max(e.length, 0))
        case SDL_WINDOWEVENT:
            let w = sdl.window
            guard let kind = WindowEvent(sdl: SDL_WindowEventID(UInt32(w.event))) else { return nil }
            self.init(t: t, type: .window)
            event = kind
            switch kind {
            case .resized, .size_changed: self.w = Int(w.data1); self.h = Int(w.data2)
            case .moved: x = Double(w.data1); y = Double(w.data2)
            case .display_changed: display = Int(w.data1)
            default: break
            }
        default:
            return nil
        }
    }

    /// Whether `name` is a key SDL knows (`SDL_GetKeyFromName`).
    static func isKnownKey(_ name: String) -> Bool {
        SDL_GetKeyFromName(name) != SDLK_UNKNOWN.rawValue
    }

    /// The SDL event this record stands for, for `windowID`, stamped with the record's time.
    /// A textinput longer than an `SDL_TEXTINPUT` holds (31 bytes) is cut short here: the
    /// replay feeds text records to the session whole instead (one commit, one input).
    ///
    /// A textediting record becomes an `SDL_TEXTEDITING` event, or an `SDL_TEXTEDITING_EXT`
    /// when its text does not fit one; the EXT event's text is allocated with SDL's
    /// allocator, and whoever handles the event frees it with `SDL_free` (as SDL's own).
    func sdlEvent(windowID: UInt32) -> SDL_Event {
        var e = SDL_Event()
        let stamp = UInt32(truncatingIfNeeded: t)
        switch type {
        case .mousedown, .mouseup:
            e.type = (type == .mousedown ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP).rawValue
            e.button.timestamp = stamp
            e.button.windowID = windowID
            e.button.which = touch == true ? HEE_SDL_TOUCH_MOUSEID : 0
            e.button.button = UInt8(button ?? 1)
            e.button.state = UInt8(type == .mousedown ? SDL_PRESSED : SDL_RELEASED)
            e.button.clicks = UInt8(clicks ?? 1)
            e.button.x = Int32((x ?? 0).rounded())
            e.button.y = Int32((y ?? 0).rounded())
        case .mousemotion:
            e.type = SDL_MOUSEMOTION.rawValue
            e.motion.timestamp = stamp
            e.motion.windowID = windowID
            e.motion.which = touch == true ? HEE_SDL_TOUCH_MOUSEID : 0
            e.motion.state = UInt32(buttons ?? 0)
            e.motion.x = Int32((x ?? 0).rounded())
            e.motion.y = Int32((y ?? 0).rounded())
        case .fingerdown, .fingerup, .fingermotion:
            e.type = (type == .fingerdown ? SDL_FINGERDOWN : type == .fingerup ? SDL_FINGERUP : SDL_FINGERMOTION).rawValue
            e.tfinger.timestamp = stamp
            e.tfinger.touchId = device ?? 0
            e.tfinger.fingerId = finger ?? 0
            e.tfinger.x = Float(x ?? 0)
            e.tfinger.y = Float(y ?? 0)
            e.tfinger.pressure = 1
            e.tfinger.windowID = windowID
        case .keydown, .keyup:
            e.type = (type == .keydown ? SDL_KEYDOWN : SDL_KEYUP).rawValue
            e.key.timestamp = stamp
            e.key.windowID = windowID
            e.key.state = UInt8(type == .keydown ? SDL_PRESSED : SDL_RELEASED)
            let sym = SDL_GetKeyFromName(key ?? "")
            e.key.keysym.sym = sym
            e.key.keysym.scancode = SDL_GetScancodeFromKey(sym)
            e.key.keysym.mod = UInt16(truncatingIfNeeded: mod ?? 0)
        case .textinput:
            e.type = SDL_TEXTINPUT.rawValue
            e.text.timestamp = stamp
            e.text.windowID = windowID
            withUnsafeMutableBytes(of: &e.text.text) { buffer in
                let bytes = Array((text ?? "").utf8.prefix(buffer.count - 1))
                buffer.copyBytes(from: bytes)
            }
        case .textediting:
            let composed = text ?? ""
            let cursor = Int32(clamping: start ?? 0), selected = Int32(clamping: length ?? 0)
            if composed.utf8.count < Int(SDL_TEXTEDITINGEVENT_TEXT_SIZE) {
                e.type = SDL_TEXTEDITING.rawValue
                e.edit.timestamp = stamp
                e.edit.windowID = windowID
                e.edit.start = cursor
                e.edit.length = selected
                withUnsafeMutableBytes(of: &e.edit.text) { buffer in
                    buffer.copyBytes(from: Array(composed.utf8))
                }
            } else {
                e.type = SDL_TEXTEDITING_EXT.rawValue
                e.editExt.timestamp = stamp
                e.editExt.windowID = windowID
                e.editExt.text = SDL_strdup(composed)
                e.editExt.start = cursor
                e.editExt.length = selected
            }
        case .window:
            let kind = event ?? .exposed
            e.type = SDL_WINDOWEVENT.rawValue
            e.window.timestamp = stamp
            e.window.windowID = windowID
            e.window.event = UInt8(kind.sdl.rawValue)
            switch kind {
            case .resized, .size_changed:
                e.window.data1 = Int32(w ?? 0)
                e.window.data2 = Int32(h ?? 0)
            case .moved:
                e.window.data1 = Int32((x ?? 0).rounded())
                e.window.data2 = Int32((y ?? 0).rounded())
            case .display_changed:
                e.window.data1 = Int32(display ?? 0)
            default:
                break
            }
        }
        return e
    }
}

extension InputRecord.WindowEvent {
    /// The recorded event for an SDL window event, or `nil` for one that is not recorded
    /// (take focus, hit test, ICC profile: the app does not react to them).
    init?(sdl: SDL_WindowEventID) {
        switch sdl {
        case SDL_WINDOWEVENT_RESIZED: self = .resized
        case SDL_WINDOWEVENT_SIZE_CHANGED: self = .size_changed
        case SDL_WINDOWEVENT_FOCUS_LOST: self = .focus_lost
        case SDL_WINDOWEVENT_FOCUS_GAINED: self = .focus_gained
        case SDL_WINDOWEVENT_CLOSE: self = .close
        case SDL_WINDOWEVENT_ENTER: self = .enter
        case SDL_WINDOWEVENT_LEAVE: self = .leave
        case SDL_WINDOWEVENT_MINIMIZED: self = .minimized
        case SDL_WINDOWEVENT_MAXIMIZED: self = .maximized
        case SDL_WINDOWEVENT_RESTORED: self = .restored
        case SDL_WINDOWEVENT_SHOWN: self = .shown
        case SDL_WINDOWEVENT_HIDDEN: self = .hidden
        case SDL_WINDOWEVENT_EXPOSED: self = .exposed
        case SDL_WINDOWEVENT_MOVED: self = .moved
        case SDL_WINDOWEVENT_DISPLAY_CHANGED: self = .display_changed
        default: return nil
        }
    }

    /// SDL's id for the event.
    var sdl: SDL_WindowEventID {
        switch self {
        case .resized: SDL_WINDOWEVENT_RESIZED
        case .size_changed: SDL_WINDOWEVENT_SIZE_CHANGED
        case .focus_lost: SDL_WINDOWEVENT_FOCUS_LOST
        case .focus_gained: SDL_WINDOWEVENT_FOCUS_GAINED
        case .close: SDL_WINDOWEVENT_CLOSE
        case .enter: SDL_WINDOWEVENT_ENTER
        case .leave: SDL_WINDOWEVENT_LEAVE
        case .minimized: SDL_WINDOWEVENT_MINIMIZED
        case .maximized: SDL_WINDOWEVENT_MAXIMIZED
        case .restored: SDL_WINDOWEVENT_RESTORED
        case .shown: SDL_WINDOWEVENT_SHOWN
        case .hidden: SDL_WINDOWEVENT_HIDDEN
        case .exposed: SDL_WINDOWEVENT_EXPOSED
        case .moved: SDL_WINDOWEVENT_MOVED
        case .display_changed: SDL_WINDOWEVENT_DISPLAY_CHANGED
        }
    }
}
