import CSDL
import CX11

/// The X11 display connection and window behind an SDL window, for the few things SDL 2
/// has no call for (the window class, watching for the window's destruction). `nil` when
/// SDL's video driver is not X11 (Wayland, offscreen): callers then skip their X11 part.
struct X11WindowHandles {
    /// Xlib's `Display *` (SDL's connection; SDL owns it).
    let display: OpaquePointer
    /// The X window id.
    let window: CX11.Window

    /// Asks SDL (`SDL_GetWindowWMInfo`) for the X11 handles of `sdlWindow`.
    init?(of sdlWindow: OpaquePointer) {
        var info = SDL_SysWMinfo()
        info.version.major = UInt8(SDL_MAJOR_VERSION)
        info.version.minor = UInt8(SDL_MINOR_VERSION)
        info.version.patch = UInt8(SDL_PATCHLEVEL)
        guard SDL_GetWindowWMInfo(sdlWindow, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_X11,
              let display = info.info.x11.display else {
            SDL_ClearError()
            return nil
        }
        self.display = display
        window = info.info.x11.window
    }
}
