/// System mode: where the keys go, shown in the line above them.
public enum KeyTarget: Hashable, Sendable {
    /// No window has the keyboard focus (or only ours would get the keys): keys are not sent.
    case noFocusedWindow
    /// This window has the keyboard focus.
    case window(FocusedWindow)
    /// Keys cannot be sent from this session at all (the window system is not X11).
    case unavailable
}
