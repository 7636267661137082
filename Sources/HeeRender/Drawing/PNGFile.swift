import CCairo

/// Reads and writes PNG files through cairo (for golden images, screenshots and icons).
public enum PNGFile {
    /// Writes an ARGB8888 `surface` (straight alpha) to `path`.
    /// - Throws: `SDLError` (function `cairo_surface_write_to_png`) when the file cannot be written.
    public static func write(_ surface: Surface, to path: String) throws(SDLError) {
        let w = surface.width, h = surface.height
        let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))
        defer { cairo_surface_destroy(image) }
        cairo_surface_flush(image)
        let stride = Int(cairo_image_surface_get_stride(image)) / 4
        guard let data = cairo_image_surface_get_data(image) else {
            throw SDLError("cairo_image_surface_get_data", message: "no pixel data")
        }
        let dst = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        surface.withPixels { src, pitch in
            for y in 0..<h {
                for x in 0..<w { dst[y * stride + x] = premultiply(src[y * pitch + x]) }
            }
        }
        cairo_surface_mark_dirty(image)
        let status = cairo_surface_write_to_png(image, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SDLError("cairo_surface_write_to_png(\(path))", message: String(cString: cairo_status_to_string(status)))
        }
    }

    /// Reads a PNG file into an ARGB8888 surface with straight alpha.
    /// - Throws: `SDLError` (function `cairo_image_surface_create_from_png`) when the file is
    ///   missing or not a PNG.
    public static func read(_ path: String) throws(SDLError) -> Surface {
        let image = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(image) }
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SDLError("cairo_image_surface_create_from_png(\(path))", message: String(cString: cairo_status_to_string(status)))
        }
        let w = Int(cairo_image_surface_get_width(image)), h = Int(cairo_image_surface_get_height(image))
        let stride = Int(cairo_image_surface_get_stride(image)) / 4
        let format = cairo_image_surface_get_format(image)
        guard let data = cairo_image_surface_get_data(image) else {
            throw SDLError("cairo_image_surface_get_data", message: "no pixel data")
        }
        let src = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        let out = try Surface(width: w, height: h)
        out.withPixels { dst, pitch in
            for y in 0..<h {
                for x in 0..<w {
                    let p = src[y * stride + x]
                    dst[y * pitch + x] = format == CAIRO_FORMAT_RGB24 ? (p | 0xFF00_0000) : VectorCanvas.unpremultiply(p)
                }
            }
        }
        return out
    }

    static func premultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        func ch(_ shift: UInt32) -> UInt32 { (((p >> shift) & 0xFF) * a + 127) / 255 }
        return (a << 24) | (ch(16) << 16) | (ch(8) << 8) | ch(0)
    }
}
