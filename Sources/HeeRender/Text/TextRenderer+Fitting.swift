/// Shrinking a label's font so it fits a given width, as iOS shrinks key labels
/// (`adjustsFontSizeToFitWidth` with a minimum size).
extension TextRenderer {
    /// `style` with its size reduced, if need be, so that `text` is at most `room` pixels wide
    /// at `pixelScale` pixels per point.
    ///
    /// Text that fits keeps `style` exactly (its specified size is never changed then). Text
    /// that does not gets the largest whole pixel size that fits, but none below
    /// `minimumPoints` (points): at that floor it may still be wider than `room`, and the
    /// caller decides what to do with the excess.
    /// - Parameters:
    ///   - room: the width available, in pixels.
    ///   - minimumPoints: the smallest size to shrink to, in points.
    /// - Complexity: one measurement when the text fits; otherwise a few more, each at one
    ///   font size (fonts are kept per size, so the same fit later costs only measurements).
    public func style(fitting text: String, _ style: TextStyle, inWidth room: Int, pixelScale: Double,
                      minimumPoints: Double) -> TextStyle {
        let natural = width(of: text, style, pixelScale: pixelScale)
        guard natural > room, natural > 0 else { return style }
        let full = Self.pixels(style.points, pixelScale)
        let floor = min(Self.pixels(minimumPoints, pixelScale), full)
        func sized(_ pixels: Int) -> TextStyle {
            var fitted = style
            fitted.points = Double(pixels) / pixelScale
            return fitted
        }
        func fits(_ pixels: Int) -> Bool { width(of: text, sized(pixels), pixelScale: pixelScale) <= room }
        // Widths scale nearly linearly with the size: start from that estimate and correct it
        // by whole pixels (hinting and rounding make it a pixel or two off either way).
        var pixels = max(min(full - 1, full * max(room, 0) / natural), floor)
        while pixels > floor && !fits(pixels) { pixels -= 1 }
        while pixels + 1 < full && fits(pixels + 1) { pixels += 1 }
        return sized(pixels)
    }
}
