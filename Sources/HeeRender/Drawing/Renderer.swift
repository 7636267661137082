import CSDL

/// Owns one `SDL_Renderer` and destroys it in `deinit`. Textures keep their renderer alive.
public final class Renderer {
    public let pointer: OpaquePointer
    /// Keeps the target surface of a software renderer alive.
    private let targetSurface: Surface?
    /// While `bounds(of:dryRun:)` runs: the bounding box of the draws so far, and whether
    /// draws are only measured.
    private var recording: (bounds: PixelRect?, dryRun: Bool)?

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
        if recording != nil {
            let (w, h) = try outputSize()
            guard record(PixelRect(x: 0, y: 0, width: w, height: h)) else { return }
        }
        setColor(color)
        try sdlCheck(SDL_RenderClear(pointer), "SDL_RenderClear")
    }

    /// Fills `rect` (pixels) with `color`, blending when it is translucent.
    /// - Throws: `SDLError` when drawing fails.
    public func fill(_ rect: PixelRect, _ color: Color) throws(SDLError) {
        guard record(rect) else { return }
        setColor(color)
        var r = rect.sdl
        try sdlCheck(SDL_RenderFillRect(pointer, &r), "SDL_RenderFillRect")
    }

    /// Draws `texture` with its top-left corner at `x`, `y` (pixels), at its own size or
    /// stretched to `size`.
    /// - Throws: `SDLError` when drawing fails.
    public func copy(_ texture: Texture, to rect: PixelRect) throws(SDLError) {
        guard record(rect) else { return }
        var dst = rect.sdl
        try sdlCheck(SDL_RenderCopy(pointer, texture.pointer, nil, &dst), "SDL_RenderCopy")
    }

    /// Draws the `source` part of `texture` into `rect` (pixels).
    /// - Throws: `SDLError` when drawing fails.
    public func copy(_ texture: Texture, from source: PixelRect, to rect: PixelRect) throws(SDLError) {
        guard record(rect) else { return }
        var src = source.sdl
        var dst = rect.sdl
        try sdlCheck(SDL_RenderCopy(pointer, texture.pointer, &src, &dst), "SDL_RenderCopy")
    }

    /// Runs `body` with drawing restricted to `rect` (pixels) inside any restriction already
    /// in force, then restores that one. Clips nest: a painter clipping its own text inside
    /// a frame drawn clipped to its changes stays inside both.
    /// - Throws: what `body` throws.
    public func clipping(to rect: PixelRect, _ body: () throws(SDLError) -> Void) throws(SDLError) {
        let outer = clipRect
        let inner = outer.map { $0.intersection(rect) } ?? rect
        setClip(inner)
        defer { setClip(outer) }
        try body()
    }

    /// The restriction in force (`clipping`).
    private var clipRect: PixelRect? {
        guard SDL_RenderIsClipEnabled(pointer) == SDL_TRUE else { return nil }
        var r = SDL_Rect()
        SDL_RenderGetClipRect(pointer, &r)
        return PixelRect(x: Int(r.x), y: Int(r.y), width: Int(r.w), height: Int(r.h))
    }

    private func setClip(_ rect: PixelRect?) {
        if var r = rect?.sdl {
            // SDL takes an empty rectangle as no clipping at all: keep one off-target pixel.
            if r.w <= 0 || r.h <= 0 { r = SDL_Rect(x: -1, y: -1, w: 1, h: 1) }
            SDL_RenderSetClipRect(pointer, &r)
        } else {
            SDL_RenderSetClipRect(pointer, nil)
        }
    }

    /// Runs `body` with drawing going into `texture` (a target texture), then back to the
    /// previous target (the window or surface, or the frame texture `setTarget` chose).
    /// - Throws: `SDLError` when the target cannot be set, or what `body` throws.
    /// Draws into another texture are drawn for real and not recorded, also inside
    /// `bounds(of:dryRun:)` (a cache filled there must hold its pixels).
    public func drawing(into texture: Texture, _ body: () throws(SDLError) -> Void) throws(SDLError) {
        let previous = SDL_GetRenderTarget(pointer)
        let outer = recording
        recording = nil
        try sdlCheck(SDL_SetRenderTarget(pointer, texture.pointer), "SDL_SetRenderTarget")
        defer {
            SDL_SetRenderTarget(pointer, previous)
            recording = outer
        }
        try body()
    }

    /// Runs `body` and returns the bounding box (pixels, the target's coordinates, not
    /// clipped to it) of everything it drew, or `nil` when it drew nothing. With `dryRun`,
    /// nothing reaches the target: the draws are only measured.
    /// - Throws: what `body` throws.
    public func bounds(of body: () throws(SDLError) -> Void, dryRun: Bool = false) throws(SDLError) -> PixelRect? {
        let outer = recording
        recording = (nil, dryRun)
        defer { recording = outer }
        try body()
        return recording?.bounds
    }

    /// Adds `rect` to the recorded bounds, if recording; returns whether to draw it.
    private func record(_ rect: PixelRect) -> Bool {
        guard let (bounds, dryRun) = recording else { return true }
        recording = (bounds.map { $0.union(rect) } ?? rect, dryRun)
        return !dryRun
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

    /// Copies `rect` (pixels) of the current target as ARGB8888 into `pixels`, its first row
    /// at `pixels`, rows `pitch` bytes apart.
    /// - Throws: `SDLError` when SDL cannot read them.
    public func readPixels(in rect: PixelRect, into pixels: UnsafeMutableRawPointer, pitch: Int) throws(SDLError) {
        var r = rect.sdl
        try sdlCheck(SDL_RenderReadPixels(pointer, &r, HEE_PIXELFORMAT_ARGB8888, pixels, Int32(pitch)), "SDL_RenderReadPixels")
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
