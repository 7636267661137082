import CSDL
import AppModel
import KeyboardCore

/// Draws strings with real glyphs for every character the machine has a font for.
///
/// Each character is drawn with the first font of the chain that has all of its scalars:
/// the bundled face, then a font fontconfig finds for it (cached). Runs of characters that
/// share a font are rendered by SDL_ttf and joined on a common baseline. Rendered lines are
/// kept as textures (least recently used evicted), so unchanged text costs one copy a frame.
///
/// No text can make drawing fail: invisible characters (joiners, bidi controls, variation
/// selectors, soft hyphens, …) stay in the run around them, where HarfBuzz gives them no
/// width; a run with nothing to draw is left out; a run SDL_ttf cannot draw is left out and
/// reported once per reason through `onSkippedText`. Only a bundled font that cannot be
/// opened is an error.
public final class TextRenderer {
    /// A rendered line of text.
    public struct Line {
        public let texture: Texture
        /// Size in pixels.
        public let width: Int
        public let height: Int
        /// Pixels from the top to the baseline.
        public let ascent: Int
    }

    private struct FontKey: Hashable { var path: String; var index: Int; var pixels: Int }
    private struct LineKey: Hashable { var text: String; var style: TextStyle; var pixels: Int }

    public let renderer: Renderer
    private let library: TTFLibrary
    private let assetsDirectory: String
    private let finder: SystemFontFinder
    private var fonts: [FontKey: Font?] = [:]
    /// Fonts that only come in fixed bitmap sizes (colour emoji), with the factor that
    /// brings their glyphs to the requested size.
    private var bitmapScale: [ObjectIdentifier: Double] = [:]
    private var lines: [LineKey: (line: Line?, lastUse: Int)] = [:]
    /// Reasons already passed to `onSkippedText`.
    private var reportedReasons: Set<String> = []

    /// Called once per distinct reason when text could not be drawn and was left out (the
    /// rest of the line is drawn): the app prints it as a warning.
    public var onSkippedText: ((String) -> Void)?

    /// Draws one run with one font; replaceable so tests can make a run fail.
    var runRenderer: (String, Font, Color) throws(SDLError) -> Surface = { run, font, color throws(SDLError) in
        try font.render(run, color: color)
    }
    private var useCounter = 0
    /// How many rendered lines are kept.
    public var cacheCapacity = 256

    /// - Parameters:
    ///   - assetsDirectory: the directory holding `fonts/`.
    /// Fonts open when first used (a missing file then throws from the drawing call; the app
    /// checks that every asset exists before it starts).
    public init(renderer: Renderer, library: TTFLibrary, assetsDirectory: String,
                finder: SystemFontFinder = SystemFontFinder()) throws(SDLError) {
        self.renderer = renderer
        self.library = library
        self.assetsDirectory = assetsDirectory
        self.finder = finder
    }

