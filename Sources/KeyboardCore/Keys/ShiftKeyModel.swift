/// The shift key's rules, from seed 002's `ShiftButtonModel`, with time as an input.
///
/// - A tap toggles off ↔ on.
/// - A touch-down less than 0.25 s after the previous touch-down is a double tap: it toggles
///   caps lock (from caps lock: off; otherwise: caps lock). As in the seed, the first tap of a
///   double tap has already toggled the state once.
/// - A touch-down while already touching does nothing (the seed's `isTouching` guard).
/// - Held as a modifier (iOS): letters typed while shift is held are upper case, and
///   releasing shift after such a chord leaves it off, and the next tap is not a double tap.
public struct ShiftKeyModel: Hashable, Sendable {
    /// Seed 002's double-tap window: a touch-down counts as the second tap when it comes
    /// strictly less than this after the previous touch-down.
    public static let doubleTapInterval: Duration = .milliseconds(250)

    public private(set) var state: ShiftState
    public private(set) var isTouching = false
    /// The previous touch-down, as time since the session started (seed 002: `previousDate`).
    public private(set) var previousTouchDown: Duration?
    /// Whether a letter was typed while shift was held (a chord).
    public private(set) var isChording = false

    public init(state: ShiftState = .off) {
        self.state = state
    }

    /// A touch went down at `time` (seconds since the session started, as a `Duration`).
    /// Returns `true` if the state changed.
    @discardableResult
    public mutating func touchDown(at time: Duration) -> Bool {
        if isTouching { return false }
        isTouching = true
        if let previousTouchDown, time - previousTouchDown < Self.doubleTapInterval {
            state = (state == .capsLock) ? .off : .capsLock
        } else {
            state = (state == .off) ? .on : .off
        }
        previousTouchDown = time
        return true
    }

    /// The touch was lifted. After a chord shift turns off and forgets the touch-down, so
    /// the chord counts as neither a tap nor half of a double tap. Returns `true` if the
    /// state changed.
    @discardableResult
    public mutating func touchUp() -> Bool {
        isTouching = false
        guard isChording else { return false }
        isChording = false
        previousTouchDown = nil
        guard state != .off else { return false }
        state = .off
        return true
    }

    /// Whether letters typed now are upper case: shift on, caps lock, or shift held.
    public var typesUpperCase: Bool { state != .off || isTouching }

    /// `letter` in the case it is typed now.
    public func apply(to letter: String) -> String {
        typesUpperCase ? letter.uppercased() : letter.lowercased()
    }

    /// A letter was typed: while shift is held it is a chord; otherwise a one-shot shift
    /// (`on`) turns off, as on iOS. Returns `true` if the state changed.
    @discardableResult
    public mutating func letterTyped() -> Bool {
        if isTouching {
            isChording = true
            return false
        }
        guard state == .on else { return false }
        state = .off
        return true
    }
}
