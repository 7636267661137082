import CCairo

extension VectorCanvas {
    /// Fills the outline of iOS's alternates bubble: a rounded rectangle (the row of choices)
    /// whose flat lower edge meets, through small concave fillets, a stem as wide as the held
    /// key that runs down over the key to `stemBottom`. Unlike a letter's
    /// callout the bubble is much wider than the key and reaches to one side of it, so its
    /// lower edge stays level instead of curving down to the stem.
    /// - Parameters:
    ///   - width, height: the rectangle, from the canvas's top-left (pixels).
    ///   - stemX, stemWidth, stemBottom: the key's horizontal extent and its bottom edge
    ///     within the canvas (pixels); a stem
    ///     flush with (or past) a side of the rectangle continues that side straight down.
    ///   - radius: the rectangle's corners; `stemRadius` the key's lower corners; `fillet`
    ///     the concave corners where the stem leaves the rectangle (pixels).
    public func fillBubble(width w: Double, height yb: Double, stemX: Double, stemWidth: Double, stemBottom h: Double,
                           radius: Double, stemRadius: Double, fillet: Double, _ color: Color) {
        let r = min(radius, w / 2, yb / 2), rk = min(stemRadius, stemWidth / 2)
        let right = stemX + stemWidth
        let f = max(min(fillet, h - yb - rk), 0)
        cairo_new_path(context)
        cairo_move_to(context, r, 0)
        cairo_arc(context, w - r, r, r, -Double.pi / 2, 0)
        // Right: the rectangle's lower corner and a fillet down into the stem, or (the stem
        // at the rectangle's right end) straight down.
        let roomRight = w - r - right
        if roomRight >= 1 {
            let fr = min(f, roomRight)
            cairo_arc(context, w - r, yb - r, r, 0, Double.pi / 2)
            cairo_line_to(context, right + fr, yb)
            cairo_arc_negative(context, right + fr, yb + fr, fr, -Double.pi / 2, -Double.pi)
        } else {
            cairo_line_to(context, w, yb)
            cairo_line_to(context, right, yb)
        }
        cairo_line_to(context, right, h - rk)
        cairo_arc(context, right - rk, h - rk, rk, 0, Double.pi / 2)
        cairo_arc(context, stemX + rk, h - rk, rk, Double.pi / 2, Double.pi)
        // Left: the same, mirrored.
        let roomLeft = stemX - r
        if roomLeft >= 1 {
            let fl = min(f, roomLeft)
            cairo_line_to(context, stemX, yb + fl)
            cairo_arc_negative(context, stemX - fl, yb + fl, fl, 0, -Double.pi / 2)
            cairo_line_to(context, r, yb)
            cairo_arc(context, r, yb - r, r, Double.pi / 2, Double.pi)
        } else {
            cairo_line_to(context, stemX, yb)
            cairo_line_to(context, 0, yb)
        }
        cairo_arc(context, r, r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
        setColor(color)
        cairo_fill(context)
    }
}
