import KeyboardCore

/// Follows where system mode's keys go: which window or application has the keyboard
/// focus, as far as the platform tells.
///
/// One implementation per platform: `X11FocusWatcher` (the X server's input focus, followed
/// through X events, never polled).
protocol FocusWatcher: AnyObject {
    /// Where keys go now, for the session (shown in the line above the keys).
    var keyTarget: KeyTarget { get }
    /// The focused window for the trace's `target` line (`nil`: none, or not known).
    var focusedWindow: FocusedWindow? { get }
}
