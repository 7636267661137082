import KeyboardCore

/// Draws a `Scene`: the host screen (seed 001) and, below it, the keyboard with the へぇ
/// button (seed 000), shift (seed 002) and the letter keys. Coordinates come in points and are
/// drawn at `pixelScale` pixels per point.
public final class SceneRenderer {
    /// Point sizes of the host screen's text (iOS: large title 34, body 17).
    static let titlePointSize = 34.0
    static let bodyPointSize = 17.0
    static let rowTextInset = 16.0
    static let listCornerRadius = 10.0
    /// The text field's caret: 2 pt wide, 22 pt tall, in the tint colour.
    static let caretWidth = 2.0
    static let caretHeight = 22.0

    public let renderer: Renderer
    public let text: TextRenderer
    let hee: HeeButtonPainter
    let keys: KeyPainter
    let bubbles: BubblePainter
    let kana: KanaPainter
    private let textField: TextFieldView
    private var card: (key: [Int], texture: Texture)?
    private var lastScale: Double?
    /// What does not change from frame to frame, drawn once into target textures: the host
    /// screen without its values, and the keyboard with every key up. Re-made when the
    /// layout, scale, language or shift state changes.
    private var hostLayer: (key: HostLayerKey, texture: Texture)?
    private var keyboardLayer: (key: KeyboardLayerKey, texture: Texture)?
    /// System mode's target line as last fitted: the text, the room it had (pixels) and the
    /// pixel scale, and what was shown (cut with "…" when it did not fit). Measured again only
    /// when one of them changes, not every frame.
    private var fittedTargetLine: (key: TargetLineKey, shown: String)?
    /// System mode's last frame: what it showed and where (for `drawChanges`).
    var lastSystemFrame: SystemFrame?

    private struct HostLayerKey: Hashable {
        var layout: KeyboardLayout, scale: Double, strings: HostScreenText
    }

    private struct TargetLineKey: Hashable {
        var text: String, room: Int, scale: Double
    }

    private struct KeyboardLayerKey: Hashable {
        var layout: KeyboardLayout, scale: Double, faces: [KeyID: KeyFace]
    }

    /// System mode's target line: 13 pt, inset like a list row's text.
    static let targetLinePointSize = 13.0

    public init(renderer: Renderer, text: TextRenderer) {
        self.renderer = renderer
        self.text = text
        hee = HeeButtonPainter(renderer: renderer, text: text)
        keys = KeyPainter(renderer: renderer, text: text)
        bubbles = BubblePainter(renderer: renderer, text: text)
        kana = KanaPainter(renderer: renderer, text: text)
        textField = TextFieldView(renderer: renderer, text: text)
    }

    /// Draws `scene` into the renderer's target (does not present).
    /// - Parameter pixelScale: pixels per point (renderer output size ÷ window size).
    /// - Throws: `SDLError` when a drawing call fails.
    public func draw(_ scene: Scene, pixelScale s: Double) throws(SDLError) {
        if lastScale != s {
            keys.reset()
            kana.reset()
            lastScale = s
        }
        lastSystemFrame = nil
        if scene.layout.mode == .system {
            // The keyboard alone, under the line that says where keys go.
            try drawSystemFrame(scene, s)
            return
        }
        if let pressed = scene.pressedHostControl, pressed.isButton {
            // A pressed button's highlight lies under its label: draw the screen directly.
            try drawHostStatic(scene, s)
        } else {
            let key = HostLayerKey(layout: scene.layout, scale: s, strings: scene.strings)
            let (w, h) = try renderer.outputSize()
            if hostLayer?.key != key {
                // Only as tall as the host screen's content; below it is plain background.
                let contentHeight = min(px(scene.layout.listFrame, s).y + px(scene.layout.listFrame, s).height
                                        + Int((Self.rowTextInset * s).rounded()), h)
                let texture = try Texture(renderer: renderer, targetWidth: w, height: contentHeight)
                try renderer.drawing(into: texture) { () throws(SDLError) in try drawHostStatic(scene, s) }
                hostLayer = (key, texture)
            }
            let layer = hostLayer!.texture
            try renderer.copy(layer, to: PixelRect(x: 0, y: 0, width: layer.width, height: layer.height))
            if layer.height < h {
                try renderer.fill(PixelRect(x: 0, y: layer.height, width: w, height: h - layer.height), Palette.hostBackground)
            }
        }
        try drawHostValues(scene, s)
        if scene.isKeyboardVisible { try drawKeyboard(scene, s) }
    }

    // MARK: Host screen

