import CSDL
import KeyboardCore

/// What one SDL event means to the app: each case names the owner that acts on it
/// (`Application+Events.swift`). One event can mean several things, in order (a mouse
/// motion readies the audio device, then moves a pointer).
enum AppEvent: Equatable {
    /// Feed this to the session.
    case input(KeyboardInput)
    /// Close the app (window closed, SIGINT/SIGTERM).
    case quit
    /// The window needs repainting (exposed).
    case redraw
    /// The window was minimized (`true`: nothing is drawn until it comes back), or came back
    /// (`false`: restored, maximized or shown; repaint).
    case minimized(Bool)
    /// Ctrl+V: paste the clipboard (the app reads it and feeds `.paste`).
    case pasteRequested
    /// An event of the platform layer under SDL (`SDL_SYSWMEVENT`: X11 focus, titles,
    /// keymaps, the window destroyed from outside; an `SDL_USEREVENT`: Wayland system mode's
    /// connection has events).
    case platformEvent
    /// System mode: a second `--system` on this display asked this keyboard to show itself
    /// (`SDL_USEREVENT` with `InstanceSocket.showRequestedCode`).
    case showRequested
    /// An audio output device went away (SDL's device index).
    case audioDeviceRemoved(UInt32)
    /// A mouse (not a touch) moved over the window: the audio device gets ready for a press.
    case pointerOverWindow
    /// A window event for the window's saved state (size, maximized); live events only.
    case windowStateChanged(SDL_WindowEventID)
    /// The window's size or display changed: its pixels per point may have too.
    case pixelScaleMayHaveChanged
    /// A press or drag that places the text field's caret at `point` (points) if `pointer`
    /// holds the text field once the session has seen it: `clicks` (2 selects a word, 3 all),
    /// `extending` the selection (Shift held, or a drag).
    case placeCaret(PointerID, at: Point, clicks: Int, extending: Bool)
}
