/// One touch on a flick key, from touch-down to lift: which `FlickDirection` it points to.
///
/// The direction is measured from the touch-down point, in points:
/// - closer than `threshold` (straight-line distance): `.center`;
/// - otherwise the dominant axis decides: |dx| > |dy| is left or right, else up or down (an
///   exact diagonal counts as vertical). y grows downwards, so a negative dy is up.
///
/// The direction follows the finger while it is held (the guide shows the kana under it) and
/// is final where the touch is lifted. A touch that left the center circle and came back is
/// `.center` but not a tap (`isTap` false): iOS types the key's own kana as a new kana, the
/// way iOS users type ああ fast ("flick away and back", without a toggle step).
///
/// Threshold: 25 points, the default of azooKey (an iOS keyboard built to feel like the
/// system's, `FlickKeyModel` "25px以上離れてて"); a third of a desktop kana key (about 90 × 50
/// points) and far less than the key width the end-to-end tests drag. iOS's own figure is
/// not published.
public struct FlickGesture: Hashable, Sendable {
    /// Default distance in points from the touch-down point at which a touch has a direction.
    public static let defaultThreshold: Double = 25

    /// Where the touch went down, in window points.
    public let origin: Point
    /// Distance in points from `origin` at which the touch has a direction.
    public let threshold: Double
    /// Where the touch points now.
    public private(set) var direction: FlickDirection = .center
    /// Whether the touch ever left the center circle.
    public private(set) var hasLeftCenter = false

    /// A touch went down at `point` (window points).
    public init(touchDownAt point: Point, threshold: Double = FlickGesture.defaultThreshold) {
        origin = point
        self.threshold = threshold
    }

    /// The touch moved to `point`. Returns whether the direction changed (the guide's
    /// selection moves).
    @discardableResult
    public mutating func move(to point: Point) -> Bool {
        let next = Self.direction(from: origin, to: point, threshold: threshold)
        if next != .center { hasLeftCenter = true }
        guard next != direction else { return false }
        direction = next
        return true
    }

    /// The touch was lifted at `point`: its final direction, and whether it was a tap.
    public mutating func release(at point: Point) -> FlickRelease {
        move(to: point)
        return FlickRelease(direction: direction, isTap: isTap)
    }

    /// Whether the touch never left the center circle: a tap, which may be a toggle step.
    public var isTap: Bool { !hasLeftCenter }

    /// The direction of `point` seen from `origin` (see the type's rules).
    public static func direction(from origin: Point, to point: Point, threshold: Double) -> FlickDirection {
        let dx = point.x - origin.x
        let dy = point.y - origin.y
        guard (dx * dx + dy * dy).squareRoot() >= threshold else { return .center }
        if abs(dx) > abs(dy) {
            return dx < 0 ? .left : .right
        }
        return dy < 0 ? .up : .down
    }
}

/// How a touch on a flick key ended.
public struct FlickRelease: Hashable, Sendable {
    /// Where it pointed when lifted.
    public var direction: FlickDirection
    /// Whether it never left the center circle (a tap: toggle input may step the kana).
    public var isTap: Bool

    public init(direction: FlickDirection, isTap: Bool) {
        self.direction = direction
        self.isTap = isTap
    }

    /// A plain tap.
    public static let tap = FlickRelease(direction: .center, isTap: true)

    /// A flick in `direction` (`.center`: away and back).
    public static func flick(_ direction: FlickDirection) -> FlickRelease {
        FlickRelease(direction: direction, isTap: false)
    }
}

/// What the flick guide shows while a flick key is held: the key's kana, the ones around it
/// and the one the finger points to.
///
/// iOS shows the neighbours around the touched key as soon as it is touched (「わをん」キーを
/// タップすると、「わ」の右側に「ー」が表示される) and highlights the one selected; the
/// renderer draws that from this value.
public struct FlickGuide: Hashable, Sendable {
    /// The kana in each direction (`center`: the key's own); `nil` entries are not drawn.
    public var targets: FlickTargets
    /// Where the finger points now.
    public var selected: FlickDirection

    public init(targets: FlickTargets, selected: FlickDirection) {
        self.targets = targets
        self.selected = selected
    }

    /// The neighbours to draw around the key, in `FlickDirection.outward` order.
    public var neighbours: [(direction: FlickDirection, text: String)] {
        FlickDirection.outward.compactMap { direction in targets[direction].map { (direction, $0) } }
    }

    /// The text that lifting now would give, or `nil` for nothing.
    public var selectedText: String? { targets[selected] }
}
