import CSDL
import HeeRender
import KeyboardCore

/// Owns the app's `SDL_Window` and destroys it in `deinit`.
final class Window {
    let pointer: OpaquePointer
    private let context: SDLContext

    /// A resizable window of `size` points, centred, no smaller than `minimum`, hidden until
    /// `show()`. `extraFlags` adds SDL window flags (system mode: always on top, not in the
    /// taskbar).
    /// - Throws: `SDLError` from `SDL_CreateWindow`.
    init(context: SDLContext, title: String, size: Size, minimum: Size, extraFlags: UInt32 = 0) throws(SDLError) {
        self.context = context
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_HIDDEN.rawValue | extraFlags
        pointer = try sdlNonNull(SDL_CreateWindow(title, HEE_SDL_WINDOWPOS_CENTERED, HEE_SDL_WINDOWPOS_CENTERED,
                                                  Int32(size.width), Int32(size.height), flags), "SDL_CreateWindow")
        SDL_SetWindowMinimumSize(pointer, Int32(minimum.width), Int32(minimum.height))
    }

    deinit { SDL_DestroyWindow(pointer) }

    /// Sets the window's icon (the へぇ button), which window managers show in title bars and
    /// task switchers.
    func setIcon(_ surface: Surface) {
        SDL_SetWindowIcon(pointer, surface.pointer)
    }

    /// Maps the window (after the first frame is drawn, so it never shows garbage).
    func show() { SDL_ShowWindow(pointer) }

    /// The size in points (SDL window coordinates, the space of mouse events).
    var size: Size {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(pointer, &w, &h)
        return Size(width: Double(w), height: Double(h))
    }

    /// SDL's id for this window, as found in events.
    var id: UInt32 { SDL_GetWindowID(pointer) }
}
