import CSDL
import KeyboardCore

/// System mode (`--system`) on one platform: the keyboard's window made a keyboard that
/// never takes the focus, a `FocusWatcher` saying where keys go and a `KeySender` typing them
/// there. The loop knows system mode only through this protocol; every key rule stays in
/// `KeyboardSession`.
///
/// Implementations: `X11SystemMode` (X11, and XWayland on a Wayland desktop) and
/// `WaylandSystemMode` (a compositor with the wlroots layer shell and virtual-keyboard-v1).
protocol SystemModePlatform: AnyObject {
    /// Types the session's keystrokes.
    var keySender: any KeySender { get }
    /// Says where they go.
    var focusWatcher: any FocusWatcher { get }
    /// Shows the keyboard's window on top without giving it the focus (instead of
    /// `SDL_ShowWindow`).
    func showWindow()
    /// The window's first frame has been handed to the display server (work that can wait
    /// until the keyboard is on the screen).
    func windowShown()
    /// Looks at an SDL event meant for the platform layer (`SDL_SYSWMEVENT`, or the
    /// `SDL_USEREVENT` Wayland system mode's connection posts when it has events), which happened
    /// at `now`. Returns whether the key target changed (its title included).
    func handle(_ event: UnsafePointer<SDL_Event>, at now: Duration) -> Bool
    /// How the loop waits for events while this platform runs, when not SDL's own way.
    var eventWaiter: (any EventWaiter)? { get }
    /// Until when the loop holds frames back (keystrokes just sent have not reached the
    /// display server yet), if it does.
    var frameHoldDeadline: Duration? { get }
    /// Where the focused text field's context comes from, once it runs (issue 30).
    var textContextSource: (any TextContextSource)? { get }
    /// Puts the keyboard on the screen or takes it off (auto-show, issue 30), without ever
    /// taking the focus.
    func setKeyboardShown(_ shown: Bool)
}

extension SystemModePlatform {
    var eventWaiter: (any EventWaiter)? { nil }
    var frameHoldDeadline: Duration? { nil }
    var textContextSource: (any TextContextSource)? { nil }
    func windowShown() {}
    func setKeyboardShown(_ shown: Bool) {}
}
