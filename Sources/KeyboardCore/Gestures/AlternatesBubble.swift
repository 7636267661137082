/// iOS's long-press alternates: touch and hold a key that has them (`e` → è é ê ë ē ė ę) and,
/// after the hold delay, a bubble above the key shows them in a row; the finger slides along
/// it, the choice under the finger is highlighted, and lifting types that choice — or nothing
/// when the finger left the bubble.
public struct AlternatesBubble: Hashable, Sendable {
    /// How long a key is held before its bubble opens (UIKit's long-press default, 0.5 s).
    public static let holdDelay: Duration = .milliseconds(500)
    /// The gap between the bubble and the key it rises from (points).
    public static let rise = 10.0

    /// One alternate: what it types and where it is drawn (window points).
    public struct Choice: Hashable, Sendable {
        public var text: String
        public var frame: Rect

        /// A choice typing `text`, drawn in `frame` (points).
        public init(text: String, frame: Rect) {
            self.text = text
            self.frame = frame
        }
    }

    /// The key held.
    public let key: KeyID
    /// The pointer holding it.
    public let pointer: PointerID
    /// The alternates, left to right.
    public let choices: [Choice]
    /// The highlighted choice (`nil`: the finger is outside the bubble).
    public internal(set) var selected: Int?

    /// The bubble for `texts` over the key at `keyFrame` (points): cells of `cellWidth` ×
    /// the key's height in a row `rise` points above it, reaching right from the key when the
    /// key is in the keyboard's left half and left from it otherwise (as iOS does), kept
    /// inside `keyboardFrame` (narrower cells when they would not fit across it). The cell over
    /// the key is highlighted first.
    public init(key: KeyID, pointer: PointerID, texts: [String], keyFrame: Rect, cellWidth requested: Double,
                keyboardFrame: Rect) {
        self.key = key
        self.pointer = pointer
        let count = Double(max(texts.count, 1))
        let inset = KeyboardLayout.keyboardSideMargin
        let cellWidth = min(requested, (keyboardFrame.width - 2 * inset) / count)
        let total = count * cellWidth
        let leftHalf = keyFrame.center.x < keyboardFrame.center.x
        var x0 = leftHalf ? keyFrame.center.x - cellWidth / 2 : keyFrame.center.x + cellWidth / 2 - total
        x0 = min(max(x0, keyboardFrame.minX + inset), keyboardFrame.maxX - inset - total)
        let y = keyFrame.minY - Self.rise - keyFrame.height
        choices = texts.enumerated().map { i, text in
            Choice(text: text, frame: Rect(x: x0 + Double(i) * cellWidth, y: y, width: cellWidth, height: keyFrame.height))
        }
        let overKey = Int(((keyFrame.center.x - x0) / cellWidth).rounded(.down))
        selected = texts.isEmpty ? nil : min(max(overKey, 0), texts.count - 1)
        keyBottom = keyFrame.maxY
    }

    /// The bottom of the key the bubble rises from (points).
    private let keyBottom: Double

    /// The bubble's outline: its cells together (points).
    public var frame: Rect {
        guard let first = choices.first, let last = choices.last else { return .zero }
        return Rect(x: first.frame.minX, y: first.frame.minY, width: last.frame.maxX - first.frame.minX,
                    height: first.frame.height)
    }

    /// The choice under `point` (points): the cell whose column holds it, while the finger is
    /// between a cell's height above the bubble and the bottom of the key; `nil` outside.
    public func choice(at point: Point) -> Int? {
        let f = frame
        guard !choices.isEmpty, point.x >= f.minX, point.x < f.maxX,
              point.y >= f.minY - f.height, point.y <= keyBottom else { return nil }
        return min(Int(((point.x - f.minX) / choices[0].frame.width).rounded(.down)), choices.count - 1)
    }

    /// The cell drawn at `point` (points), strictly inside the bubble's outline: where a new
    /// touch chooses (`choice(at:)` is the sliding finger's wider reach); `nil` outside.
    public func cell(containing point: Point) -> Int? {
        choices.firstIndex { $0.frame.contains(point) }
    }

    /// The text of the highlighted choice, if any.
    public var selectedText: String? { selected.map { choices[$0].text } }
}

/// A press waiting for the hold delay: a key with alternates, or the space bar.
public struct HoldTimer: Hashable, Sendable {
    /// The pointer and the key it holds.
    public var pointer: PointerID
    public var key: KeyID
    /// When the hold delay ends.
    public var due: Duration
    /// Where the pointer is (points): the trackpad starts from there.
    public var point: Point
}

/// iOS's trackpad mode: the space bar held past the hold delay. The keys' labels fade and
/// sliding the finger moves the caret one character per `step` points; lifting ends it and
/// types nothing.
public struct Trackpad: Hashable, Sendable {
    /// Points of finger travel per character of caret movement.
    public static let step = 10.0
    /// The pointer on the space bar.
    public var pointer: PointerID
    /// Where the finger was when trackpad mode began (points across).
    public var startX: Double
    /// Characters moved so far (negative: left).
    public var moved: Int

    /// The caret steps due for the finger at `x`: the whole steps from `startX` minus those
    /// already moved (toward zero, so a finger that turns back moves the caret back).
    public func steps(toX x: Double) -> Int {
        Int(((x - startX) / Self.step).rounded(.towardZero)) - moved
    }
}
