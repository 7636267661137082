import CSDL
import KeyboardCore

/// Draws seed 000's へぇ button: shadow, cap, bands, dots, laurels, labels and counter, in
/// the seed's order (the cap first, so it sinks into the body when pressed).
///
/// Shapes are rasterised anti-aliased once per pixel scale and kept as textures; the cap is
/// a white ellipse tinted per frame, so its press animation costs no re-rasterising.
final class HeeButtonPainter {
    private struct Cache {
        var pixelsPerPoint: Double
        var capMask: Texture
        var capShadow: (Texture, margin: Int)
        var body: Texture
        var bodyShadow: (Texture, margin: Int)
    }

    private let renderer: Renderer
    private let text: TextRenderer
    private var cache: Cache?

    init(renderer: Renderer, text: TextRenderer) {
        self.renderer = renderer
        self.text = text
    }

    /// Draws the button with its 170 × 180 frame's top-left at `origin` (pixels), scaled by
    /// `k` pixels per design point.
    /// - Throws: `SDLError` when drawing fails.
    func draw(origin: (x: Double, y: Double), pixelsPerPoint k: Double, capPress: Double,
              counterText: String, isFull: Bool = false) throws(SDLError) {
        let c = try textures(for: k)
        func px(_ v: Double) -> Int { Int(v.rounded()) }
        func place(_ r: Rect) -> PixelRect {
            let x0 = px(origin.x + r.x * k), y0 = px(origin.y + r.y * k)
            return PixelRect(x: x0, y: y0, width: px(origin.x + r.maxX * k) - x0, height: px(origin.y + r.maxY * k) - y0)
        }

        // 1. The shadow of the whole button (body, and the cap where it is).
        let bodyBox = place(Rect(x: 0, y: 0, width: HeeButtonGeometry.frame.width, height: HeeButtonGeometry.frame.height))
        let bm = c.bodyShadow.margin
        try renderer.copy(c.bodyShadow.0, to: PixelRect(x: bodyBox.x - bm, y: bodyBox.y - bm,
                                                          width: c.bodyShadow.0.width, height: c.bodyShadow.0.height))
        let capRect = HeeButtonGeometry.capRect(press: capPress)
        let capBox = PixelRect(x: px(origin.x + capRect.x * k) - 1, y: px(origin.y + capRect.y * k) - 1,
                               width: c.capMask.width, height: c.capMask.height)
        let cm = c.capShadow.margin
        try renderer.copy(c.capShadow.0, to: PixelRect(x: capBox.x - cm, y: capBox.y - cm,
                                                         width: c.capShadow.0.width, height: c.capShadow.0.height))
        // 2. The cap: seed 000's topColor at rest, highlightColor while touched (both 0.7 opaque).
        c.capMask.tint(Palette.top.mixed(with: Palette.highlight, capPress))
        try renderer.copy(c.capMask, to: capBox)
        // 3. The bands and dots.
        try renderer.copy(c.body, to: PixelRect(x: bodyBox.x, y: bodyBox.y, width: c.body.width, height: c.body.height))
        // 4. Laurels, labels and counter on the bottom band.
        try drawBottomBandContents(origin: origin, k: k, counterText: counterText, isFull: isFull)
    }