    /// Everything of the host screen that changes only with layout and language.
    private func drawHostStatic(_ scene: Scene, _ s: Double) throws(SDLError) {
        try renderer.clear(Palette.hostBackground)
        let layout = scene.layout
        // The large title shrinks to fit beside the navigation bar's button in narrow windows
        // (as key labels do: TextRenderer.style(fitting:)).
        let f = px(layout.titleFrame, s)
        let titleStyle = text.style(fitting: scene.strings.title, TextStyle(.bold, Self.titlePointSize, Palette.label),
                                    inWidth: f.width, pixelScale: s, minimumPoints: 1)
        if let title = try text.line(scene.strings.title, titleStyle, pixelScale: s) {
            try renderer.copy(title.texture, to: PixelRect(x: f.x, y: f.y + (f.height - title.height) / 2,
                                                           width: title.width, height: title.height))
        }

        let list = px(layout.listFrame, s)
        let radius = Int((Self.listCornerRadius * s).rounded())
        let cardKey = [list.width, list.height, radius]
        if card?.key != cardKey {
            let canvas = try VectorCanvas(width: list.width, height: list.height)
            canvas.fillRoundedRect(x: 0, y: 0, width: Double(list.width), height: Double(list.height),
                                   radius: Double(radius), Palette.row)
            card = (cardKey, try Texture(renderer: renderer, surface: try canvas.makeSurface()))
        }
        try renderer.copy(card!.texture, to: list)

        if let pressed = scene.pressedHostControl, pressed.isButton, pressed != .resetCount {
            // The pressed button's highlight, clipped so the card's rounded corners stay round.
            let row = px(layout.frame(of: pressed), s)
            let texture = card!.texture
            texture.tint(Palette.rowPressed)
            defer { texture.tint(.white) }
            try renderer.clipping(to: row) { () throws(SDLError) in
                try renderer.copy(texture, to: PixelRect(x: list.x, y: row.y + row.height - list.height,
                                                         width: list.width, height: list.height))
            }
        }

        let inset = Int((Self.rowTextInset * s).rounded())
        for row in [layout.statusRow, layout.sizeRow, layout.closeKeyboard, layout.volumeRow] {
            let r = px(row, s)
            try renderer.fill(PixelRect(x: r.x + inset, y: r.y, width: r.width - inset, height: max(Int((0.5 * s).rounded()), 1)),
                              Palette.separator)
        }

        let body = TextStyle(.regular, Self.bodyPointSize, Palette.label)
        let button = TextStyle(.regular, Self.bodyPointSize, Palette.tint)
        try drawRowText(scene.strings.statusLabel, body, in: layout.statusRow, s, trailing: false)
        try drawRowText(scene.strings.sizeLabel, body, in: layout.sizeRow, s, trailing: false)
        try drawRowText(scene.strings.closeKeyboard, button, in: layout.closeKeyboard, s, trailing: false)
        try drawRowText(scene.strings.volumeLabel, body, in: layout.volumeRow, s, trailing: false)
        let large = TextStyle(.regular, Self.bodyPointSize + 5, Palette.tint)
        for (control, symbol) in [(HostControl.volumeDown, "−"), (.volumeUp, "+")] {
            if let line = try text.line(symbol, large, pixelScale: s) {
                let r = px(layout.frame(of: control), s)
                try renderer.copy(line.texture, to: PixelRect(x: r.x + (r.width - line.width) / 2, y: r.y + (r.height - line.height) / 2,
                                                              width: line.width, height: line.height))
            }
        }
        // The navigation bar's trailing button.
        let reset = TextStyle(.regular, Self.bodyPointSize, scene.pressedHostControl == .resetCount ? Palette.secondaryLabel : Palette.tint)
        try drawRowText(scene.strings.resetCount, reset, in: layout.resetCount, s, trailing: true)
    }

    /// The host screen's changing parts: the text field and the rows' values.
    private func drawHostValues(_ scene: Scene, _ s: Double) throws(SDLError) {
        let layout = scene.layout
        let secondary = TextStyle(.regular, Self.bodyPointSize, Palette.secondaryLabel)
        try drawTextField(scene, s)
        try drawRowText(scene.statusText, secondary, in: layout.statusRow, s, trailing: true)
        try drawRowText(scene.sizeText, secondary, in: layout.sizeRow, s, trailing: true)
        let valueArea = Rect(x: layout.volumeRow.x, y: layout.volumeRow.y,
                             width: layout.volumeDown.minX - layout.volumeRow.x + Self.rowTextInset, height: layout.volumeRow.height)
        try drawRowText("\(scene.volume)", secondary, in: valueArea, s, trailing: true)
    }

    private func drawRowText(_ string: String, _ style: TextStyle, in row: Rect, _ s: Double, trailing: Bool) throws(SDLError) {
        guard let line = try text.line(string, style, pixelScale: s) else { return }
        let r = px(row, s)
        let inset = Int((Self.rowTextInset * s).rounded())
        let x = trailing ? r.x + r.width - inset - line.width : r.x + inset
        try renderer.copy(line.texture, to: PixelRect(x: x, y: r.y + (r.height - line.height) / 2,
                                                      width: line.width, height: line.height))
    }

