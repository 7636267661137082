import CWayland
import HeeRender

/// Hears the compositor take touches back (`wl_touch.cancel`) on SDL's Wayland connection,
/// which SDL 2.26 does not: a `wl_touch` of our own (`touch_cancel_watch.c`) turns the cancel
/// into an `SDL_USEREVENT` (code `HEE_USER_EVENT_TOUCHES_CANCELLED`) that the translator makes
/// the session's `touchesCancelled` and `--record` writes as a `touchcancel` record. Lives as
/// long as the window; only for a window on SDL's Wayland driver.
final class WaylandTouchCancelWatch {
    private let watch: OpaquePointer

    /// Starts hearing cancels on `window`'s Wayland connection.
    /// - Throws: `SDLError` when the window is not a Wayland window, or out of memory.
    init(window: Window) throws(SDLError) {
        var display: OpaquePointer?
        var surface: OpaquePointer?
        guard hee_sdl_wayland_handles(window.pointer, &display, &surface) != 0, let display else {
            throw SDLError("SDL_GetWindowWMInfo")
        }
        guard let watch = hee_touch_cancel_watch_create(display) else {
            throw SDLError("wl_display_get_registry", message: "cannot watch the compositor's touch cancels")
        }
        self.watch = watch
    }

    deinit { hee_touch_cancel_watch_destroy(watch) }
}
