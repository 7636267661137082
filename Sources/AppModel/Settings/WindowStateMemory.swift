import KeyboardCore
/// The window's normal (unmaximized) size and whether it is maximized, followed from window
/// events, so that quitting while maximized saves the size the window returns to, not the
/// screen's.
///
/// Window managers tell a maximize in either order: the new size first and then the state,
/// or the state first (openbox). A resize that comes at most `maximizeGrace` before the
/// window says it is maximized is taken as part of the maximize, and the size before it is
/// kept. Sizes are in points; time is an input (the events' timestamps).
public struct WindowStateMemory: Hashable, Sendable {
    /// How long before a "maximized" notice a resize is still taken as the maximize itself.
    public static let maximizeGrace: Duration = .milliseconds(250)

    /// The size the window has when not maximized (points).
    public private(set) var normalSize: Size
    /// Whether the window is maximized now.
    public private(set) var isMaximized: Bool
    /// The normal size before the last resize, and when that resize happened.
    private var sizeBeforeLastResize: Size
    private var lastResize: Duration?

    /// - Parameters:
    ///   - normalSize: the size the window opens at, or returns to when it opens maximized.
    ///   - maximized: whether it opens maximized.
    public init(normalSize: Size, maximized: Bool) {
        self.normalSize = normalSize
        isMaximized = maximized
        sizeBeforeLastResize = normalSize
    }

    /// The window's size changed to `size` (points) at `time`. While maximized, this is the
    /// maximized size and is not remembered.
    public mutating func resized(to size: Size, at time: Duration) {
        guard !isMaximized else { return }
        sizeBeforeLastResize = normalSize
        normalSize = size
        lastResize = time
    }

    /// The window became maximized at `time`. A resize just before it (within
    /// `maximizeGrace`) was the maximize, so the size before that one is the normal size.
    public mutating func maximized(at time: Duration) {
        guard !isMaximized else { return }
        if let lastResize, time - lastResize <= Self.maximizeGrace {
            normalSize = sizeBeforeLastResize
        }
        lastResize = nil
        isMaximized = true
    }

    /// The window is no longer maximized (restored); the size it returns to arrives as a
    /// resize afterwards.
    public mutating func restored() {
        isMaximized = false
        lastResize = nil
    }
}
