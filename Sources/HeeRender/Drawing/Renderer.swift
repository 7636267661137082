import CSDL

/// Owns one `SDL_Renderer` and destroys it in `deinit`. Textures keep their renderer alive.
public final class Renderer {
    public let pointer: OpaquePointer
    /// Keeps the target surface of a software renderer alive.
    private let targetSurface: Surface?

    /// A renderer for a window (`SDL_Window*`).
    /// - Parameter flags: `SDL_RendererFlags`, e.g. `SDL_RENDERER_SOFTWARE`.
    /// - Throws: `SDLError` when SDL cannot create it.
    public init(window: OpaquePointer, flags: UInt32) throws(SDLError) {
        pointer = try sdlNonNull(SDL_CreateRenderer(window, -1, flags), "SDL_CreateRenderer")
        targetSurface = nil
    }

    /// A software renderer that draws into `surface` (no window, no `SDL_Init` needed):
    /// what render tests and image export use.
    /// - Throws: `SDLError` when SDL cannot create it.
    public init(surface: Surface) throws(SDLError) {
        pointer = try sdlNonNull(SDL_CreateSoftwareRenderer(surface.pointer), "SDL_CreateSoftwareRenderer")
        targetSurface = surface
    }

    deinit { SDL_DestroyRenderer(pointer) }

    /// The drawable size in pixels.
    /// - Throws: `SDLError` when SDL cannot tell.
    public func outputSize() throws(SDLError) -> (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        try sdlCheck(SDL_GetRendererOutputSize(pointer, &w, &h), "SDL_GetRendererOutputSize")
        return (Int(w), Int(h))
    }

    /// The renderer's name (`software`, `opengl`, ...).
    public var name: String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(pointer, &info) == 0, let name = info.name else { return "unknown" }
        return String(cString: name)
    }

    /// Sets the draw colour.
    public func setColor(_ c: Color) {
        let p = c.rgba8
        SDL_SetRenderDrawColor(pointer, p.r, p.g, p.b, p.a)
        SDL_SetRenderDrawBlendMode(pointer, p.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
    }

    /// Fills the whole target with `color`.
    /// - Throws: `SDLError` when drawing fails.
    public func clear(_ color: Color) throws(SDLError) {
        setColor(color)
        try sdlCheck(SDL_RenderClear(pointer), "SDL_RenderClear")
    }

    /// Fills `rect` (pixels) with `color`, blending when it is translucent.
    /// - Throws: `SDLError` when drawing fails.
    public func fill(_ rect: PixelRect, _ color: Color) throws(SDLError) {
        setColor(color)
        var r = rect.sdl
        try sdlCheck(SDL_RenderFillRect(pointer, &r), "SDL_RenderFillRect")
    }

    /// Draws `texture` with its top-left corner at `x`, `y` (pixels), at its own size or
    /// stretched to `size`.
    /// - Throws: `SDLError` when drawing fails.
    public func copy(_ texture: Texture, to rect: PixelRect) throws(SDLError) {
        var dst = rect.sdl
        try sdlCheck(SDL_RenderCopy(pointer, texture.pointer, nil, &dst), "SDL_RenderCopy")
    }

    /// Draws the `source` part of `texture` into `rect` (pixels).
    /// - Throws: `SDLError` when drawing fails.
    public func copy(_ texture: Texture, from source: PixelRect, to rect: PixelRect) throws(SDLError) {
        var src = source.sdl
        var dst = rect.sdl
        try sdlCheck(SDL_RenderCopy(pointer, texture.pointer, &src, &dst), "SDL_RenderCopy")
    }

    /// Restricts drawing to `rect` (pixels), or lifts the restriction with `nil`.
    public func clip(to rect: PixelRect?) {
        if var r = rect?.sdl {
            SDL_RenderSetClipRect(pointer, &r)
        } else {
            SDL_RenderSetClipRect(pointer, nil)
        }
    }

    /// Runs `body` with drawing going into `texture` (a target texture), then back to the
    /// previous target (the window or surface, or the frame texture `setTarget` chose).
    /// - Throws: `SDLError` when the target cannot be set, or what `body` throws.
    public func drawing(into texture: Texture, _ body: () throws(SDLError) -> Void) throws(SDLError) {
        let previous = SDL_GetRenderTarget(pointer)
        try sdlCheck(SDL_SetRenderTarget(pointer, texture.pointer), "SDL_SetRenderTarget")
        defer { SDL_SetRenderTarget(pointer, previous) }
        try body()
    }

    /// Makes `texture` (a target texture) where drawing goes until further notice, or the
    /// window or surface again with `nil`. The output size is then the texture's.
    /// - Throws: `SDLError` when SDL cannot switch.
    public func setTarget(_ texture: Texture?) throws(SDLError) {
        try sdlCheck(SDL_SetRenderTarget(pointer, texture?.pointer), "SDL_SetRenderTarget")
    }

    /// Shows what was drawn (window renderers) or finishes drawing into the surface.
    public func present() { SDL_RenderPresent(pointer) }

    /// Copies the whole current target as ARGB8888 (0xAARRGGBB words) into `pixels`, rows
    /// `pitch` bytes apart; `pixels` must hold output height × `pitch` bytes.
    /// - Throws: `SDLError` when SDL cannot read them.
    public func readPixels(into pixels: UnsafeMutableRawPointer, pitch: Int) throws(SDLError) {
        try sdlCheck(SDL_RenderReadPixels(pointer, nil, HEE_PIXELFORMAT_ARGB8888, pixels, Int32(pitch)),
                     "SDL_RenderReadPixels")
    }

    /// Reads the drawn pixels back as an ARGB8888 surface (for screenshots and tests).
    /// - Throws: `SDLError` when SDL cannot read them.
    public func readPixels() throws(SDLError) -> Surface {
        let (w, h) = try outputSize()
        let surface = try Surface(width: w, height: h)
        try sdlCheck(SDL_RenderReadPixels(pointer, nil, HEE_PIXELFORMAT_ARGB8888, surface.pointer.pointee.pixels,
                                          surface.pointer.pointee.pitch), "SDL_RenderReadPixels")
        return surface
    }
}

/// A rectangle in whole pixels.
public struct PixelRect: Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}
