import CSDL
import HeeRender
import AppModel
import KeyboardCore

/// Owns the app's `SDL_Window` and destroys it in `deinit`.
final class Window {
    let pointer: OpaquePointer
    private let context: SDLContext
    /// Whether the window is a bare Wayland surface (see `WaylandBareWindow`).
    private let bareWaylandSurface: Bool

    /// A resizable window of `size` (window coordinates), centred, no smaller than `minimum`;
    /// `maximized`: it opens maximized, and `size` is the size it returns to. On Wayland it is
    /// made without OpenGL when it can be (`WaylandBareWindow`). `extraFlags` adds SDL window
    /// flags (system mode: always on top, not in the taskbar).
    /// - Throws: `SDLError` from `SDL_CreateWindow`.
    init(context: SDLContext, title: String, size: Size, minimum: Size, maximized: Bool = false,
         extraFlags: UInt32 = 0) throws(SDLError) {
        self.context = context
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_HIDDEN.rawValue | extraFlags
        if maximized { flags |= SDL_WINDOW_MAXIMIZED.rawValue }
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

    /// Whether the window is maximized (as SDL last heard from the window manager).
    var isMaximized: Bool { SDL_GetWindowFlags(pointer) & SDL_WINDOW_MAXIMIZED.rawValue != 0 }

    /// The client area's position and size (window coordinates).
    var frame: Rect {
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetWindowPosition(pointer, &x, &y)
        let size = self.size
        return Rect(x: Double(x), y: Double(y), width: size.width, height: size.height)
    }

    /// Moves and resizes the client area to `rect` (window coordinates).
    func setFrame(_ rect: Rect) {
        SDL_SetWindowSize(pointer, Int32(rect.width), Int32(rect.height))
        SDL_SetWindowPosition(pointer, Int32(rect.x), Int32(rect.y))
    }

    /// The window manager's frame around the window (title bar, borders), or `nil` when SDL
    /// cannot tell on this platform; all zero while the window manager has not said.
    var managerFrame: WindowPlacement.Frame? {
        var top: Int32 = 0, left: Int32 = 0, bottom: Int32 = 0, right: Int32 = 0
        guard SDL_GetWindowBordersSize(pointer, &top, &left, &bottom, &right) == 0 else {
            SDL_ClearError()
            return nil
        }
        return WindowPlacement.Frame(top: Double(top), left: Double(left), bottom: Double(bottom), right: Double(right))
    }

    /// The usable bounds (without panels and docks) of the display the window is on.
    var usableBounds: Rect? { Self.usableBounds(ofDisplay: max(SDL_GetWindowDisplayIndex(pointer), 0)) }

    /// The usable bounds of display `index` (window coordinates), or `nil` when SDL cannot
    /// tell.
    static func usableBounds(ofDisplay index: Int32) -> Rect? {
        var r = SDL_Rect()
        guard SDL_GetDisplayUsableBounds(index, &r) == 0, r.w > 0, r.h > 0 else {
            SDL_ClearError()
            return nil
        }
        return Rect(x: Double(r.x), y: Double(r.y), width: Double(r.w), height: Double(r.h))
    }
}
