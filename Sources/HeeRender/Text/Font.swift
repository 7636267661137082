import CSDL

/// Keeps SDL_ttf initialised while any font is alive: `TTF_Init` on creation, `TTF_Quit` in
/// `deinit`, which runs only after every `Font` holding it has been freed.
public final class TTFLibrary {
    /// - Throws: `SDLError` when SDL_ttf cannot start (FreeType missing).
    public init() throws(SDLError) {
        try sdlCheck(TTF_Init(), "TTF_Init")
    }

    deinit { TTF_Quit() }
}

/// Owns one `TTF_Font` at one size (in pixels) and closes it in `deinit`.
public final class Font {
    public let pointer: OpaquePointer
    private let library: TTFLibrary
    /// The font file.
    public let path: String
    /// The size in pixels (SDL_ttf's point size at 72 dpi).
    public let pixelSize: Int

    /// Opens face `index` of the font file at `path` at `pixelSize` pixels.
    /// - Throws: `SDLError` (function `TTF_OpenFont`) naming the file when it cannot be opened.
    public init(path: String, pixelSize: Int, index: Int = 0, library: TTFLibrary) throws(SDLError) {
        self.library = library
        self.path = path
        self.pixelSize = max(pixelSize, 1)
        guard let font = TTF_OpenFontIndex(path, Int32(self.pixelSize), index) else {
            throw SDLError("TTF_OpenFont(\(path))")
        }
        pointer = font
        TTF_SetFontHinting(pointer, TTF_HINTING_LIGHT)
    }

    deinit { TTF_CloseFont(pointer) }

    /// Whether the font has a glyph for `scalar`.
    public func provides(_ scalar: Unicode.Scalar) -> Bool {
        TTF_GlyphIsProvided32(pointer, scalar.value) != 0
    }

    /// Pixels from the top of a line to the baseline.
    public var ascent: Int { Int(TTF_FontAscent(pointer)) }
    /// Pixels from the baseline to the bottom of a line (positive).
    public var descent: Int { -Int(TTF_FontDescent(pointer)) }
    /// A line's height in pixels.
    public var height: Int { Int(TTF_FontHeight(pointer)) }

    /// The width in pixels `text` takes (0 for an empty string).
    public func width(of text: String) -> Int {
        guard !text.isEmpty else { return 0 }
        var w: Int32 = 0, h: Int32 = 0
        guard TTF_SizeUTF8(pointer, text, &w, &h) == 0 else { return 0 }
        return Int(w)
    }

    /// Whether `text` is measured 0 pixels wide (shaped with the current script and
    /// direction): SDL_ttf draws nothing for it and refuses to render it. `false` when it
    /// cannot be measured (rendering then reports why).
    public func takesNoSpace(_ text: String) -> Bool {
        var w: Int32 = 0, h: Int32 = 0
        return TTF_SizeUTF8(pointer, text, &w, &h) == 0 && w == 0
    }

    /// The ink box of `scalar`'s glyph relative to the pen position on the baseline, in
    /// pixels with y up (FreeType's convention), or `nil` if the font lacks it.
    public func glyphMetrics(_ scalar: Unicode.Scalar) -> (minX: Int, maxX: Int, minY: Int, maxY: Int, advance: Int)? {
        var minx: Int32 = 0, maxx: Int32 = 0, miny: Int32 = 0, maxy: Int32 = 0, adv: Int32 = 0
        guard TTF_GlyphMetrics32(pointer, scalar.value, &minx, &maxx, &miny, &maxy, &adv) == 0 else { return nil }
        return (Int(minx), Int(maxx), Int(miny), Int(maxy), Int(adv))
    }

    /// Sets the script (ISO 15924 tag such as `Arab`, or `nil` for none) and direction
    /// HarfBuzz shapes with; SDL_ttf applies them to every later measurement and rendering.
    public func setShaping(script: String?, rightToLeft: Bool) {
        _ = TTF_SetFontScriptName(pointer, script ?? "Zyyy")
        _ = TTF_SetFontDirection(pointer, rightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
    }

    /// `text` drawn anti-aliased in `color` on a transparent surface one line high.
    /// SDL_ttf refuses empty strings, so callers must not pass one.
    /// - Throws: `SDLError` when rendering fails.
    public func render(_ text: String, color: Color) throws(SDLError) -> Surface {
        precondition(!text.isEmpty, "SDL_ttf cannot render an empty string")
        let c = color.rgba8
        let surface = TTF_RenderUTF8_Blended(pointer, text, SDL_Color(r: c.r, g: c.g, b: c.b, a: c.a))
        return Surface(owning: try sdlNonNull(surface, "TTF_RenderUTF8_Blended"))
    }
}
