import KeyboardCore

/// Draws iOS's alternates bubble: a white balloon rising from the held key with its choices
/// in a row, the highlighted one on the tint colour in white.
final class BubblePainter {
    /// The choices' size in points, and the highlight's inset inside its cell.
    static let pointSize = 22.0
    static let highlightInset = 3.0
    static let cornerRadius = 8.0
    /// The concave corners where the stem over the key leaves the row of choices (points).
    static let filletRadius = 6.0

    private let renderer: Renderer
    private let text: TextRenderer

    init(renderer: Renderer, text: TextRenderer) {
        self.renderer = renderer
        self.text = text
    }

    /// Draws `bubble` over the key at `key` (pixels) at `s` pixels per point; `px` turns the
    /// bubble's points into pixels (with the keyboard's slide applied).
    /// - Throws: `SDLError` when drawing fails.
    func draw(_ bubble: AlternatesBubble, key: PixelRect, s: Double, px: (Rect) -> PixelRect) throws(SDLError) {
        let outline = px(bubble.frame)
        let shadow = Int(s.rounded(.up))
        let left = min(outline.x, key.x), right = max(outline.x + outline.width, key.x + key.width)
        let canvas = try VectorCanvas(width: right - left, height: key.y + key.height - outline.y + shadow)
        func shape(_ color: Color) {
            canvas.fillBubble(width: Double(outline.width), height: Double(outline.height),
                              stemX: Double(key.x - outline.x), stemWidth: Double(key.width),
                              stemBottom: Double(key.y + key.height - outline.y),
                              radius: Self.cornerRadius * s, stemRadius: KeyPainter.keyCornerRadius * s,
                              fillet: Self.filletRadius * s, color)
        }
        canvas.withOffset(dx: Double(outline.x - left), dy: Double(shadow)) { shape(Palette.keyShadow) }
        canvas.withOffset(dx: Double(outline.x - left), dy: 0) { shape(Palette.key) }
        if let selected = bubble.selected {
            let cell = px(bubble.choices[selected].frame)
            let inset = Self.highlightInset * s
            canvas.fillRoundedRect(x: Double(cell.x - left) + inset, y: Double(cell.y - outline.y) + inset,
                                   width: Double(cell.width) - 2 * inset, height: Double(cell.height) - 2 * inset,
                                   radius: KeyPainter.keyCornerRadius * s, Palette.tint)
        }
        let texture = try Texture(renderer: renderer, surface: try canvas.makeSurface())
        try renderer.copy(texture, to: PixelRect(x: left, y: outline.y, width: texture.width, height: texture.height))
        for (i, choice) in bubble.choices.enumerated() {
            let color = i == bubble.selected ? Color.white : Palette.keyLabel
            guard let line = try text.line(choice.text, TextStyle(.regular, Self.pointSize, color), pixelScale: s) else { continue }
            let cell = px(choice.frame)
            try renderer.copy(line.texture, to: PixelRect(x: cell.x + (cell.width - line.width) / 2,
                                                          y: cell.y + (cell.height - line.height) / 2,
                                                          width: line.width, height: line.height))
        }
    }
}
