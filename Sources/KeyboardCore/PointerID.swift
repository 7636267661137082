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
}
