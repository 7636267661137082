#if canImport(Glibc)
import Glibc
#endif
import CX11

/// The X window class (`WM_CLASS`) the window manager, task bars and launchers see.
///
/// SDL 2.26 names it after the executable (`HeeApp` from a build, `hee-keyboard` when
/// installed) unless `SDL_VIDEO_X11_WMCLASS` is set; desktops match it against the .desktop
/// file's `StartupWMClass` to group the window with its launcher and icon, so the app sets
/// it itself, whatever the binary is called.
enum X11WindowClass {
    /// Both parts of `WM_CLASS` (instance name and class), as in
    /// `data/hee-keyboard.desktop`'s `StartupWMClass`.
    static let name = "hee-keyboard"

    /// Sets `WM_CLASS` on `window` (before it is mapped, so the window manager reads it when
    /// it takes the window in). Does nothing when the window is not an X11 window.
    static func set(on window: X11WindowHandles) {
        guard let instance = strdup(name), let className = strdup(name) else { return }
        defer {
            free(instance)
            free(className)
        }
        var hint = XClassHint(res_name: instance, res_class: className)
        XSetClassHint(window.display, window.window, &hint)
    }
}
