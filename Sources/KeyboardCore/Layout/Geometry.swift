/// Plane geometry in **points**, the unit of the seeds' SwiftUI code and of SDL window
/// coordinates (mouse events). Pixels appear only in `HeeRender`, as points × pixel scale.

/// A location in points, origin at the top-left of the window, y growing downwards.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal position in points.
    public var x: Double
    /// Vertical position in points (downwards).
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and height in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// Written like `CGSize`'s description on iOS, e.g. `(480.0, 320.0)`: the form seed 001
    /// shows in its 「サイズ」 row.
    public var description: String { "(\(width), \(height))" }
}

/// An axis-aligned rectangle in points.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The all-zero rectangle: seed 001 reads a zero keyboard frame as "hidden".
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var size: Size { Size(width: width, height: height) }
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var center: Point { Point(x: midX, y: midY) }

    /// Whether `point` lies inside; the right and bottom edges are outside, so adjacent
    /// rectangles never both contain a point.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// Whether the two rectangles share any area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The rectangle moved by `dx`, `dy` points.
    public func offsetBy(dx: Double = 0, dy: Double = 0) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// Every coordinate multiplied by `factor` (points → window coordinates or pixels).
    public func scaled(by factor: Double) -> Rect {
        factor == 1 ? self : Rect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }

    public var description: String { "(\(x), \(y), \(width), \(height))" }
}
