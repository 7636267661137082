import KeyboardCore

/// The へぇ button's shapes in seed 000's design points, inside its 170 × 180 frame
/// (origin top-left), worked out from the seed's SwiftUI layout:
///
/// - The `ZStack(alignment: .top)` holds the cap (120 × 80 plus 20 top padding = 100 tall)
///   and a `VStack` of 60 + 50 + 60 = 170; the stack is 170 tall, centred in the 180 frame,
///   so everything starts 5 pt down.
/// - Cap: `Ellipse().frame(width: 120, height: 80).padding(.top, 20)`, centred: x 25…145,
///   y 25…105; `.offset(y: 10)` while touched.
/// - Middle band: `HStack(spacing: 18)` of five 15 pt circles in a 140 × 50 frame: x 15…155,
///   y 65…115. The dots span 5 × 15 + 4 × 18 = 147 pt, wider than the band, so (SwiftUI
///   does not clip) the outer dots stand 3.5 pt outside it: centres 19, 52, 85, 118, 151.
/// - Bottom band: a 60 pt rectangle across the full 170: y 115…175, centre y 145, holding
///   the laurels (`HStack(spacing: 70)`, `.largeTitle`), and the labels
///   `HStack { へぇ (clear), counter, へぇ }` with the default 8 pt spacing.
public enum HeeButtonGeometry {
    public static let frame = KeyboardLayout.heeDesignSize
    public static let cap = Rect(x: 25, y: 25, width: 120, height: 80)
    /// Seed 000: `.offset(y: viewModel.isTouching ? 10 : 0)`.
    public static let capPressOffset = 10.0
    public static let middleBand = Rect(x: 15, y: 65, width: 140, height: 50)
    public static let dotDiameter = 15.0
    public static let dotSpacing = 18.0
    public static let dotCount = 5
    public static let bottomBand = Rect(x: 0, y: 115, width: 170, height: 60)
    /// Seed 000: `HStack(spacing: 70)` between the laurels.
    public static let laurelSpacing = 70.0
    /// `.font(.largeTitle)`: 34 pt.
    public static let laurelPointSize = 34.0
    /// `.font(.callout)`: 16 pt.
    public static let labelPointSize = 16.0
    /// `.frame(height: 40, alignment: .bottom)` of the labels.
    public static let labelFrameHeight = 40.0
    /// `.font(.title)`: 28 pt.
    public static let counterPointSize = 28.0
    /// `.padding(.horizontal, 8)` around the counter.
    public static let counterPadding = 8.0
    /// SwiftUI's default `HStack` spacing between texts.
    public static let labelSpacing = 8.0
    /// Seed 000: `.shadow(radius: 5)`.
    public static let shadowRadius = 5.0
    /// The label beside the counter.
    public static let label = "へぇ"
    /// The label once the show's limit is reached: 「満へぇ」, a full counter.
    public static let fullLabel = "満へぇ"

    /// Centre of the `index`-th dot (0...4).
    public static func dotCenter(_ index: Int) -> Point {
        let total = Double(dotCount) * dotDiameter + Double(dotCount - 1) * dotSpacing
        let first = middleBand.midX - total / 2 + dotDiameter / 2
        return Point(x: first + Double(index) * (dotDiameter + dotSpacing), y: middleBand.midY)
    }

    /// The cap's rectangle when pressed by `press` (0 at rest ... 1 down).
    public static func capRect(press: Double) -> Rect {
        cap.offsetBy(dy: capPressOffset * press)
    }
}
