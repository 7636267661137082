/// System mode: where the keys go, shown in the line above them.
public enum KeyTarget: Hashable, Sendable {
    /// No window has the keyboard focus (or only ours would get the keys): keys are not sent.
    case noFocusedWindow
    /// This window has the keyboard focus.
    case window(FocusedWindow)
    /// Keys cannot be sent from this session at all (the window system is not X11).
    case unavailable
    /// Wayland: keys go to whichever surface has the seat's keyboard focus (the compositor
    /// does not say which). `textInput`: whether that application has a text input active
    /// (the input method's `activate`), `nil` when the compositor does not tell (no input
    /// method for us).
    case focusedSurface(textInput: Bool?)
}
