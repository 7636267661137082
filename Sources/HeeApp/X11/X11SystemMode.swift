import CSDL
import CX11
import KeyboardCore

/// System mode's X11 side, owned by `Application`: the window's hints (it never takes the
/// focus), watching which window has the focus, and typing keystrokes into it. A thin layer:
/// every key rule stays in `KeyboardSession`; this only performs `.send` effects and reports
/// `.keyTargetChanged` inputs. Released when the event loop ends, with SDL's X connection
/// still open, it gives borrowed keycodes back then (`X11SpareKeycodes`).
final class X11SystemMode: SystemModePlatform {
    private let connection: X11Connection
    private let xwindow: XID
    private let focus: X11FocusWatcher
    private let sender: X11KeystrokeSender
    /// The focused field's context through AT-SPI, from the first frame on.
    private var contextSource: AtspiContextSource?

    /// Sets `window` (created hidden) up as a keyboard that never takes the focus.
    /// - Throws: `KeySendFailure` when the X server lacks XTEST or XKB.
    /// - Returns: `nil` when SDL's video driver is not x11 (nothing X11 is touched then).
    init?(window: OpaquePointer) throws(KeySendFailure) {
        guard let handles = X11WindowHandles(of: window), let connection = X11Connection(handles) else { return nil }
        let xwindow = handles.window
        self.connection = connection
        self.xwindow = xwindow
        X11KeyboardWindowHints.apply(to: xwindow, on: connection)
        sender = try X11KeystrokeSender(connection: connection)
        focus = X11FocusWatcher(connection: connection, ownWindow: xwindow)
        // Every X event SDL reads reaches us as SDL_SYSWMEVENT (focus, titles, keymaps).
        SDL_EventState(UInt32(SDL_SYSWMEVENT.rawValue), SDL_ENABLE)
    }

    var keySender: any KeySender { sender }
    var focusWatcher: any FocusWatcher { focus }

    /// Maps the window on top without giving it the focus (instead of `SDL_ShowWindow`).
    func showWindow() { X11KeyboardWindowHints.map(xwindow, on: connection) }

    /// The keyboard is on the screen: the AT-SPI watch starts now (libatspi is loaded off the
    /// way to the first frame). It also makes the bus tell applications to expose their fields
    /// (`IsEnabled`): what auto-show needs, the default where the platform can tell.
    func windowShown() {
        guard contextSource == nil else { return }
        LatencyProbe.mark("atspi-start")
        contextSource = AtspiContextSource(enableAccessibility: true)
        LatencyProbe.mark("atspi-started")
    }

    var textContextSource: (any TextContextSource)? { contextSource }

    /// Auto-show (issue 30): shown, the window is mapped on top as at the start (never
    /// focused: its WM_HINTS say input False); hidden, it is withdrawn (ICCCM: unmapped, and
    /// the window manager told with a synthetic UnmapNotify), so it holds no place on the
    /// screen and the focus never passes through it.
    func setKeyboardShown(_ shown: Bool) {
        if shown {
            X11KeyboardWindowHints.map(xwindow, on: connection)
        } else {
            XWithdrawWindow(connection.display, xwindow, XDefaultScreen(connection.display))
            connection.flush()
        }
    }

    /// Looks at an SDL event that happened at `now`; returns whether the target changed
    /// (title included).
    func handle(_ event: UnsafePointer<SDL_Event>, at now: Duration) -> Bool {
        guard SDL_EventType(event.pointee.type) == SDL_SYSWMEVENT, let message = event.pointee.syswm.msg,
              message.pointee.subsystem == SDL_SYSWM_X11 else { return false }
        var copy = message.pointee.msg.x11.event
        return withUnsafePointer(to: &copy) { handle(x11: $0, at: now) }
    }

    /// Looks at one X event (every one SDL read).
    private func handle(x11 xevent: UnsafePointer<XEvent>, at now: Duration) -> Bool {
        sender.handle(xevent)
        switch xevent.pointee.type {
        case EnterNotify where xevent.pointee.xcrossing.window == xwindow:
            sender.pointerEntered(at: now)
        case LeaveNotify where xevent.pointee.xcrossing.window == xwindow && xevent.pointee.xcrossing.detail != NotifyInferior:
            sender.pointerLeft(at: now)
        default:
            break
        }
        let moved = focus.handle(xevent)
        if moved { contextSource?.focusMoved() }
        return moved
    }
}
