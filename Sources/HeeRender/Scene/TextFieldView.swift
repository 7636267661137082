import KeyboardCore

/// Draws the single-line text field: the visible part of its text, the selection, the input
/// method's composition (underlined, at the caret), and the caret; and maps a click's x back
/// to a character offset.
///
/// Only a window of characters around the caret is laid out and drawn, so the cost of a
/// frame does not grow with the text: a field holding 100,000 characters draws as fast as
/// one holding ten. The field scrolls horizontally like a desktop text field: the view stays
/// put while the caret is inside it and moves just enough to keep the caret in view.
final class TextFieldView {
    /// The field's first visible character (Characters from the start of the text).
    private(set) var firstVisible = 0
    /// What the last frame drew, for hit-testing.
    private var drawn: (x: Int, start: Int, text: String, style: TextStyle, scale: Double)?
    /// The caret's rectangle in the last frame, pixels.
    private(set) var caretRect: PixelRect?
    private struct LineKey: Equatable { var text: String; var style: TextStyle; var scale: Double }
    private var lastLine: (key: LineKey, line: TextRenderer.Line?)?

    private let renderer: Renderer
    private let text: TextRenderer

    init(renderer: Renderer, text: TextRenderer) {
        self.renderer = renderer
        self.text = text
    }

    /// Draws the field's content into `content` (pixels): the row minus its insets.
    func draw(_ scene: Scene, content: PixelRect, style: TextStyle, caretSize: (width: Int, height: Int),
              selectionColor: Color, s: Double) throws(SDLError) {
        let full = scene.text
        let caretIndex = full.utf8.index(full.utf8.startIndex, offsetBy: min(scene.caretUTF8, full.utf8.count))
        let fontPixels = TextRenderer.pixels(style.points, s)
        // No glyph of the bundled faces is narrower than a fifth of the size, so this many
        // characters always fill the field: the most that can be visible on either side.
        let window = content.width / max(fontPixels / 5, 1) + 8

        // Scroll: keep the first visible character unless the caret left the view.
        firstVisible = min(max(firstVisible, scene.caret - window), scene.caret)
        var start = full.index(caretIndex, offsetBy: -(scene.caret - firstVisible))
        let composed = scene.composition?.text ?? ""
        let composedBeforeCursor = String(composed.prefix(scene.composition?.cursor ?? 0))
        let available = content.width - caretSize.width
        var caretX = text.width(of: String(full[start..<caretIndex]) + composedBeforeCursor, style, pixelScale: s)
        while caretX > available, start < caretIndex {
            // Drop characters from the left, about as many as stick out, at least one.
            let average = max(caretX / max(scene.caret - firstVisible + composedBeforeCursor.count, 1), 1)
            let drop = min(max((caretX - available) / average, 1), scene.caret - firstVisible)
            start = full.index(start, offsetBy: drop)
            firstVisible += drop
            caretX = text.width(of: String(full[start..<caretIndex]) + composedBeforeCursor, style, pixelScale: s)
        }
        let end = full.index(caretIndex, offsetBy: window, limitedBy: full.endIndex) ?? full.endIndex
        let before = String(full[start..<caretIndex])
        let visible = before + composed + String(full[caretIndex..<end])
        drawn = (content.x, firstVisible, visible, style, s)

        try renderer.clipping(to: content) { () throws(SDLError) in
            func x(ofPrefix prefix: Substring) -> Int { content.x + text.width(of: String(prefix), style, pixelScale: s) }

            // Selection highlight, behind the text.
            if scene.anchor != scene.caret {
                let lower = max(min(scene.anchor, scene.caret), firstVisible) - firstVisible
                let upper = max(scene.anchor, scene.caret) - firstVisible
                let beforeCount = before.count
                // Offsets after the caret are shifted by the composition drawn there.
                func visibleOffset(_ o: Int) -> Int { o <= beforeCount ? o : o + composed.count }
                let x0 = x(ofPrefix: visible.prefix(visibleOffset(lower)))
                let x1 = x(ofPrefix: visible.prefix(visibleOffset(min(upper, visible.count))))
                if x1 > x0 {
                    try renderer.fill(PixelRect(x: x0, y: content.y + (content.height - caretSize.height) / 2,
                                                width: x1 - x0, height: caretSize.height), selectionColor)
                }
            }

            // The field keeps its own last line: its text changes with every key, so it stays out
            // of the shared cache (which would fill with stale variants), and blinking or an
            // animation elsewhere redraws it without rendering it again.
            let lineKey = LineKey(text: visible, style: style, scale: s)
            if lastLine?.key != lineKey {
                lastLine = (lineKey, try text.line(visible, style, pixelScale: s, cached: false))
            }
            let line = lastLine?.line ?? nil
            let lineTop = content.y + (content.height - (line?.height ?? text.lineHeight(style, pixelScale: s))) / 2
            if let line {
                try renderer.copy(line.texture, to: PixelRect(x: content.x, y: lineTop, width: line.width, height: line.height))
            }

            // The composition's underline: under its whole text, just below the baseline.
            if !composed.isEmpty {
                let x0 = content.x + text.width(of: before, style, pixelScale: s)
                let x1 = content.x + text.width(of: before + composed, style, pixelScale: s)
                let ascent = line?.ascent ?? 0
                let thickness = max(Int(s.rounded()), 1)
                try renderer.fill(PixelRect(x: x0, y: lineTop + ascent + 2 * thickness, width: x1 - x0, height: thickness),
                                  style.color)
            }

            let caret = PixelRect(x: content.x + caretX, y: content.y + (content.height - caretSize.height) / 2,
                                  width: caretSize.width, height: caretSize.height)
            caretRect = scene.isTextFieldFocused ? caret : nil
            if scene.isTextFieldFocused && scene.isCaretVisible {
                try renderer.fill(caret, Palette.tint)
            }
        }
    }

    /// Forgets the last layout (the field shows its placeholder).
    func forget() {
        drawn = nil
        caretRect = nil
    }

    /// The index of the Character drawn under `x` (pixels) in the last frame's layout (the
    /// text's length past its end).
    func characterIndex(atX x: Double) -> Int {
        guard let drawn else { return 0 }
        let characters = Array(drawn.text)
        var lower = 0, upper = characters.count
        while lower < upper {
            let mid = (lower + upper) / 2
            let right = Double(drawn.x + text.width(of: String(characters[0...mid]), drawn.style, pixelScale: drawn.scale))
            if right <= x { lower = mid + 1 } else { upper = mid }
        }
        return drawn.start + lower
    }

    /// The Character offset nearest to `x` (pixels) in the last frame's layout.
    func characterOffset(atX x: Double) -> Int {
        guard let drawn else { return 0 }
        let characters = Array(drawn.text)
        var lower = 0, upper = characters.count
        // Binary search for the first boundary whose x is past the point.
        func boundaryX(_ i: Int) -> Double {
            Double(drawn.x + text.width(of: String(characters[0..<i]), drawn.style, pixelScale: drawn.scale))
        }
        while lower < upper {
            let mid = (lower + upper) / 2
            if boundaryX(mid + 1) <= x { lower = mid + 1 } else { upper = mid }
        }
        // `lower` boundaries lie left of x; pick the nearer of boundary `lower` and `lower + 1`.
        var offset = lower
        if lower < characters.count, abs(boundaryX(lower + 1) - x) < abs(boundaryX(lower) - x) { offset = lower + 1 }
        return drawn.start + offset
    }
}
