import KeyboardCore

/// Draws the kana pad's own parts (issue 22): the flick guide over a held flick key and the
/// candidate bar across the top of the keyboard.
///
/// The flick guide is iOS's cross: the held key's tile with the kana it types now, and a tile
/// of the key's size beside it in each direction that has a kana (left い, up う, right え,
/// down お for あ); the tile the finger points to is drawn in the tint colour with a white
/// label, the others white. The candidate bar shows its cells' texts, separated by thin
/// lines; the candidate chosen with 次候補 stands on a white key-like tile.
final class KanaPainter {
    /// The guide's kana size in points (as the keys' labels).
    static let guidePointSize = 24.0
    /// Gap between the guide's tiles (points).
    static let guideGap = 2.0

    private let renderer: Renderer
    private let text: TextRenderer
    private var tiles: [TileKey: Texture] = [:]
    private struct TileKey: Hashable { var width: Int, height: Int, radius: Int, color: Color, shadow: Int }
    /// Texts' styles as fitted to their room (measured once per text, style and room, not
    /// every frame).
    private var fitted: [FitKey: TextStyle] = [:]
    private struct FitKey: Hashable { var text: String, style: TextStyle, room: Int }

    init(renderer: Renderer, text: TextRenderer) {
        self.renderer = renderer
        self.text = text
    }

    /// Forgets textures made for another pixel scale.
    func reset() {
        tiles = [:]
        fitted = [:]
    }

    /// `style` shrunk so `label` fits `room` pixels (down to 10 pt), remembered.
    private func fit(_ label: String, _ style: TextStyle, room: Int, s: Double) -> TextStyle {
        let key = FitKey(text: label, style: style, room: room)
        if let known = fitted[key] { return known }
        if fitted.count > 512 { fitted = [:] }
        let result = text.style(fitting: label, style, inWidth: room, pixelScale: s, minimumPoints: 10)
        fitted[key] = result
        return result
    }

    /// Draws `guide` around the key at `key` (pixels) at `s` pixels per point; a tile that
    /// would stick out of `bounds` (the keyboard, pixels) sideways is moved in.
    /// - Throws: `SDLError` when drawing fails.
    func drawGuide(_ guide: FlickGuide, key: PixelRect, bounds: PixelRect, s: Double) throws(SDLError) {
        let gap = Int((Self.guideGap * s).rounded())
        func tile(_ direction: FlickDirection) -> PixelRect {
            var r = place(direction)
            r.x = min(max(r.x, bounds.x), bounds.x + bounds.width - r.width)
            return r
        }
        func place(_ direction: FlickDirection) -> PixelRect {
            switch direction {
            case .center: key
            case .left: PixelRect(x: key.x - key.width - gap, y: key.y, width: key.width, height: key.height)
            case .right: PixelRect(x: key.x + key.width + gap, y: key.y, width: key.width, height: key.height)
            case .up: PixelRect(x: key.x, y: key.y - key.height - gap, width: key.width, height: key.height)
            case .down: PixelRect(x: key.x, y: key.y + key.height + gap, width: key.width, height: key.height)
            }
        }
        // The centre tile shows what lifting there gives (the tap kana; for 「゛゜小」 the next
        // form), or nothing.
        for direction in [FlickDirection.center] + FlickDirection.outward {
            guard let kana = guide.targets[direction] else {
                if direction == .center { try drawTile(tile(.center), selected: guide.selected == .center, label: nil, s: s) }
                continue
            }
            try drawTile(tile(direction), selected: guide.selected == direction, label: kana, s: s)
        }
    }

