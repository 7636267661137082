import KeyboardCore

/// Vector look-alikes of the SF Symbols the keys show: seed 002's `shift`, `shift.fill` and
/// `capslock.fill`, and `delete.left` for backspace. Coordinates are points in a 24 × 24 box.
public enum KeyIcon: Hashable, Sendable {
    case shift(ShiftState)
    case deleteLeft

    /// The icon's box in points.
    public static let size = 24.0

    /// Draws the icon into `canvas` with its box's top-left at (0, 0), `k` pixels per point.
    func draw(on canvas: VectorCanvas, k: Double, color: Color) {
        func p(_ x: Double, _ y: Double) -> (Double, Double) { (x * k, y * k) }
        switch self {
        case .shift(let state):
            // An upward arrow: head from y 3 to 12, stem 12...(19 or 16 with the caps bar).
            let stemBottom = state == .capsLock ? 16.0 : 19.5
            let arrow = [p(12, 3), p(21, 12.5), p(16, 12.5), p(16, stemBottom), p(8, stemBottom), p(8, 12.5), p(3, 12.5)]
            switch state {
            case .off:
                canvas.polygon(arrow, fill: nil, stroke: color, lineWidth: 1.6 * k)
            case .on, .capsLock:
                canvas.polygon(arrow, fill: color, stroke: color, lineWidth: 1.6 * k)
            }
            if state == .capsLock {
                canvas.fillRoundedRect(x: 8 * k - 0.8 * k, y: 18 * k, width: 9.6 * k, height: 2.6 * k, radius: 0.6 * k, color)
            }
        case .deleteLeft:
            let outline = [p(2, 12), p(8.5, 5), p(22, 5), p(22, 19), p(8.5, 19)]
            canvas.polygon(outline, fill: nil, stroke: color, lineWidth: 1.6 * k)
            canvas.line(from: p(12, 9), to: p(18, 15), width: 1.6 * k, color)
            canvas.line(from: p(18, 9), to: p(12, 15), width: 1.6 * k, color)
        }
    }
}
