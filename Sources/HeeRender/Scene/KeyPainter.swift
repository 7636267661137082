import KeyboardCore

/// Draws the keyboard's backdrop and keys: rounded key caps with a 1 pt shadow below, their
/// labels, and the shift and backspace icons. Key caps and icons are rasterised once per
/// size and pixel scale and reused. A label too wide for its key (「return」 on a 320 pt wide
/// system-mode keyboard) is drawn smaller, as iOS shrinks key labels.
final class KeyPainter {
    private struct CapKey: Hashable { var width: Int; var height: Int; var radius: Int; var color: Color }
    private struct IconKey: Hashable { var icon: KeyIcon; var pixels: Int }
    private struct FitKey: Hashable { var text: String; var style: TextStyle; var room: Int }
    private struct CalloutKey: Hashable {
        var width: Int, balloonHeight: Int, neck: Int, stemX: Int, stemWidth: Int, stemHeight: Int
    }

    /// Corner radius of letter keys (iOS: 5 pt); seed 002 gives the shift key 8 pt.
    static let keyCornerRadius = 5.0
    static let shiftCornerRadius = 8.0
    /// Letter labels' size in points.
    static let letterPointSize = 22.0
    static let spacePointSize = 16.0
    static let spaceLabel = "space"
    /// The least room kept between a label and each side of its key, in points; a label
    /// wider than its key minus twice this is shrunk to fit.
    static let labelInset = 2.0
    /// The smallest size a label is shrunk to, in points.
    static let minimumLabelPointSize = 10.0
    /// The return key's label (system mode), in the scene's language.
    var returnLabel = "return"

    private let renderer: Renderer
    private let text: TextRenderer
    private var caps: [CapKey: Texture] = [:]
    private var icons: [IconKey: Texture] = [:]
    private var callouts: [CalloutKey: Texture] = [:]
    /// Labels' styles as fitted to their keys (measured once per text, style and room).
    private var fittedStyles: [FitKey: TextStyle] = [:]

    init(renderer: Renderer, text: TextRenderer) {
        self.renderer = renderer
        self.text = text
    }

    /// Forgets textures made for another pixel scale.
    func reset() {
        caps = [:]
        icons = [:]
        callouts = [:]
        fittedStyles = [:]
    }

    /// Draws `key` in `rect` (pixels) at `s` pixels per point.
    /// - Throws: `SDLError` when drawing fails.
    func draw(_ key: KeyID, in rect: PixelRect, s: Double, pressed: Bool, shift: ShiftState,
              upperCase: Bool) throws(SDLError) {
        let background: Color
        let radius: Double
        switch key {
        case .shift:
            background = shift == .off ? Palette.specialKey : Palette.key
            radius = Self.shiftCornerRadius
        case .backspace, .return:
            background = pressed ? Palette.key : Palette.specialKey
            radius = Self.keyCornerRadius
        default:
            background = pressed ? Palette.keyPressed : Palette.key
            radius = Self.keyCornerRadius
        }
        let cap = try capTexture(width: rect.width, height: rect.height, radius: Int((radius * s).rounded()),
                                 color: background, shadow: Int(s.rounded(.up)))
        try renderer.copy(cap, to: PixelRect(x: rect.x, y: rect.y, width: cap.width, height: cap.height))

        switch key {
        case .letter(let letter):
            try drawLabel(Self.label(letter, upperCase: upperCase), points: Self.letterPointSize, in: rect, s: s)
        case .space:
            try drawLabel(Self.spaceLabel, points: Self.spacePointSize, in: rect, s: s)
        case .return:
            try drawLabel(returnLabel, points: Self.spacePointSize, in: rect, s: s)
        case .shift:
            try drawIcon(.shift(shift), in: rect, s: s)
        case .backspace:
            try drawIcon(.deleteLeft, in: rect, s: s)
        case .hee:
            break
        }
    }

    /// A letter key's label in the case it types.
    static func label(_ letter: Character, upperCase: Bool) -> String {
        upperCase ? String(letter).uppercased() : String(letter).lowercased()
    }

