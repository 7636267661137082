import CSDL
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
        case SDL_WINDOWEVENT:
            let w = sdl.window
            let kind: WindowEvent
            switch SDL_WindowEventID(UInt32(w.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED: kind = .resized
            case SDL_WINDOWEVENT_FOCUS_LOST: kind = .focus_lost
            case SDL_WINDOWEVENT_FOCUS_GAINED: kind = .focus_gained
            case SDL_WINDOWEVENT_CLOSE: kind = .close
            default: return nil
            }
            self.init(t: t, type: .window)
            event = kind
            if kind == .resized { self.w = Int(w.data1); self.h = Int(w.data2) }
        default:
            return nil
        }
    }

    /// Whether `name` is a key SDL knows (`SDL_GetKeyFromName`).
    static func isKnownKey(_ name: String) -> Bool {
        SDL_GetKeyFromName(name) != SDLK_UNKNOWN.rawValue
    }

    /// The SDL events this record stands for, for `windowID`, stamped with the record's
    /// time. A textinput longer than an `SDL_TEXTINPUT` holds (31 bytes) is cut short here:
    /// the replay feeds text records to the session whole instead (one commit, one input).
    func sdlEvents(windowID: UInt32) -> [SDL_Event] {
        [sdlEvent(windowID: windowID)]
    }

    private func sdlEvent(windowID: UInt32) -> SDL_Event {
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
        case .window:
            e.type = SDL_WINDOWEVENT.rawValue
            e.window.timestamp = stamp
            e.window.windowID = windowID
            switch event ?? .focus_gained {
            case .resized:
                e.window.event = UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue)
                e.window.data1 = Int32(w ?? 0)
                e.window.data2 = Int32(h ?? 0)
            case .focus_lost: e.window.event = UInt8(SDL_WINDOWEVENT_FOCUS_LOST.rawValue)
            case .focus_gained: e.window.event = UInt8(SDL_WINDOWEVENT_FOCUS_GAINED.rawValue)
            case .close: e.window.event = UInt8(SDL_WINDOWEVENT_CLOSE.rawValue)
            }
        }
        return e
    }
}