    private func drawBottomBandContents(origin: (x: Double, y: Double), k: Double, counterText: String,
                                        isFull: Bool) throws(SDLError) {
        let g = HeeButtonGeometry.self
        let centerX = origin.x + g.bottomBand.midX * k
        let centerY = origin.y + g.bottomBand.midY * k

        // Laurels: ink boxes 35 pt either side of the centre (HStack spacing 70), as tall as
        // the .largeTitle point size (an SF Symbol stands about as tall as its font size).
        let laurelPixels = try laurelPixelSize(inkHeight: g.laurelPointSize * k)
        let laurelStyle = TextStyle(.laurel, Double(laurelPixels), Palette.highlight)
        let laurelFont = try text.bundledFont(.laurel, pixels: laurelPixels)
        for (scalar, leading) in [(FontFace.laurelLeading, true), (FontFace.laurelTrailing, false)] {
            guard let m = laurelFont.glyphMetrics(scalar),
                  let line = try text.line(String(Character(scalar)), laurelStyle, pixelScale: 1) else { continue }
            let inkWidth = m.maxX - m.minX, inkHeight = m.maxY - m.minY
            let halfGap = g.laurelSpacing / 2 * k
            let inkX = leading ? centerX - halfGap - Double(inkWidth) : centerX + halfGap
            let inkY = centerY - Double(inkHeight) / 2
            let source = PixelRect(x: max(m.minX, 0), y: line.ascent - m.maxY, width: inkWidth, height: inkHeight)
            try renderer.copy(line.texture, from: source,
                              to: PixelRect(x: Int(inkX.rounded()), y: Int(inkY.rounded()), width: inkWidth, height: inkHeight))
        }

        // Labels and counter: HStack { へぇ (clear) · counter · へぇ }, centred.
        let labelStyle = TextStyle(.regular, g.labelPointSize * k, Palette.middle)
        let labelWidth = Double(text.width(of: g.label, labelStyle, pixelScale: 1))
        // At the show's limit the visible label reads 「満へぇ」 (full); the layout keeps the
        // seed's widths so the counter does not move.
        let visibleLabel = isFull ? g.fullLabel : g.label
        let counterStyle = TextStyle(.mono, g.counterPointSize * k, Palette.counterDigits)
        let digitsWidth = Double(text.width(of: "00", counterStyle, pixelScale: 1))
        let digitsHeight = Double(text.lineHeight(counterStyle, pixelScale: 1))
        let boxWidth = digitsWidth + 2 * g.counterPadding * k
        let spacing = g.labelSpacing * k
        let total = 2 * labelWidth + boxWidth + 2 * spacing
        let x0 = centerX - total / 2

        // The first label is drawn in `.clear` by the seed: it only balances the row.
        let boxX = x0 + labelWidth + spacing
        let box = PixelRect(x: Int(boxX.rounded()), y: Int((centerY - digitsHeight / 2).rounded()),
                            width: Int(boxWidth.rounded()), height: Int(digitsHeight.rounded()))
        try renderer.fill(box, Palette.counterBox)
        if let digits = try text.line(counterText, counterStyle, pixelScale: 1) {
            // Right-aligned like "%2d"; clipped so nothing ever leaves the black box.
            let dx = box.x + box.width - Int((g.counterPadding * k).rounded()) - digits.width
            try renderer.clipping(to: box) { () throws(SDLError) in
                try renderer.copy(digits.texture, to: PixelRect(x: dx, y: box.y + (box.height - digits.height) / 2,
                                                                width: digits.width, height: digits.height))
            }
        }
        if let label = try text.line(visibleLabel, labelStyle, pixelScale: 1) {
            let labelX = boxX + boxWidth + spacing
            let bottom = centerY + g.labelFrameHeight / 2 * k
            try renderer.copy(label.texture, to: PixelRect(x: Int(labelX.rounded()), y: Int(bottom.rounded()) - label.height,
                                                           width: label.width, height: label.height))
        }
    }

    /// The laurel font's size in pixels whose glyphs' ink is `inkHeight` pixels tall.
    private func laurelPixelSize(inkHeight: Double) throws(SDLError) -> Int {
        if laurelInkRatio == nil {
            // Measured once on a face that is closed again (not kept in the font cache).
            let reference = 100
            let font = try text.temporaryFont(.laurel, pixels: reference)
            if let m = font.glyphMetrics(FontFace.laurelLeading), m.maxY > m.minY {
                laurelInkRatio = Double(m.maxY - m.minY) / Double(reference)
            } else {
                laurelInkRatio = 1
            }
        }
        return max(Int((inkHeight / (laurelInkRatio ?? 1)).rounded()), 1)
    }

    /// Ink height ÷ pixel size of the laurel glyphs.
    private var laurelInkRatio: Double?

    private func textures(for k: Double) throws(SDLError) -> Cache {
        if let cache, cache.pixelsPerPoint == k { return cache }
        let g = HeeButtonGeometry.self
        let radius = g.shadowRadius * k

        // Cap: a white ellipse with a 1 px transparent border, tinted when drawn.
        let capCanvas = try VectorCanvas(width: Int((g.cap.width * k).rounded(.up)) + 2,
                                         height: Int((g.cap.height * k).rounded(.up)) + 2)
        capCanvas.fillEllipse(x: 1, y: 1, width: g.cap.width * k, height: g.cap.height * k, .white)
        let capSurface = try capCanvas.makeSurface()
        let capShadow = try ShadowMaker.shadow(of: capSurface, radius: radius,
                                               opacity: Palette.shadow.opacity * Palette.top.opacity)

        // Body: the two bands and the five dots.
        let bodyCanvas = try VectorCanvas(width: Int((g.frame.width * k).rounded(.up)),
                                          height: Int((g.frame.height * k).rounded(.up)))
        let mb = g.middleBand, bb = g.bottomBand
        bodyCanvas.fillRoundedRect(x: mb.x * k, y: mb.y * k, width: mb.width * k, height: mb.height * k, radius: 0, Palette.middle)
        bodyCanvas.fillRoundedRect(x: bb.x * k, y: bb.y * k, width: bb.width * k, height: bb.height * k, radius: 0, Palette.bottom)
        for i in 0..<g.dotCount {
            let c = g.dotCenter(i), d = g.dotDiameter
            bodyCanvas.fillEllipse(x: (c.x - d / 2) * k, y: (c.y - d / 2) * k, width: d * k, height: d * k, Palette.dot)
        }
        let bodySurface = try bodyCanvas.makeSurface()
        let bodyShadow = try ShadowMaker.shadow(of: bodySurface, radius: radius, opacity: Palette.shadow.opacity)

        let made = Cache(pixelsPerPoint: k,
                         capMask: try Texture(renderer: renderer, surface: capSurface),
                         capShadow: (try Texture(renderer: renderer, surface: capShadow.0), capShadow.margin),
                         body: try Texture(renderer: renderer, surface: bodySurface),
                         bodyShadow: (try Texture(renderer: renderer, surface: bodyShadow.0), bodyShadow.margin))
        cache = made
        return made
    }
}
