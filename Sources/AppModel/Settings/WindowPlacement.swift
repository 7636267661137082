import KeyboardCore
/// Where the window may go on the display: a saved size that no longer fits is clamped, and a
/// window manager's frame is kept on screen.
///
/// All values are in **window coordinates** (SDL's units for window sizes and positions:
/// pixels on X11), not points: the app converts with `--scale` first. Pure geometry, so the
/// rules are tested without a display.
public enum WindowPlacement {
    /// The largest window side SDL 2 creates (`SDL_CreateWindow` refuses more: "Window is
    /// too large").
    public static let maximumSide = 16384.0

    /// The size to open a window at, given the size asked for (saved settings or `--size`,
    /// times the scale).
    ///
    /// - Parameters:
    ///   - requested: the size asked for, in window coordinates.
    ///   - minimum: the window's minimum size; it wins over the display (a display smaller
    ///     than the minimum gets a window that does not fit, as SDL would make it anyway).
    ///   - usable: the display's usable bounds (without panels and docks), or `nil` when
    ///     there is no real display (SDL's offscreen driver): then only SDL's own limit applies.
    /// - Returns: the size, whole units, each side `min(requested, usable, 16384)` but at
    ///   least `minimum`; `clamped` tells whether it differs from `requested`.
    public static func launchSize(requested: Size, minimum: Size, usable: Rect?) -> (size: Size, clamped: Bool) {
        func side(_ value: Double, _ minimum: Double, _ usable: Double?) -> Double {
            var limit = maximumSide
            if let usable, usable > 0 { limit = min(limit, usable.rounded(.down)) }
            return max(min(value.rounded(), limit), min(minimum.rounded(.up), maximumSide))
        }
        let size = Size(width: side(requested.width, minimum.width, usable?.width),
                        height: side(requested.height, minimum.height, usable?.height))
        return (size, size != Size(width: requested.width.rounded(), height: requested.height.rounded()))
    }

    /// The thickness of a window manager's frame around the window's client area (title bar
    /// on top, borders), in window coordinates: X11's `_NET_FRAME_EXTENTS`, as
    /// `SDL_GetWindowBordersSize` reports it.
    public struct Frame: Hashable, Sendable {
        /// The title bar's height and the other three borders' widths (window coordinates).
        public var top: Double
        public var left: Double
        public var bottom: Double
        public var right: Double

        /// A frame `top` high above the client area, with borders `left`, `bottom` and `right`
        /// (window coordinates).
        public init(top: Double, left: Double, bottom: Double, right: Double) {
            self.top = top
            self.left = left
            self.bottom = bottom
            self.right = right
        }

        /// No frame (no window manager, or one that has not said yet).
        public static let none = Frame(top: 0, left: 0, bottom: 0, right: 0)
    }

    /// Where to put a mapped window so that its frame, title bar included, lies inside the
    /// usable bounds, or `nil` when it already does.
    ///
    /// - Parameters:
    ///   - client: the client area's position and size (window coordinates).
    ///   - frame: the window manager's frame around it.
    ///   - usable: the display's usable bounds.
    ///   - minimum: the window's minimum client size (never shrunk below it).
    /// - Returns: the client rectangle to set: shrunk by what sticks out (not below
    ///   `minimum`), then moved inside; a frame wider or taller than the bounds keeps its
    ///   title bar and left edge on screen.
    public static func fitFrame(client: Rect, frame: Frame, usable: Rect, minimum: Size) -> Rect? {
        let framed = Rect(x: client.x - frame.left, y: client.y - frame.top,
                          width: client.width + frame.left + frame.right,
                          height: client.height + frame.top + frame.bottom)
        if framed.minX >= usable.minX && framed.minY >= usable.minY && framed.maxX <= usable.maxX
            && framed.maxY <= usable.maxY {
            return nil
        }
        let width = max(min(client.width, usable.width - frame.left - frame.right), minimum.width).rounded(.down)
        let height = max(min(client.height, usable.height - frame.top - frame.bottom), minimum.height).rounded(.down)
        let framedWidth = width + frame.left + frame.right
        let framedHeight = height + frame.top + frame.bottom
        // Keep the current place where the frame fits; otherwise move it in, the top-left
        // corner (title bar, close button of most themes on the right) last to go.
        var x = min(framed.minX, usable.maxX - framedWidth)
        var y = min(framed.minY, usable.maxY - framedHeight)
        x = max(x, usable.minX)
        y = max(y, usable.minY)
        return Rect(x: (x + frame.left).rounded(), y: (y + frame.top).rounded(), width: width, height: height)
    }
}
