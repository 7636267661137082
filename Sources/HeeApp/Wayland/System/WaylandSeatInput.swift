#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CWaylandProtocols

/// The seat's pointer and touch on the keyboard's layer surface, turned into the SDL events
/// the X11 and SDL paths make (`SDL_MOUSEMOTION` / `BUTTONDOWN` / `BUTTONUP` in window
/// coordinates, `SDL_FINGERDOWN` / `UP` / `MOTION` as 0…1 fractions of the window), pushed
/// into SDL's queue with the keyboard window's id. So the session, record and replay, the
/// trace and every rule see exactly what they see on X11.
///
/// One `wl_pointer` and one `wl_touch` for the whole run: the seat's `capabilities` event
/// comes again whenever a device is added (our own virtual keyboard is one), and a second
/// `wl_pointer` would deliver every click twice (wvkbd 0.12 types each letter twice on a seat
/// that had no keyboard when it started). The position in `wl_pointer.enter` counts: a click
/// right after the pointer arrives on a key presses that key (wvkbd 0.12 ignores it).
final class WaylandSeatInput {
    /// SDL's id of the keyboard's window (its events carry it).
    private let windowID: UInt32
    /// The layer surface's `wl_surface *`.
    private let surface: OpaquePointer
    private let seat: WaylandObject
    private var pointer: WaylandObject?
    private var touch: WaylandObject?
    /// The surface's size in window coordinates (for touch fractions).
    var surfaceSize = (width: 1.0, height: 1.0)
    /// Whether the pointer is on the surface, and where (window coordinates).
    private var pointerInside = false
    private var position = (x: 0.0, y: 0.0)
    /// SDL button masks held.
    private var buttons: UInt32 = 0
    /// Touch points down on the surface: id → last position (window coordinates).
    private var touches: [Int32: (x: Double, y: Double)] = [:]
    /// Called when the pointer enters (`true`) or leaves the surface.
    var onPointerCrossing: ((Bool) -> Void)?
    /// The seat's keymap (`wl_keyboard.keymap`, XKB text) whenever one arrives, for the whole
    /// run (set before the seat's first `capabilities`: the keyboard is taken only then).
    /// wlroots sends it to every client whenever the seat's active keyboard or its keymap
    /// changes: another keyboard typed, or the compositor changed a keyboard's layout.
    var onKeymap: ((String) -> Void)?
    private var keyboard: WaylandObject?

    /// Takes `seat`'s pointer and touch (as they appear) for `surface`.
    init(seat: WaylandObject, surface: OpaquePointer, windowID: UInt32) {
        self.seat = seat
        self.surface = surface
        self.windowID = windowID
        seat.onEvent = { [unowned self] opcode, args in
            if opcode == 0 { capabilitiesChanged(args.uint(0)) }  // wl_seat.capabilities
        }
    }

    deinit {
        // wl_pointer.release, wl_touch.release and wl_keyboard.release (opcode 1, 0, 0 since v3).
        pointer?.destroy(request: pointer!.version >= 3 ? 1 : nil)
        touch?.destroy(request: touch!.version >= 3 ? 0 : nil)
        keyboard?.destroy(request: keyboard!.version >= 3 ? 0 : nil)
    }

    /// wl_seat capabilities: pointer 1, keyboard 2, touch 4.
    private func capabilitiesChanged(_ capabilities: UInt32) {
        if capabilities & 1 != 0, pointer == nil {
            pointer = seat.request(0, [.newID], creating: hee_wl_pointer())  // get_pointer
            pointer?.onEvent = { [unowned self] opcode, args in pointerEvent(opcode, args) }
        } else if capabilities & 1 == 0, let old = pointer {
            old.destroy(request: old.version >= 3 ? 1 : nil)
            pointer = nil
            pointerInside = false
        }
        if capabilities & 4 != 0, touch == nil {
            touch = seat.request(2, [.newID], creating: hee_wl_touch())  // get_touch
            touch?.onEvent = { [unowned self] opcode, args in touchEvent(opcode, args) }
        } else if capabilities & 4 == 0, let old = touch {
            old.destroy(request: old.version >= 3 ? 0 : nil)
            touch = nil
        }
        if capabilities & 2 != 0, keyboard == nil, onKeymap != nil {
            keyboard = seat.request(1, [.newID], creating: hee_wl_keyboard())  // get_keyboard
            keyboard?.onEvent = { [unowned self] opcode, args in
                guard opcode == 0 else { return }  // keymap(format, fd, size)
                let fd = args.fd(1)
                defer { close(fd) }
                if args.uint(0) == 1, let text = WaylandKeymap.read(fd: fd, size: Int(args.uint(2))) { onKeymap?(text) }
            }
        }
    }