    /// The text field: the placeholder when empty and unfocused; otherwise its text,
    /// selection, composition and caret (an empty focused field draws only its caret).
    private func drawTextField(_ scene: Scene, _ s: Double) throws(SDLError) {
        if scene.text.isEmpty && !scene.isTextFieldFocused {
            try drawRowText(scene.strings.placeholder, TextStyle(.regular, Self.bodyPointSize, Palette.secondaryLabel),
                            in: scene.layout.textField, s, trailing: false)
            textField.forget()
            return
        }
        let field = px(scene.layout.textField, s)
        let inset = Int((Self.rowTextInset * s).rounded())
        let content = PixelRect(x: field.x + inset, y: field.y, width: field.width - 2 * inset, height: field.height)
        try textField.draw(scene, content: content, style: TextStyle(.regular, Self.bodyPointSize, Palette.label),
                           caretSize: (max(Int((Self.caretWidth * s).rounded()), 1), Int((Self.caretHeight * s).rounded())),
                           selectionColor: Palette.selection, s: s)
    }

    /// The Character offset under `x` (pixels) in the text field as last drawn.
    public func textFieldCharacterOffset(atX x: Double) -> Int { textField.characterOffset(atX: x) }

    /// The Character under `x` (pixels): the one a double click selects the word of.
    public func textFieldCharacterIndex(atX x: Double) -> Int { textField.characterIndex(atX: x) }

    /// The caret's rectangle in pixels as last drawn (for the input method's candidate
    /// window), or `nil` when the field is not focused.
    public var caretRect: PixelRect? { textField.caretRect }

    // MARK: System mode

    /// The line naming the window keys go to, left-aligned, cut with "…" to fit; while the
    /// kana pad composes, its composition instead, underlined (only committed text goes out).
    func drawTargetLine(_ scene: Scene, _ s: Double) throws(SDLError) {
        let area = px(scene.layout.targetLine, s)
        let inset = Int((Self.rowTextInset * s).rounded())
        if let composed = scene.kanaComposition {
            return try kana.drawComposition(composed, in: PixelRect(x: area.x + inset, y: area.y, width: area.width - 2 * inset,
                                                                    height: area.height), s: s)
        }
        let style = TextStyle(.regular, Self.targetLinePointSize, Palette.secondaryLabel)
        let room = area.width - 2 * inset
        let key = TargetLineKey(text: scene.targetLine, room: room, scale: s)
        if fittedTargetLine?.key != key {
            var shown = scene.targetLine
            if text.width(of: shown, style, pixelScale: s) > room {
                // The longest prefix that fits with the ellipsis (binary search over Characters).
                let characters = Array(scene.targetLine)
                var low = 0, high = characters.count
                while low < high {
                    let mid = (low + high + 1) / 2
                    if text.width(of: String(characters[..<mid]) + "…", style, pixelScale: s) <= room { low = mid } else { high = mid - 1 }
                }
                shown = String(characters[..<low]) + "…"
            }
            fittedTargetLine = (key, shown)
        }
        guard let shown = fittedTargetLine?.shown, let line = try text.line(shown, style, pixelScale: s) else { return }
        try renderer.copy(line.texture, to: PixelRect(x: area.x + inset, y: area.y + (area.height - line.height) / 2,
                                                      width: line.width, height: line.height))
    }

    // MARK: Keyboard

    private func drawKeyboard(_ scene: Scene, _ s: Double) throws(SDLError) {
        let faces = scene.faces
        try drawKeyboardLayer(scene, s, faces)
        for item in keyboardItems(scene, s, faces) { try item.draw() }
    }

    /// The keyboard with every key up: one copy of a texture drawn once per layout, scale and
    /// faces (the へぇ button is drawn over it, see `keyboardItems`). `faces`: the scene's
    /// (`Scene.faces`, worked out once per frame).
    func drawKeyboardLayer(_ scene: Scene, _ s: Double, _ faces: [KeyID: KeyFace]) throws(SDLError) {
        let layout = scene.layout
        let frame0 = px(layout.keyboardFrame, s)
        let key = KeyboardLayerKey(layout: layout, scale: s, faces: faces)
        if keyboardLayer?.key != key {
            // The keyboard with every key up, drawn with its top-left at the layer's origin.
            let texture = try Texture(renderer: renderer, targetWidth: frame0.width, height: frame0.height)
            try renderer.drawing(into: texture) { () throws(SDLError) in
                try renderer.clear(Palette.keyboardBackground)
                for key in layout.orderedKeys where key != .hee {
                    guard let rect = layout.keys[key], let face = faces[key] else { continue }
                    let r = px(rect, s)
                    try keys.draw(face, in: PixelRect(x: r.x - frame0.x, y: r.y - frame0.y, width: r.width, height: r.height),
                                  s: s, pressed: false)
                }
            }
            keyboardLayer = (key, texture)
        }
        let shift = Int((scene.keyboardOffset * s).rounded())
        try renderer.copy(keyboardLayer!.texture, to: PixelRect(x: frame0.x, y: frame0.y + shift,
                                                               width: frame0.width, height: frame0.height))
    }

    /// Points → pixels, edges rounded so that adjacent rectangles stay adjacent.
    func px(_ r: Rect, _ s: Double) -> PixelRect {
        let x0 = Int((r.minX * s).rounded()), y0 = Int((r.minY * s).rounded())
        let x1 = Int((r.maxX * s).rounded()), y1 = Int((r.maxY * s).rounded())
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
