import KeyboardCore

/// Where a finger is, in points, from the fractions of the window SDL reports (0…1 inside it).
///
/// A finger that slides out of the window keeps being reported: on Wayland outside 0…1, as it
/// is; on X11 at the window's edge, because X clamps a touch's coordinates to the window
/// (measured through Xwayland: a finger dragged onto weston's title bar or past the right
/// edge arrives at 0 or 1 exactly). The keys nearest the edges reach the edges (q's touch
/// area starts at x = 0), so a finger that left the window would stay on them and type them
/// when lifted. A fraction at or beyond an edge is therefore taken as outside the window:
/// `outside` points beyond that edge. The price, on X11, is the window's outermost pixel
/// (SDL divides by the size less one, so only that pixel gives 0 or 1): a touch exactly
/// there is off the keys.
public enum FingerPlacement {
    /// How far beyond an edge a finger at that edge is placed (points).
    public static let outside = 1.0

    /// The point of a finger at fractions `x`, `y` of a window of `size` points.
    public static func point(x: Double, y: Double, in size: Size) -> Point {
        Point(x: coordinate(x, length: size.width), y: coordinate(y, length: size.height))
    }

    private static func coordinate(_ fraction: Double, length: Double) -> Double {
        if fraction <= 0 { return min(fraction * length, -outside) }
        if fraction >= 1 { return max(fraction * length, length + outside) }
        return fraction * length
    }
}