    private func pointerEvent(_ opcode: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        switch opcode {
        case 0:  // enter(serial, surface, x, y): the position counts (a click may follow at once)
            guard args.object(1) == surface else { return }
            pointerInside = true
            onPointerCrossing?(true)
            moved(to: (args.fixed(2), args.fixed(3)))
        case 1:  // leave(serial, surface)
            guard pointerInside else { return }
            pointerInside = false
            onPointerCrossing?(false)
            // Buttons held when the pointer left come up there (SDL does the same on X11).
            for button in [1, 2, 3] where buttons & (1 << (UInt32(button) - 1)) != 0 { pushButton(UInt8(button), down: false) }
        case 2:  // motion(time, x, y)
            guard pointerInside else { return }
            moved(to: (args.fixed(1), args.fixed(2)))
        case 3:  // button(serial, time, button, state)
            guard pointerInside, let button = Self.sdlButton(linux: args.uint(2)) else { return }
            LatencyProbe.mark("button")
            pushButton(button, down: args.uint(3) == 1)
        default:
            break
        }
    }

    /// Linux input button codes (BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112) as SDL's.
    private static func sdlButton(linux code: UInt32) -> UInt8? {
        switch code {
        case 0x110: 1
        case 0x112: 2
        case 0x111: 3
        default: nil
        }
    }

    private func moved(to point: (Double, Double)) {
        let old = position
        position = point
        var event = SDL_Event()
        event.motion.type = SDL_MOUSEMOTION.rawValue
        event.motion.windowID = windowID
        event.motion.which = 0
        event.motion.state = buttons
        event.motion.x = Int32(point.0.rounded(.down))
        event.motion.y = Int32(point.1.rounded(.down))
        event.motion.xrel = event.motion.x - Int32(old.x.rounded(.down))
        event.motion.yrel = event.motion.y - Int32(old.y.rounded(.down))
        SDL_PushEvent(&event)
    }

    private func pushButton(_ button: UInt8, down: Bool) {
        let mask: UInt32 = 1 << (UInt32(button) - 1)
        if down { buttons |= mask } else { buttons &= ~mask }
        var event = SDL_Event()
        event.button.type = (down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP).rawValue
        event.button.windowID = windowID
        event.button.which = 0
        event.button.button = button
        event.button.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
        event.button.clicks = 1
        event.button.x = Int32(position.x.rounded(.down))
        event.button.y = Int32(position.y.rounded(.down))
        SDL_PushEvent(&event)
    }

    private func touchEvent(_ opcode: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        switch opcode {
        case 0:  // down(serial, time, surface, id, x, y)
            guard args.object(2) == surface else { return }
            let id = args.int(3)
            touches[id] = (args.fixed(4), args.fixed(5))
            pushFinger(SDL_FINGERDOWN, id: id)
        case 1:  // up(serial, time, id)
            let id = args.int(2)
            guard touches[id] != nil else { return }
            pushFinger(SDL_FINGERUP, id: id)
            touches[id] = nil
        case 2:  // motion(time, id, x, y)
            let id = args.int(1)
            guard touches[id] != nil else { return }
            touches[id] = (args.fixed(2), args.fixed(3))
            pushFinger(SDL_FINGERMOTION, id: id)
        case 4:  // cancel: every touch point ends where it is
            for id in touches.keys.sorted() { pushFinger(SDL_FINGERUP, id: id) }
            touches = [:]
        default:
            break
        }
    }

    /// SDL's touch device id for the seat's touch screen.
    static let touchID: SDL_TouchID = 1

    private func pushFinger(_ type: SDL_EventType, id: Int32) {
        guard let point = touches[id] else { return }
        var event = SDL_Event()
        event.tfinger.type = type.rawValue
        event.tfinger.touchId = Self.touchID
        event.tfinger.fingerId = SDL_FingerID(id)
        event.tfinger.x = Float(point.x / max(surfaceSize.width, 1))
        event.tfinger.y = Float(point.y / max(surfaceSize.height, 1))
        event.tfinger.pressure = type == SDL_FINGERUP ? 0 : 1
        event.tfinger.windowID = windowID
        SDL_PushEvent(&event)
    }
}
