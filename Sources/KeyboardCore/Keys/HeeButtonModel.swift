/// The へぇ button's state: seed 000's `KeyboardViewModel` as a value type.
///
/// A touch counts once: `touchDown()` while already touching does nothing (the seed's
/// `isTouching` guard, needed because SwiftUI's `DragGesture.onChanged` fires on every move).
public struct HeeButtonModel: Hashable, Sendable {
    /// The text one press inserts: 「へぇ〜」 (with U+301C WAVE DASH), from seed 000.
    public static let insertedText = "へぇ〜"
    /// The counter shows two digits; it wraps to 0 after 99.
    public static let displayModulus = 100

    /// Whether a touch is down on the button (seed 000: `isTouching`).
    public private(set) var isTouching = false
    /// Every counted press since launch or the last reset (seed 000: `count`). Never wraps;
    /// the display does.
    public private(set) var count = 0
    /// The show's rule: at most this many presses count (`nil`: no limit, the seed's
    /// behaviour).
    public let limit: Int?

    public init(count: Int = 0, limit: Int? = nil) {
        self.count = count
        self.limit = limit
    }

    /// Whether the limit is reached: the show calls a full 20 「満へぇ」.
    public var isFull: Bool { limit.map { count >= $0 } ?? false }

    /// A touch went down. Returns `true` when it counts: the caller then inserts
    /// `insertedText` and plays the clip (seed 000's `heeHandler`). A full counter counts
    /// nothing (the cap still moves).
    public mutating func touchDown() -> Bool {
        if isTouching { return false }
        isTouching = true
        if isFull { return false }
        count += 1
        return true
    }

    /// Sets the count back to zero (the show's reset).
    public mutating func reset() {
        count = 0
    }

    /// The touch was lifted (or cancelled).
    public mutating func touchUp() {
        isTouching = false
    }

    /// The number the counter shows: `count` modulo 100.
    public var displayedCount: Int { count % Self.displayModulus }

    /// The counter's text, formatted like seed 000's `String(format: "%2d", count)`: two
    /// characters, right-aligned, space-padded (" 7", "42").
    public var counterText: String {
        let digits = String(displayedCount)
        return digits.count >= 2 ? digits : " " + digits
    }
}
