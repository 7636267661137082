/// System mode: the window that has the keyboard focus, where the keys go.
public struct FocusedWindow: Hashable, Sendable {
    /// The window system's id for it (on X11 the client window's XID, as
    /// `xdotool getactivewindow` prints it).
    public var id: UInt64
    /// Its title (`_NET_WM_NAME`, else `WM_NAME`); empty when it has none.
    public var title: String

    public init(id: UInt64, title: String) {
        self.id = id
        self.title = title
    }
}

/// System mode: where the keys go, shown in the line above them.
public enum KeyTarget: Hashable, Sendable {
    /// No window has the keyboard focus (or only ours would get the keys): keys are not sent.
    case noFocusedWindow
    /// This window has the keyboard focus.
    case window(FocusedWindow)
    /// Keys cannot be sent from this session at all (the window system is not X11).
    case unavailable
}
