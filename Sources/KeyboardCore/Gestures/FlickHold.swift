/// A flick key held by a pointer: the key, where the touch went down and when, and where it
/// points now.
public struct FlickHold: Hashable, Sendable {
    /// The pointer holding it.
    public var pointer: PointerID
    /// The key: a kana key or 「゛゜小」.
    public var key: KeyID
    /// The touch's direction so far (window points).
    public var gesture: FlickGesture
    /// When the touch went down (decides whether a tap continues a toggle cycle).
    public var touchDown: Duration
    /// The pointer's last position (a rollover releases the key there).
    public var point: Point

    /// `key` held by `pointer` since `touchDown`, its gesture so far `gesture`, last at `point`.
    public init(pointer: PointerID, key: KeyID, gesture: FlickGesture, touchDown: Duration, point: Point) {
        self.pointer = pointer
        self.key = key
        self.gesture = gesture
        self.touchDown = touchDown
        self.point = point
    }

    /// What its guide shows: the key and the direction selected.
    var visible: (KeyID, FlickDirection) { (key, gesture.direction) }
}