    /// A bundled font file that exists but cannot be used (truncated, not a font).
    public struct FontError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "bad font file \(path): \(reason)" }
    }

    /// The bundled font of `face` at `pixels`.
    /// - Throws: `SDLError` (with `failedFont` set) when the file cannot be opened or lacks
    ///   one of the face's `requiredScalars`.
    public func bundledFont(_ face: FontFace, pixels: Int) throws(SDLError) -> Font {
        let key = FontKey(path: AssetLocator.join(assetsDirectory, face.relativePath), index: 0, pixels: pixels)
        if let cached = fonts[key], let font = cached { return font }
        let font: Font
        do {
            font = try Font(path: key.path, pixelSize: pixels, library: library)
        } catch {
            failedFont = FontError(path: key.path, reason: error.message)
            throw error
        }
        // A glyph counts when the font maps the character and its outline has ink (a file cut
        // short keeps its character map but loses the outlines at its end).
        let missing = face.requiredScalars.first { scalar in
            guard font.provides(scalar), let m = font.glyphMetrics(scalar) else { return true }
            return m.maxX <= m.minX || m.maxY <= m.minY
        }
        if let missing {
            let reason = "it has no glyph for U+\(String(missing.value, radix: 16, uppercase: true))"
            failedFont = FontError(path: key.path, reason: reason)
            throw SDLError("TTF_GlyphIsProvided32", message: reason)
        }
        fonts[key] = font
        return font
    }

    /// A bundled face at `pixels` that is not kept (for a one-off measurement).
    /// - Throws: `SDLError` when the file cannot be opened.
    func temporaryFont(_ face: FontFace, pixels: Int) throws(SDLError) -> Font {
        let path = AssetLocator.join(assetsDirectory, face.relativePath)
        do {
            return try Font(path: path, pixelSize: pixels, library: library)
        } catch {
            failedFont = FontError(path: path, reason: error.message)
            throw error
        }
    }

    /// The bundled font that failed to open, if one did (the app reports it as a bad file).
    public private(set) var failedFont: FontError?

    private func systemFont(_ file: SystemFontFinder.FontFile, pixels: Int) -> Font? {
        let key = FontKey(path: file.path, index: file.index, pixels: pixels)
        if let cached = fonts[key] { return cached }
        // A font that cannot be opened at all is remembered as such.
        let font = try? Font(path: file.path, pixelSize: pixels, index: file.index, library: library)
        fonts[key] = font
        // Bitmap-only faces (colour emoji) open at their one strike, far larger than asked
        // for: their runs are drawn scaled to a line of the requested size.
        if let font, font.height > pixels * 2 {
            bitmapScale[ObjectIdentifier(font)] = Double(pixels) * 1.15 / Double(font.height)
        }
        return font
    }

    /// Splits `text` into runs that each one font draws.
    /// - Throws: `SDLError` when the bundled font cannot be opened.
    func runs(_ text: String, face: FontFace, pixels: Int) throws(SDLError) -> [(text: String, font: Font)] {
        let primary = try bundledFont(face, pixels: pixels)
        var result: [(text: String, font: Font)] = []
        var lastScript: ScriptDetector.Script?
        // Invisible characters before the first visible one: they go with its run.
        var leading = ""
        for character in text {
            if Self.isInvisible(character) {
                // No font of its own (a fallback font found for a zero-width space would
                // make a run of nothing): it stays with the run it stands in.
                if result.isEmpty { leading.append(character) } else { result[result.count - 1].text.append(character) }
                continue
            }
            let font = chooseFont(for: character, primary: primary, pixels: pixels)
            // A new run where the font or the (strong) script changes.
            let script = ScriptDetector.strongScript(of: character)
            let sameScript = script == nil || lastScript == nil || script == lastScript
            if script != nil { lastScript = script }
            if let last = result.last, last.font === font, sameScript {
                result[result.count - 1].text.append(character)
            } else {
                result.append((leading + String(character), font))
                leading = ""
            }
        }
        if !leading.isEmpty { result.append((leading, primary)) }
        return result
    }

    /// Whether `character` is drawn as nothing: every scalar is a default-ignorable code point
    /// (zero-width space and joiners, bidi marks, embeddings and isolates, variation selectors,
    /// the soft hyphen, word joiner, tags, …), which shaping hides.
    static func isInvisible(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { $0.properties.isDefaultIgnorableCodePoint }
    }

    private func chooseFont(for character: Character, primary: Font, pixels: Int) -> Font {
        // Invisible scalars (joiners, variation selectors, tags) never need a glyph: shaping
        // hides them whatever the font.
        let needed = character.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }
        // U+FE0F asks for emoji presentation, and skin tones only exist in emoji: a colour
        // face first, even when the bundled font has a text-style glyph.
        if Self.wantsEmojiPresentation(character), let first = needed.first,
           let file = finder.font(for: first, preferColor: true),
           let font = systemFont(file, pixels: pixels), font.provides(first) {
            return font
        }
        if needed.allSatisfy(primary.provides) { return primary }
        guard let missing = needed.first(where: { !primary.provides($0) }),
              let file = finder.font(for: missing),
              let font = systemFont(file, pixels: pixels),
              needed.allSatisfy(font.provides) || font.provides(missing) else { return primary }
        return font
    }

    /// The file of the font that draws `character` in `style` (the bundled face, or the
    /// system font fontconfig found for it).
    public func fontPath(for character: Character, _ style: TextStyle, pixelScale: Double) -> String? {
        let pixels = Self.pixels(style.points, pixelScale)
        guard let primary = try? bundledFont(style.face, pixels: pixels) else { return nil }
        return chooseFont(for: character, primary: primary, pixels: pixels).path
    }

    /// Whether a cluster is shown as colour emoji: its first scalar has emoji presentation by
    /// default (😀, 👍), or it is an emoji with U+FE0F or a skin-tone modifier (❤️, 👍🏽).
    /// Text-style symbols (❤ alone, ©) stay with the text's font, and so does a letter with a
    /// stray U+FE0F (`a` + U+FE0F is the letter a).
    static func wantsEmojiPresentation(_ c: Character) -> Bool {
        guard let first = c.unicodeScalars.first else { return false }
        if first.properties.isEmojiPresentation { return true }
        return first.properties.isEmoji
            && c.unicodeScalars.contains { $0.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains($0.value) }
    }

    /// The width in pixels of `text` in `style` at `pixelScale` pixels per point.
    public func width(of text: String, _ style: TextStyle, pixelScale: Double) -> Int {
        let pixels = Self.pixels(style.points, pixelScale)
        guard let runs = try? runs(text, face: style.face, pixels: pixels) else { return 0 }
        return runs.reduce(0) { $0 + runWidth($1.text, $1.font) }
    }

    private func runWidth(_ text: String, _ font: Font) -> Int {
        let width = font.width(of: text)
        guard let f = bitmapScale[ObjectIdentifier(font)] else { return width }
        return max(Int((Double(width) * f).rounded()), 1)
    }

    /// A line's height in pixels for `style`'s bundled face.
    public func lineHeight(_ style: TextStyle, pixelScale: Double) -> Int {
        (try? bundledFont(style.face, pixels: Self.pixels(style.points, pixelScale)).height) ?? 0
    }

    /// `text` rendered in `style`, or `nil` for an empty string (SDL_ttf cannot render one,
    /// and there is nothing to draw).
    /// - Throws: `SDLError` when rendering or uploading fails.
    public func line(_ text: String, _ style: TextStyle, pixelScale: Double) throws(SDLError) -> Line? {
        try line(text, style, pixelScale: pixelScale, cached: true)
    }

    /// `text` rendered in `style`; with `cached: false` the line is not kept in the shared
    /// cache (the text field's ever-changing text would only push the labels out of it).
    /// - Throws: `SDLError` when rendering or uploading fails.
    public func line(_ text: String, _ style: TextStyle, pixelScale: Double, cached: Bool) throws(SDLError) -> Line? {
        guard !text.isEmpty else { return nil }
        if !cached { return try renderLine(text, style, pixels: Self.pixels(style.points, pixelScale)) }
        let key = LineKey(text: text, style: style, pixels: Self.pixels(style.points, pixelScale))
        useCounter += 1
        if let cached = lines[key] {
            lines[key]?.lastUse = useCounter
            return cached.line
        }
        // Kept even when nothing could be drawn, so a failing run is not retried every frame.
        let line = try renderLine(text, style, pixels: key.pixels)
        if lines.count >= cacheCapacity { evict() }
        lines[key] = (line, useCounter)
        return line
    }

    private func evict() {
        let keep = cacheCapacity / 2
        let order = lines.sorted { $0.value.lastUse > $1.value.lastUse }
        for (key, _) in order.dropFirst(keep) { lines[key] = nil }
    }

    /// The line's runs drawn side by side on one baseline, or `nil` when none has anything
    /// to draw. A run that cannot be drawn is left out and reported (`onSkippedText`).
    /// - Throws: `SDLError` only when a bundled font cannot be opened.
    private func renderLine(_ text: String, _ style: TextStyle, pixels: Int) throws(SDLError) -> Line? {
        let parts = try runs(text, face: style.face, pixels: pixels)
        // Each run rendered, with its ascent (both scaled for bitmap faces).
        var rendered: [(surface: Surface, ascent: Int)] = []
        for part in parts {
            do {
                guard var surface = try render(part.text, with: part.font, color: style.color) else { continue }
                var ascent = part.font.ascent
                if let f = bitmapScale[ObjectIdentifier(part.font)] {
                    surface = try VectorCanvas.resized(surface, by: f)
                    ascent = Int((Double(ascent) * f).rounded())
                }
                rendered.append((surface, ascent))
            } catch {
                skipped(error)
            }
        }
        guard !rendered.isEmpty else { return nil }
        let ascent = rendered.map(\.ascent).max() ?? 0
        let below = rendered.map { $0.surface.height - $0.ascent }.max() ?? 0
        let width = rendered.reduce(0) { $0 + $1.surface.width }
        do {
            let line = try Surface(width: width, height: ascent + below)
            var x = 0
            for (surface, runAscent) in rendered {
                SDL_SetSurfaceBlendMode(surface.pointer, SDL_BLENDMODE_NONE)
                var dst = SDL_Rect(x: Int32(x), y: Int32(ascent - runAscent), w: 0, h: 0)
                try sdlCheck(SDL_UpperBlit(surface.pointer, nil, line.pointer, &dst), "SDL_BlitSurface")
                x += surface.width
            }
            return Line(texture: try Texture(renderer: renderer, surface: line), width: line.width,
                        height: line.height, ascent: ascent)
        } catch {
            skipped(error)
            return nil
        }
    }

    /// Reports text left out, once per reason.
    private func skipped(_ error: SDLError) {
        let reason = error.description
        guard reportedReasons.insert(reason).inserted else { return }
        onSkippedText?(reason)
    }

    /// Renders one run, shaped for its script: HarfBuzz (inside SDL_ttf) needs the script and
    /// direction to join Arabic letters or form Indic conjuncts. `nil` when the run takes no
    /// space (invisible characters, a combining mark alone): there is nothing to draw, and
    /// SDL_ttf refuses to ("Text has zero width").
    /// - Throws: `SDLError` when SDL_ttf fails.
    private func render(_ run: String, with font: Font, color: Color) throws(SDLError) -> Surface? {
        let script = ScriptDetector.script(of: run)
        font.setShaping(script: script.tag, rightToLeft: script.isRightToLeft)
        defer { font.setShaping(script: nil, rightToLeft: false) }
        if font.takesNoSpace(run) { return nil }
        return try runRenderer(run, font, color)
    }

    /// Points → whole pixels for a font size.
    static func pixels(_ points: Double, _ scale: Double) -> Int { max(Int((points * scale).rounded()), 1) }
}
