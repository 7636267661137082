import CSDL
import CX11

/// Declares system mode's window to the X window manager as an on-screen keyboard that
/// never takes the keyboard focus, and maps it without SDL's focus grab.
///
/// What the window says about itself (set before it is mapped):
/// - `WM_HINTS` input = False (ICCCM: the window never asks for focus), as xvkbd and
///   matchbox-keyboard set it;
/// - `WM_PROTOCOLS` without `WM_TAKE_FOCUS` (SDL 2.26 lists it; a window manager that sends
///   it offers the focus, and an app that takes it steals the target's): only
///   `WM_DELETE_WINDOW` and `_NET_WM_PING`;
/// - `_NET_WM_WINDOW_TYPE_TOOLBAR`, the type xvkbd declares (matchbox's window manager
///   treats it as an input window);
/// - `_NET_WM_STATE_ABOVE` (stays on top, like xvkbd), `_NET_WM_STATE_SKIP_TASKBAR` and
///   `_SKIP_PAGER` (like matchbox-keyboard) come from SDL's window flags.
///
/// SDL 2.26's `X11_ShowWindow` calls `XSetInputFocus` on the window when no EWMH window
/// manager runs, so the window is mapped here with `XMapRaised` instead; SDL learns of it
/// from the MapNotify as usual. (On WM_TAKE_FOCUS SDL only posts
/// SDL_WINDOWEVENT_TAKE_FOCUS, and a click does not move the focus.)
enum X11KeyboardWindowHints {
    /// Sets the hints and protocols on `window` (an unmapped X window).
    static func apply(to window: XID, on connection: X11Connection) {
        let display = connection.display
        connection.prefetch(["WM_DELETE_WINDOW", "_NET_WM_PING", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_TOOLBAR"])
        let hints = XGetWMHints(display, window) ?? XAllocWMHints()
        if let hints {
            hints.pointee.input = 0  // False
            hints.pointee.flags |= InputHint
            XSetWMHints(display, window, hints)
            XFree(hints)
        }
        var protocols: [Atom] = [Atom(connection.atom("WM_DELETE_WINDOW")), Atom(connection.atom("_NET_WM_PING"))]
        XSetWMProtocols(display, window, &protocols, Int32(protocols.count))
        var type = Atom(connection.atom("_NET_WM_WINDOW_TYPE_TOOLBAR"))
        withUnsafeBytes(of: &type) { bytes in
            _ = XChangeProperty(display, window, Atom(connection.atom("_NET_WM_WINDOW_TYPE")), HEE_XA_ATOM, 32,
                                PropModeReplace, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        connection.flush()
    }

    /// Maps `window` on top without giving it the focus.
    static func map(_ window: XID, on connection: X11Connection) {
        XMapRaised(connection.display, window)
        connection.flush()
    }
}
