/// One pointer: the mouse, or one finger of a touch device.
public enum PointerID: Hashable, Sendable, CustomStringConvertible {
    case mouse
    /// SDL's `SDL_TouchFingerEvent.fingerId` (unique among the fingers currently down).
    case finger(Int64)

    public var description: String {
        switch self {
        case .mouse: "mouse"
        case .finger(let id): "finger\(id)"
        }
    }

    /// Whether this pointer comes before `other` when pointers are processed in turn (the
    /// mouse, then fingers by id), so the order never depends on a dictionary's.
    func precedes(_ other: PointerID) -> Bool {
        switch (self, other) {
        case (.mouse, .finger): true
        case (.finger(let a), .finger(let b)): a < b
        default: false
        }
    }
}
