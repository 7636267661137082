/// The shift key's three states (seed 002's `ShiftState`).
public enum ShiftState: String, Hashable, Sendable, CaseIterable {
    /// Lower case.
    case off
    /// The next letter is upper case, then shift turns off.
    case on
    /// Every letter is upper case until shift is tapped again (caps lock).
    case capsLock

    /// The SF Symbol seed 002 shows for the state; `HeeRender` draws a vector look-alike.
    public var systemName: String {
        switch self {
        case .off: "shift"
        case .on: "shift.fill"
        case .capsLock: "capslock.fill"
        }
    }

    /// `letter` in the case this state types it.
    public func apply(to letter: String) -> String {
        self == .off ? letter.lowercased() : letter.uppercased()
    }
}
