import CSDL
import AppModel
import KeyboardCore

/// Keeps the window on the display and remembers its state for the settings: the launch size
/// clamped to the display, the window manager's frame fitted on screen once the window is
/// shown, and the normal size and maximized state followed through window events.
///
/// Sizes saved are in points; SDL's window coordinates are points × `coordinateScale`.
struct WindowStateKeeper {
    /// How long after showing the window its frame is looked for, and how often.
    static let frameFitWait: Duration = .seconds(1)
    static let frameFitPoll: Duration = .milliseconds(50)

    /// Window coordinates per point (`--scale`).
    let coordinateScale: Double
    /// The window's minimum size (window coordinates): the frame is never fitted below it.
    let minimum: Size
    /// The normal size and maximized state, from window events.
    private(set) var memory: WindowStateMemory
    /// What the app itself opened (or fitted) the window at: not the user's choice, not saved.
    private var ownState: (size: Size, maximized: Bool)
    /// Until when to look for the frame to fit (after showing); `nil` when done.
    private var frameFitDeadline: Duration?

    /// The size to open the window at (window coordinates), for `configuration`'s size: the
    /// display's usable bounds and SDL's limit clamp it, with one warning on stderr.
    static func launchSize(for configuration: RunConfiguration, minimum: Size, display: SDLContext) -> Size {
        let scale = configuration.scale
        let requested = configuration.windowSize
        let usable = display.hasRealDisplay ? Window.usableBounds(ofDisplay: 0) : nil
        let launch = WindowPlacement.launchSize(
            requested: Size(width: requested.width * scale, height: requested.height * scale), minimum: minimum,
            usable: usable)
        if launch.clamped {
            var message = "\(Console.program): warning: the window size \(Int(requested.width))x\(Int(requested.height)) "
                + "does not fit the display; opening at \(Int((launch.size.width / scale).rounded()))x"
                + "\(Int((launch.size.height / scale).rounded()))"
            if let usable, launch.size.width > usable.width || launch.size.height > usable.height {
                // The minimum won over the display: say so rather than suggest the window fits.
                let scaleText = scale == scale.rounded() ? String(Int(scale)) : String(scale)
                message += ", which at scale \(scaleText) is \(Int(launch.size.width))x\(Int(launch.size.height)) and "
                    + "still larger than the display's \(Int(usable.width))x\(Int(usable.height)): the window cannot be "
                    + "smaller than \(Int((minimum.width / scale).rounded()))x\(Int((minimum.height / scale).rounded())) "
                    + "(a smaller --scale fits)"
            }
            Console.error(message)
        }
        return launch.size
    }

    /// - Parameters:
    ///   - size: the size the window opens at (window coordinates).
    ///   - minimum: the window's minimum size (window coordinates), its mode's.
    ///   - maximized: whether it opens maximized.
    init(openedAt size: Size, minimum: Size, maximized: Bool, coordinateScale: Double) {
        self.coordinateScale = coordinateScale
        self.minimum = minimum
        let points = Size(width: size.width / coordinateScale, height: size.height / coordinateScale)
        memory = WindowStateMemory(normalSize: points, maximized: maximized)
        ownState = (points, maximized)
    }

    /// The window was shown (on a real display): look for its frame for a while.
    mutating func windowShown(at now: Duration) {
        if !memory.isMaximized { frameFitDeadline = now + Self.frameFitWait }
    }

    /// When to wake next to look for the frame.
    func deadline(after now: Duration) -> Duration? {
        frameFitDeadline.map { min($0, now + Self.frameFitPoll) }
    }

    /// The window was resized (live) to `size` points.
    mutating func resized(to size: Size, at time: Duration) {
        memory.resized(to: size, at: time)
    }

    /// Follows maximize and restore. Returns whether the state may have changed.
    mutating func handle(_ id: SDL_WindowEventID, window: Window, at time: Duration) -> Bool {
        switch id {
        case SDL_WINDOWEVENT_MAXIMIZED:
            memory.maximized(at: time)
        case SDL_WINDOWEVENT_RESTORED:
            // Also sent when a minimized window comes back, maximized or not.
            if !window.isMaximized { memory.restored() }
        default:
            return false
        }
        return true
    }

    /// Once the window manager has framed the window (title bar, borders), keeps the whole
    /// frame inside the display's usable bounds: a window as large as the screen would
    /// otherwise have its title bar or bottom edge off screen. The size set here counts as
    /// the app's own, not the user's.
    mutating func fitFrameToDisplay(_ window: Window, at now: Duration) {
        guard let deadline = frameFitDeadline else { return }
        guard now < deadline, !memory.isMaximized, let frame = window.managerFrame else {
            frameFitDeadline = nil
            return
        }
        if frame == .none { return }  // not framed yet (or no window manager)
        frameFitDeadline = nil
        guard let usable = window.usableBounds,
              let fitted = WindowPlacement.fitFrame(client: window.frame, frame: frame, usable: usable, minimum: minimum)
        else { return }
        window.setFrame(fitted)
        let points = Size(width: fitted.width / coordinateScale, height: fitted.height / coordinateScale)
        memory.resized(to: points, at: now)
        ownState.size = points
    }

    /// Writes the window's normal size and maximized state into `settings` when the user
    /// changed them (they differ from what the app set itself).
    func save(into settings: inout Settings) {
        let normal = memory.normalSize
        guard normal != ownState.size || memory.isMaximized != ownState.maximized else { return }
        settings.windowWidth = Int(normal.width.rounded())
        settings.windowHeight = Int(normal.height.rounded())
        settings.maximized = memory.isMaximized
    }
}
