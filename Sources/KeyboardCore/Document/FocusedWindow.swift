/// System mode: the window that has the keyboard focus, where the keys go.
public struct FocusedWindow: Hashable, Sendable {
    /// The window system's id for it (on X11 the client window's XID, as
    /// `xdotool getactivewindow` prints it).
    public var id: UInt64
    /// Its title (`_NET_WM_NAME`, else `WM_NAME`); empty when it has none.
    public var title: String

    /// The window `id` (the window system's), titled `title` (empty: none).
    public init(id: UInt64, title: String) {
        self.id = id
        self.title = title
    }
}
