import CCairo
import CSDL

/// An anti-aliased vector drawing surface (cairo's image backend) in pixels, turned into an
/// SDL surface when done. Shapes are filled with coverage-based anti-aliasing, so edges are
/// smooth at any scale.
public final class VectorCanvas {
    let surface: OpaquePointer
    let context: OpaquePointer
    /// Size in pixels.
    public let width: Int
    public let height: Int

    /// A transparent canvas of `width` × `height` pixels.
    /// - Throws: `SDLError` (function `cairo_image_surface_create`) when cairo cannot make it.
    public init(width: Int, height: Int) throws(SDLError) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw SDLError("cairo_image_surface_create", message: message)
        }
        context = cairo_create(surface)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Sets the fill colour.
    public func setColor(_ c: Color) {
        cairo_set_source_rgba(context, c.red, c.green, c.blue, c.opacity)
    }

    /// Fills an axis-aligned ellipse inside `x, y, w, h` (pixels).
    public func fillEllipse(x: Double, y: Double, width w: Double, height h: Double, _ color: Color) {
        cairo_save(context)
        cairo_translate(context, x + w / 2, y + h / 2)
        cairo_scale(context, w / 2, h / 2)
        cairo_arc(context, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(context)
        setColor(color)
        cairo_fill(context)
    }

    /// Fills a rectangle with corners rounded by `radius` pixels (0: square).
    public func fillRoundedRect(x: Double, y: Double, width w: Double, height h: Double, radius: Double, _ color: Color) {
        roundedRectPath(x: x, y: y, width: w, height: h, radius: radius)
        setColor(color)
        cairo_fill(context)
    }

    /// Fills the outline of a key callout: a wide balloon on top whose lower edge curves in
    /// to a stem exactly as wide as the key below it.
    /// - Parameters:
    ///   - balloonWidth, balloonHeight: the upper part, from the canvas's top-left (pixels).
    ///   - neck: height of the curved transition.
    ///   - stemX, stemWidth: the key's horizontal extent within the canvas; the stem runs
    ///     from the neck down to the canvas's bottom edge.
    public func fillCallout(balloonWidth: Double, balloonHeight: Double, neck: Double, stemX: Double, stemWidth: Double,
                            radius: Double, stemRadius: Double, _ color: Color) {
        let w = balloonWidth, yb = balloonHeight, yk = balloonHeight + neck, h = Double(height)
        let r = min(radius, w / 2), rk = min(stemRadius, stemWidth / 2)
        let right = stemX + stemWidth
        cairo_new_path(context)
        cairo_move_to(context, r, 0)
        cairo_arc(context, w - r, r, r, -Double.pi / 2, 0)
        cairo_line_to(context, w, yb)
        cairo_curve_to(context, w, yb + neck / 2, right, yb + neck / 2, right, yk)
        cairo_line_to(context, right, h - rk)
        cairo_arc(context, right - rk, h - rk, rk, 0, Double.pi / 2)
        cairo_arc(context, stemX + rk, h - rk, rk, Double.pi / 2, Double.pi)
        cairo_line_to(context, stemX, yk)
        cairo_curve_to(context, stemX, yb + neck / 2, 0, yb + neck / 2, 0, yb)
        cairo_arc(context, r, r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
        setColor(color)
        cairo_fill(context)
    }

    /// Runs `body` with everything drawn moved by `dx`, `dy` pixels.
    public func withOffset(dx: Double, dy: Double, _ body: () -> Void) {
        cairo_save(context)
        cairo_translate(context, dx, dy)
        body()
        cairo_restore(context)
    }

    /// Appends a rounded-rectangle path.
    func roundedRectPath(x: Double, y: Double, width w: Double, height h: Double, radius: Double) {
        let r = min(radius, w / 2, h / 2)
        guard r > 0 else {
            cairo_rectangle(context, x, y, w, h)
            return
        }
        cairo_new_sub_path(context)
        cairo_arc(context, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(context, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(context, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(context, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    /// Fills (or strokes with `lineWidth` pixels) the closed polygon through `points`.
    public func polygon(_ points: [(Double, Double)], fill color: Color?, stroke: Color? = nil,
                        lineWidth: Double = 1) {
        guard let first = points.first else { return }
        cairo_new_path(context)
        cairo_move_to(context, first.0, first.1)
        for p in points.dropFirst() { cairo_line_to(context, p.0, p.1) }
        cairo_close_path(context)
        if let color {
            setColor(color)
            if stroke != nil { cairo_fill_preserve(context) } else { cairo_fill(context) }
        }
        if let stroke {
            setColor(stroke)
            cairo_set_line_width(context, lineWidth)
            cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(context)
        }
    }

    /// Strokes a straight line from `a` to `b` with round caps.
    public func line(from a: (Double, Double), to b: (Double, Double), width: Double, _ color: Color) {
        cairo_new_path(context)
        cairo_move_to(context, a.0, a.1)
        cairo_line_to(context, b.0, b.1)
        setColor(color)
        cairo_set_line_width(context, width)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_stroke(context)
    }

    /// The drawing as an SDL surface with straight (not premultiplied) alpha, the form SDL's
    /// blend modes expect.
    /// - Throws: `SDLError` when the surface cannot be allocated.
    public func makeSurface() throws(SDLError) -> Surface {
        cairo_surface_flush(surface)
        let out = try Surface(width: width, height: height)
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        guard let data = cairo_image_surface_get_data(surface) else {
            throw SDLError("cairo_image_surface_get_data", message: "no pixel data")
        }
        let src = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        out.withPixels { dst, pitch in
            for y in 0..<height {
                for x in 0..<width {
                    dst[y * pitch + x] = Self.unpremultiply(src[y * stride + x])
                }
            }
        }
        return out
    }

    /// `surface` (ARGB8888, straight alpha) resized by `factor` with cairo's good filter
    /// (box-filtered when shrinking): how bitmap emoji, which come in one large size, are
    /// brought down to the text's size.
    /// - Throws: `SDLError` when a surface cannot be allocated.
    public static func resized(_ surface: Surface, by factor: Double) throws(SDLError) -> Surface {
        let w = max(Int((Double(surface.width) * factor).rounded()), 1)
        let h = max(Int((Double(surface.height) * factor).rounded()), 1)
        let source = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(surface.width), Int32(surface.height))
        defer { cairo_surface_destroy(source) }
        cairo_surface_flush(source)
        let stride = Int(cairo_image_surface_get_stride(source)) / 4
        guard let data = cairo_image_surface_get_data(source) else {
            throw SDLError("cairo_image_surface_get_data", message: "no pixel data")
        }
        let dst = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        surface.withPixels { src, pitch in
            for y in 0..<surface.height {
                for x in 0..<surface.width { dst[y * stride + x] = PNGFile.premultiply(src[y * pitch + x]) }
            }
        }
        cairo_surface_mark_dirty(source)
        let canvas = try VectorCanvas(width: w, height: h)
        cairo_scale(canvas.context, Double(w) / Double(surface.width), Double(h) / Double(surface.height))
        cairo_set_source_surface(canvas.context, source, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(canvas.context), CAIRO_FILTER_GOOD)
        cairo_paint(canvas.context)
        return try canvas.makeSurface()
    }

    /// 0xAARRGGBB premultiplied → straight alpha.
    static func unpremultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 0 { return 0 }
        if a == 255 { return p }
        func ch(_ shift: UInt32) -> UInt32 { min(((p >> shift) & 0xFF) * 255 + a / 2, 255 * a) / a }
        return (a << 24) | (ch(16) << 16) | (ch(8) << 8) | ch(0)
    }
}
