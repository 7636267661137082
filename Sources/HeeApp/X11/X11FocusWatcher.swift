import CX11
import KeyboardCore

/// Keeps track of the X window that has the keyboard focus — where system mode's keys go —
/// and of its title, from X events rather than by polling (an idle keyboard stays asleep).
///
/// The focus is the X server's input focus (`GetInputFocus`), the window XTEST key events
/// are delivered to. It is reported as the client window (the one carrying `WM_STATE`,
/// what `xdotool getactivewindow` prints) that holds it. There is no target when the focus
/// is `None` or `PointerRoot` (keys would go to whatever is under the pointer — our own
/// window while a key is clicked), when it is our own window, or when, under a window
/// manager, it is on none of the managed clients (e.g. the manager's own window).
///
/// Events watched: FocusIn/FocusOut and `_NET_ACTIVE_WINDOW` changes on the root window;
/// FocusOut, title changes (`_NET_WM_NAME`, `WM_NAME`), unmapping and destruction of the
/// current target.
final class X11FocusWatcher: FocusWatcher {
    private let connection: X11Connection
    private let ownWindow: xcb_window_t
    /// The window keys go to now, if any.
    private(set) var focusedWindow: FocusedWindow?
    /// The window whose events we selected (the last target's client window).
    private var watched: xcb_window_t = 0

    /// Event masks (X core values).
    private static let rootMask = XCB_EVENT_MASK_FOCUS_CHANGE.rawValue | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
    private static let targetMask = XCB_EVENT_MASK_FOCUS_CHANGE.rawValue | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue

    /// Where keys go now: the focused window, or none.
    var keyTarget: KeyTarget { focusedWindow.map { .window($0) } ?? .noFocusedWindow }

    /// Starts watching; `ownWindow` is our keyboard window (never a target).
    init(connection: X11Connection, ownWindow: XID) {
        self.connection = connection
        self.ownWindow = xcb_window_t(truncatingIfNeeded: ownWindow)
        connection.prefetch(["WM_STATE", "_NET_WM_NAME", "UTF8_STRING", "_NET_ACTIVE_WINDOW", "_NET_SUPPORTING_WM_CHECK"])
        connection.selectEvents(Self.rootMask, on: connection.root)
        focusedWindow = findTarget()
    }

    /// Looks at an X event (every one SDL read, as SDL_SYSWMEVENT). Returns whether the
    /// target or its title changed.
    func handle(_ event: UnsafePointer<XEvent>) -> Bool {
        let e = event.pointee
        switch e.type {
        case FocusIn, FocusOut:
            return refresh()
        case PropertyNotify:
            let window = xcb_window_t(truncatingIfNeeded: e.xproperty.window)
            let atom = xcb_atom_t(truncatingIfNeeded: e.xproperty.atom)
            if window == connection.root && atom == connection.atom("_NET_ACTIVE_WINDOW") { return refresh() }
            if window == watched && watched != 0
                && (atom == connection.atom("_NET_WM_NAME") || atom == xcb_atom_t(XCB_ATOM_WM_NAME.rawValue)) {
                return refresh()
            }
            return false
        case DestroyNotify where xcb_window_t(truncatingIfNeeded: e.xdestroywindow.window) == watched,
             UnmapNotify where xcb_window_t(truncatingIfNeeded: e.xunmap.window) == watched:
            return refresh()
        default:
            return false
        }
    }

    /// Finds the target again. Returns whether it changed.
    @discardableResult
    func refresh() -> Bool {
        let next = findTarget()
        guard next != focusedWindow else { return false }
        focusedWindow = next
        return true
    }

    /// The focused client window and its title, watching its events from now on.
    private func findTarget() -> FocusedWindow? {
        let client = focusedClient()
        if client != watched {
            if watched != 0 { connection.selectEvents(0, on: watched, replacing: true) }
            watched = 0
            if let client, connection.selectEvents(Self.targetMask, on: client, replacing: true) { watched = client }
        }
        guard let client else { return nil }
        return FocusedWindow(id: UInt64(client), title: title(of: client))
    }

    /// The client window holding the input focus, if keys can go there.
    private func focusedClient() -> xcb_window_t? {
        guard let reply = xcb_get_input_focus_reply(connection.xcb, xcb_get_input_focus(connection.xcb), nil) else { return nil }
        let focus = reply.pointee.focus
        free(reply)
        // None (0) and PointerRoot (1).
        guard focus > 1, focus != connection.root else { return nil }
        var window = focus
        var topLevel = focus
        while true {
            if window == ownWindow { return nil }
            if connection.property("WM_STATE", of: window, maxBytes: 8) != nil { return window }
            guard let parent = connection.parent(of: window), parent != connection.root else { break }
            topLevel = parent
            window = parent
        }
        // No client window holds the focus: under a window manager it is one of its own
        // windows (keys would go nowhere useful); without one, the top-level window is it.
        return windowManagerRuns ? nil : topLevel
    }

    /// Whether an EWMH window manager runs (`_NET_SUPPORTING_WM_CHECK` on the root).
    private var windowManagerRuns: Bool {
        connection.property("_NET_SUPPORTING_WM_CHECK", of: connection.root, maxBytes: 4) != nil
    }

    /// `_NET_WM_NAME` (UTF-8), else `WM_NAME` (Latin-1 text), made one line.
    private func title(of window: xcb_window_t) -> String {
        var text = ""
        if let name = connection.property("_NET_WM_NAME", of: window), name.type == connection.atom("UTF8_STRING") {
            text = String(decoding: name.bytes, as: UTF8.self)
        } else if let name = connection.property("WM_NAME", of: window) {
            text = name.type == connection.atom("UTF8_STRING")
                ? String(decoding: name.bytes, as: UTF8.self)
                : String(String.UnicodeScalarView(name.bytes.map { Unicode.Scalar($0) }))
        }
        return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }.filter { $0.asciiValue.map { $0 >= 0x20 } ?? true })
    }
}
