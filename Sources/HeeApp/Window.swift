import CSDL
import HeeRender
import KeyboardCore

/// Owns the app's `SDL_Window` and destroys it in `deinit`.
final class Window {
    let pointer: OpaquePointer
    private let context: SDLContext
    /// Whether the window is a bare Wayland surface (see `WaylandBareWindow`).
    private let bareWaylandSurface: Bool

    /// A resizable window of `size` points, centred, no smaller than `minimum`. On Wayland
    /// it is made without OpenGL when it can be (`WaylandBareWindow`).
    /// - Throws: `SDLError` from `SDL_CreateWindow`.
    init(context: SDLContext, title: String, size: Size, minimum: Size) throws(SDLError) {
        self.context = context
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_HIDDEN.rawValue
        var bare = context.videoDriver == .wayland && WaylandBareWindow.load()
        if bare { flags |= SDL_WINDOW_VULKAN.rawValue }
        var created = SDL_CreateWindow(title, HEE_SDL_WINDOWPOS_CENTERED, HEE_SDL_WINDOWPOS_CENTERED,
                                       Int32(size.width), Int32(size.height), flags)
        if created == nil && bare {
            // Made the ordinary way after all (with OpenGL loaded).
            WaylandBareWindow.unload()
            bare = false
            flags &= ~SDL_WINDOW_VULKAN.rawValue
            created = SDL_CreateWindow(title, HEE_SDL_WINDOWPOS_CENTERED, HEE_SDL_WINDOWPOS_CENTERED,
                                       Int32(size.width), Int32(size.height), flags)
        }
        pointer = try sdlNonNull(created, "SDL_CreateWindow")
        bareWaylandSurface = bare
        SDL_SetWindowMinimumSize(pointer, Int32(minimum.width), Int32(minimum.height))
    }

    deinit {
        SDL_DestroyWindow(pointer)
        if bareWaylandSurface { WaylandBareWindow.unload() }
    }

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
