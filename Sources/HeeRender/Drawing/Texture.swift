import CSDL

/// Owns one `SDL_Texture` and destroys it in `deinit`; keeps its renderer alive.
public final class Texture {
    public let pointer: OpaquePointer
    public let renderer: Renderer
    /// Size in pixels.
    public let width: Int
    public let height: Int

    /// A static texture with the pixels of `surface`, alpha-blended when drawn.
    /// - Throws: `SDLError` when SDL cannot create it.
    public init(renderer: Renderer, surface: Surface) throws(SDLError) {
        self.renderer = renderer
        pointer = try sdlNonNull(SDL_CreateTextureFromSurface(renderer.pointer, surface.pointer),
                                 "SDL_CreateTextureFromSurface")
        width = surface.width
        height = surface.height
        SDL_SetTextureBlendMode(pointer, SDL_BLENDMODE_BLEND)
    }

    /// A texture the renderer can draw into (`SDL_TEXTUREACCESS_TARGET`), `width` × `height`
    /// pixels, copied without blending (its content is opaque).
    /// - Throws: `SDLError` when SDL cannot create it.
    public init(renderer: Renderer, targetWidth width: Int, height: Int) throws(SDLError) {
        self.renderer = renderer
        pointer = try sdlNonNull(SDL_CreateTexture(renderer.pointer, HEE_PIXELFORMAT_ARGB8888,
                                                   Int32(SDL_TEXTUREACCESS_TARGET.rawValue), Int32(max(width, 1)),
                                                   Int32(max(height, 1))), "SDL_CreateTexture")
        self.width = max(width, 1)
        self.height = max(height, 1)
        SDL_SetTextureBlendMode(pointer, SDL_BLENDMODE_NONE)
    }

    deinit { SDL_DestroyTexture(pointer) }

    /// Multiplies the texture's colours by `color` (and its alpha by `color`'s alpha) when
    /// drawn: one white mask drawn in any colour.
    public func tint(_ color: Color) {
        let c = color.rgba8
        SDL_SetTextureColorMod(pointer, c.r, c.g, c.b)
        SDL_SetTextureAlphaMod(pointer, c.a)
    }
}