    private func drawTile(_ r: PixelRect, selected: Bool, label: String?, s: Double) throws(SDLError) {
        let shadow = Int(s.rounded(.up))
        let key = TileKey(width: r.width, height: r.height, radius: Int((KeyPainter.keyCornerRadius * s).rounded()),
                          color: selected ? Palette.tint : Palette.key, shadow: shadow)
        let texture: Texture
        if let cached = tiles[key] {
            texture = cached
        } else {
            let canvas = try VectorCanvas(width: r.width, height: r.height + shadow)
            let radius = Double(key.radius)
            canvas.fillRoundedRect(x: 0, y: Double(shadow), width: Double(r.width), height: Double(r.height), radius: radius,
                                   Palette.keyShadow)
            canvas.fillRoundedRect(x: 0, y: 0, width: Double(r.width), height: Double(r.height), radius: radius, key.color)
            texture = try Texture(renderer: renderer, surface: try canvas.makeSurface())
            tiles[key] = texture
        }
        try renderer.copy(texture, to: PixelRect(x: r.x, y: r.y, width: texture.width, height: texture.height))
        guard let label else { return }
        let style = TextStyle(.regular, Self.guidePointSize, selected ? .white : Palette.keyLabel)
        guard let line = try text.line(label, fit(label, style, room: r.width - Int((4 * s).rounded()), s: s), pixelScale: s)
        else { return }
        try renderer.copy(line.texture, to: PixelRect(x: r.x + (r.width - line.width) / 2, y: r.y + (r.height - line.height) / 2,
                                                      width: line.width, height: line.height))
    }

    /// Draws the kana pad's composition left-aligned in `area` (pixels), underlined as an input
    /// method's is: system mode's line above the keys, while composing.
    /// - Throws: `SDLError` when drawing fails.
    func drawComposition(_ composed: String, in area: PixelRect, s: Double) throws(SDLError) {
        let style = TextStyle(.regular, Self.compositionPointSize, Palette.keyLabel)
        guard let line = try text.line(composed, fit(composed, style, room: area.width, s: s), pixelScale: s) else { return }
        let top = area.y + (area.height - line.height) / 2
        try renderer.clipping(to: area) { () throws(SDLError) in
            try renderer.copy(line.texture, to: PixelRect(x: area.x, y: top, width: line.width, height: line.height))
            let thickness = max(Int(s.rounded()), 1)
            try renderer.fill(PixelRect(x: area.x, y: top + line.ascent + 2 * thickness, width: min(line.width, area.width),
                                        height: thickness), Palette.keyLabel)
        }
    }

    /// The composition's size in system mode's line (points).
    static let compositionPointSize = 17.0

    /// Draws `bar`, with its cells' rectangles turned into pixels by `px` (which applies the
    /// keyboard's slide).
    /// - Throws: `SDLError` when drawing fails.
    func drawCandidateBar(_ bar: CandidateBar, s: Double, px: (Rect) -> PixelRect) throws(SDLError) {
        let frame = px(bar.frame)
        let line = max(Int((0.5 * s).rounded()), 1)
        // A hairline under the bar sets it off from the keys.
        try renderer.fill(PixelRect(x: frame.x, y: frame.y + frame.height - line, width: frame.width, height: line), Palette.keyShadow)
        let inset = Int((4 * s).rounded())
        for (i, cell) in bar.cells.enumerated() {
            let r = px(cell.frame)
            if cell.index == bar.selected {
                try drawTile(PixelRect(x: r.x + inset / 2, y: r.y + inset, width: r.width - inset, height: r.height - 2 * inset),
                             selected: false, label: nil, s: s)
            }
            if i > 0 {
                try renderer.fill(PixelRect(x: r.x, y: r.y + 2 * inset, width: line, height: r.height - 4 * inset), Palette.separator)
            }
            let style = TextStyle(.regular, CandidateBar.pointSize, Palette.keyLabel)
            let room = r.width - 2 * Int((CandidateBar.cellPadding / 2 * s).rounded())
            guard let label = try text.line(cell.text, fit(cell.text, style, room: room, s: s), pixelScale: s) else { continue }
            try renderer.copy(label.texture, to: PixelRect(x: r.x + (r.width - label.width) / 2, y: r.y + (r.height - label.height) / 2,
                                                           width: label.width, height: label.height))
        }
    }
}
