import CSDL

/// Owns one `SDL_Surface` (pixels in memory) and frees it in `deinit`.
public final class Surface {
    public let pointer: UnsafeMutablePointer<SDL_Surface>

    /// Takes ownership of `pointer`.
    public init(owning pointer: UnsafeMutablePointer<SDL_Surface>) {
        self.pointer = pointer
    }

    /// A zero-filled (transparent) 32-bit ARGB surface of `width` × `height` pixels.
    /// - Throws: `SDLError` when SDL cannot allocate it.
    public convenience init(width: Int, height: Int) throws(SDLError) {
        let s = SDL_CreateRGBSurfaceWithFormat(0, Int32(max(width, 1)), Int32(max(height, 1)), 32,
                                               HEE_PIXELFORMAT_ARGB8888)
        self.init(owning: try sdlNonNull(s, "SDL_CreateRGBSurfaceWithFormat"))
    }

    deinit { SDL_FreeSurface(pointer) }

    /// Width in pixels.
    public var width: Int { Int(pointer.pointee.w) }
    /// Height in pixels.
    public var height: Int { Int(pointer.pointee.h) }

    /// The surface converted to ARGB8888 (a new surface).
    /// - Throws: `SDLError` when the conversion fails.
    public func convertedToARGB() throws(SDLError) -> Surface {
        Surface(owning: try sdlNonNull(SDL_ConvertSurfaceFormat(pointer, HEE_PIXELFORMAT_ARGB8888, 0),
                                       "SDL_ConvertSurfaceFormat"))
    }

    /// Calls `body` with the pixels of an ARGB8888 surface as 32-bit words (0xAARRGGBB),
    /// row by row; `pitch` is in words.
    public func withPixels<R>(_ body: (UnsafeMutablePointer<UInt32>, _ pitch: Int) throws -> R) rethrows -> R {
        if hee_SDL_MUSTLOCK(pointer) != 0 { SDL_LockSurface(pointer) }
        defer { if hee_SDL_MUSTLOCK(pointer) != 0 { SDL_UnlockSurface(pointer) } }
        let words = pointer.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        return try body(words, Int(pointer.pointee.pitch) / 4)
    }

    /// The colour at pixel (`x`, `y`) of an ARGB8888 surface.
    public func pixel(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        return withPixels { words, pitch in RGBA8(argb: words[y * pitch + x]) }
    }
}

/// An 8-bit-per-channel colour read from or written to a surface.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// From a 0xAARRGGBB word.
    public init(argb: UInt32) {
        self.init(r: UInt8((argb >> 16) & 0xFF), g: UInt8((argb >> 8) & 0xFF), b: UInt8(argb & 0xFF),
                  a: UInt8(argb >> 24))
    }

    public var description: String { "rgba(\(r), \(g), \(b), \(a))" }
}
