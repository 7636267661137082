import KeyboardCore

/// Renders the app's icon: the へぇ button alone (seed 000's shapes, at rest, counter 0) on a
/// transparent square, by the same painter as the window.
public enum IconRenderer {
    /// The icon at `size` × `size` pixels with straight alpha.
    ///
    /// The button is drawn twice, over black and over white; the difference between the two
    /// gives each pixel's opacity and colour exactly, soft shadow and 0.7-opaque cap included
    /// (drawing straight onto transparency would darken every translucent pixel).
    /// - Throws: `SDLError` when a surface, renderer or font fails.
    public static func render(size: Int, library: TTFLibrary, assetsDirectory: String) throws(SDLError) -> Surface {
        let onBlack = try draw(size: size, background: .black, library: library, assetsDirectory: assetsDirectory)
        let onWhite = try draw(size: size, background: .white, library: library, assetsDirectory: assetsDirectory)
        let icon = try Surface(width: size, height: size)
        icon.withPixels { out, pitch in
            onBlack.withPixels { b, bp in
                onWhite.withPixels { w, wp in
                    for y in 0..<size {
                        for x in 0..<size {
                            let pb = RGBA8(argb: b[y * bp + x]), pw = RGBA8(argb: w[y * wp + x])
                            // white - black = (1 - α) × 255 in every channel; use the mean.
                            let diff = (Int(pw.r) - Int(pb.r) + Int(pw.g) - Int(pb.g) + Int(pw.b) - Int(pb.b)) / 3
                            let alpha = min(max(255 - diff, 0), 255)
                            func channel(_ v: UInt8) -> UInt32 {
                                alpha == 0 ? 0 : UInt32(min(Int(v) * 255 / alpha, 255))
                            }
                            out[y * pitch + x] = UInt32(alpha) << 24 | channel(pb.r) << 16 | channel(pb.g) << 8 | channel(pb.b)
                        }
                    }
                }
            }
        }
        return icon
    }

    private static func draw(size: Int, background: Color, library: TTFLibrary, assetsDirectory: String) throws(SDLError) -> Surface {
        let surface = try Surface(width: size, height: size)
        let renderer = try Renderer(surface: surface)
        let text = try TextRenderer(renderer: renderer, library: library, assetsDirectory: assetsDirectory)
        let painter = HeeButtonPainter(renderer: renderer, text: text)
        try renderer.clear(background)
        // The 170 × 180 frame plus the seed's 4 pt padding fills the square's height.
        let design = KeyboardLayout.heeDesignSize
        let k = Double(size) / (design.height + 2 * KeyboardLayout.heePadding)
        try painter.draw(origin: ((Double(size) - design.width * k) / 2, (Double(size) - design.height * k) / 2),
                         pixelsPerPoint: k, capPress: 0, counterText: HeeButtonModel().counterText)
        renderer.present()
        return surface
    }
}