    /// The callout iOS shows above a pressed letter key: a white balloon rising from the
    /// key with the letter enlarged, in the case it will type. `key` is the key's rectangle
    /// and `bounds` the keyboard's (both pixels); the balloon stays inside `bounds` sideways.
    func drawCallout(_ letter: Character, key: PixelRect, bounds: PixelRect, s: Double, upperCase: Bool) throws(SDLError) {
        let grow = Int((Self.calloutWiden * s).rounded())
        let balloonHeight = Int((Self.calloutHeight * s).rounded())
        let neck = Int((Self.calloutNeck * s).rounded())
        let width = key.width + 2 * grow
        let x = min(max(key.x - grow, bounds.x), bounds.x + bounds.width - width)
        let top = key.y - balloonHeight - neck
        let shadow = Int(s.rounded(.up))
        let shape = CalloutKey(width: width, balloonHeight: balloonHeight, neck: neck, stemX: key.x - x,
                               stemWidth: key.width, stemHeight: key.height)
        let texture: Texture
        if let cached = callouts[shape] {
            texture = cached
        } else {
            let canvas = try VectorCanvas(width: width, height: balloonHeight + neck + key.height + shadow)
            func outline(_ color: Color) {
                canvas.fillCallout(balloonWidth: Double(width), balloonHeight: Double(balloonHeight), neck: Double(neck),
                                   stemX: Double(shape.stemX), stemWidth: Double(key.width),
                                   radius: Self.calloutCornerRadius * s, stemRadius: Self.keyCornerRadius * s, color)
            }
            canvas.withOffset(dx: 0, dy: Double(shadow)) { outline(Palette.keyShadow) }
            outline(Palette.key)
            texture = try Texture(renderer: renderer, surface: try canvas.makeSurface())
            callouts[shape] = texture
        }
        try renderer.copy(texture, to: PixelRect(x: x, y: top, width: texture.width, height: texture.height))
        let style = TextStyle(.regular, Self.calloutPointSize, Palette.keyLabel)
        if let line = try text.line(Self.label(letter, upperCase: upperCase), style, pixelScale: s) {
            try center(line, in: PixelRect(x: x, y: top, width: width, height: balloonHeight))
        }
    }

    /// Callout metrics in points.
    static let calloutWiden = 10.0
    static let calloutHeight = 52.0
    static let calloutNeck = 10.0
    static let calloutCornerRadius = 8.0
    static let calloutPointSize = 34.0

    /// Draws `label` centred in the key `rect` (pixels) at `points`, or smaller if that is
    /// wider than the key minus `labelInset` on each side (down to `minimumLabelPointSize`;
    /// a label still too wide there is cut at both ends to the room, never drawn over the
    /// key's edges).
    private func drawLabel(_ label: String, points: Double, in rect: PixelRect, s: Double) throws(SDLError) {
        let room = rect.width - 2 * Int((Self.labelInset * s).rounded())
        let natural = TextStyle(.regular, points, Palette.keyLabel)
        let key = FitKey(text: label, style: natural, room: room)
        let style: TextStyle
        if let cached = fittedStyles[key] {
            style = cached
        } else {
            style = text.style(fitting: label, natural, inWidth: room, pixelScale: s, minimumPoints: Self.minimumLabelPointSize)
            fittedStyles[key] = style
        }
        guard let line = try text.line(label, style, pixelScale: s) else { return }
        guard line.width > room, room > 0 else { return try center(line, in: rect) }
        try renderer.copy(line.texture, from: PixelRect(x: (line.width - room) / 2, y: 0, width: room, height: line.height),
                          to: PixelRect(x: rect.x + (rect.width - room) / 2, y: rect.y + (rect.height - line.height) / 2,
                                        width: room, height: line.height))
    }

    private func center(_ line: TextRenderer.Line, in rect: PixelRect) throws(SDLError) {
        try renderer.copy(line.texture, to: PixelRect(x: rect.x + (rect.width - line.width) / 2,
                                                      y: rect.y + (rect.height - line.height) / 2,
                                                      width: line.width, height: line.height))
    }

    private func drawIcon(_ icon: KeyIcon, in rect: PixelRect, s: Double) throws(SDLError) {
        let pixels = Int((KeyIcon.size * s).rounded(.up))
        let key = IconKey(icon: icon, pixels: pixels)
        let texture: Texture
        if let cached = icons[key] {
            texture = cached
        } else {
            let canvas = try VectorCanvas(width: pixels, height: pixels)
            icon.draw(on: canvas, k: Double(pixels) / KeyIcon.size, color: Palette.keyLabel)
            texture = try Texture(renderer: renderer, surface: try canvas.makeSurface())
            icons[key] = texture
        }
        try renderer.copy(texture, to: PixelRect(x: rect.x + (rect.width - pixels) / 2, y: rect.y + (rect.height - pixels) / 2,
                                                 width: pixels, height: pixels))
    }

    /// A key cap `width` × `height` pixels plus `shadow` pixels of shadow below.
    private func capTexture(width: Int, height: Int, radius: Int, color: Color, shadow: Int) throws(SDLError) -> Texture {
        let key = CapKey(width: width, height: height, radius: radius, color: color)
        if let cached = caps[key] { return cached }
        let canvas = try VectorCanvas(width: width, height: height + shadow)
        let r = Double(radius)
        canvas.fillRoundedRect(x: 0, y: Double(shadow), width: Double(width), height: Double(height), radius: r, Palette.keyShadow)
        canvas.fillRoundedRect(x: 0, y: 0, width: Double(width), height: Double(height), radius: r, color)
        let texture = try Texture(renderer: renderer, surface: try canvas.makeSurface())
        caps[key] = texture
        return texture
    }
}
