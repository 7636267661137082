/// Where a touch on a flick key went before it was lifted, iOS 日本語かな's five choices.
///
/// `.center` is "no direction": the touch stayed within `FlickGesture.threshold` of where it
/// went down (a tap), or came back there. The four others are the kana columns around the
/// key: on あ, left い, up う, right え, down お (iOS: 「文字は9時方向を先頭に時計回り」).
public enum FlickDirection: String, CaseIterable, Hashable, Sendable {
    case center
    case left
    case up
    case right
    case down

    /// The four directions away from the key, in iOS's order (clockwise from 9 o'clock).
    public static let outward: [FlickDirection] = [.left, .up, .right, .down]

    /// Where a flick this way from the centre of `key` (points) ends: one key width (or
    /// height) away; the centre itself for `.center` (a tap). The benchmark's and the tests'
    /// flicks go there.
    public func end(from key: Rect) -> Point {
        let c = key.center
        return switch self {
        case .center: c
        case .left: Point(x: c.x - key.width, y: c.y)
        case .right: Point(x: c.x + key.width, y: c.y)
        case .up: Point(x: c.x, y: c.y - key.height)
        case .down: Point(x: c.x, y: c.y + key.height)
        }
    }
}

/// The text a flick key gives for each `FlickDirection`; `nil` where it gives nothing (iOS's
/// わ and 、 keys have nothing below them).
///
/// Plain data: the kana pad's keys are read from the layout file (issue 20).
public struct FlickTargets: Hashable, Sendable {
    /// What a tap (no direction) gives: the key's own kana.
    public var center: String?
    public var left: String?
    public var up: String?
    public var right: String?
    public var down: String?

    public init(center: String?, left: String? = nil, up: String? = nil, right: String? = nil, down: String? = nil) {
        self.center = center
        self.left = left
        self.up = up
        self.right = right
        self.down = down
    }

    /// Nothing in any direction.
    public static let empty = FlickTargets(center: nil)

    /// The text in `direction`, or `nil` when there is none.
    public subscript(direction: FlickDirection) -> String? {
        switch direction {
        case .center: center
        case .left: left
        case .up: up
        case .right: right
        case .down: down
        }
    }
}
