#ifndef HEE_CWAYLAND_H
#define HEE_CWAYLAND_H
// What HeeApp needs of Wayland beside SDL: libwayland-client's protocol functions (wl_shm,
// wl_buffer, wl_surface), the Wayland handles of an SDL window, and shared-memory files for
// wl_shm pools. Used only when SDL runs on its Wayland driver (see HeeApp/WaylandPresenter).
#include <stddef.h>
#include <wayland-client.h>

struct SDL_Window;
struct hee_touch_cancel_watch;

/// The Wayland connection and surface of `window` (an `SDL_Window *`), from
/// `SDL_GetWindowWMInfo`. Returns 1 and fills both when the window is a Wayland window,
/// 0 otherwise (another video driver, or SDL failed: see `SDL_GetError()`).
int hee_sdl_wayland_handles(struct SDL_Window *window, struct wl_display **display, struct wl_surface **surface);

/// `SDL_Vulkan_LoadLibrary(path)` and `SDL_Vulkan_UnloadLibrary()` (SDL_vulkan.h stays
/// out of the Swift modules, like SDL_syswm.h). Returns 0 on success, -1 (`SDL_GetError()`).
int hee_sdl_vulkan_load_library(const char *path);
void hee_sdl_vulkan_unload_library(void);

/// An anonymous shared-memory file of `size` bytes (`memfd_create`, sealed against
/// shrinking) to back a `wl_shm_pool`. Returns the file descriptor, or -1 with `errno` set.
int hee_shm_file_create(size_t size);

/// The `code` of the `SDL_USEREVENT` that `hee_touch_cancel_watch` pushes: the compositor
/// took every touch back (`wl_touch.cancel`).
#define HEE_USER_EVENT_TOUCHES_CANCELLED 1

/// Hears `wl_touch.cancel`, which SDL 2.26 drops, on SDL's Wayland connection `display`:
/// a `wl_touch` of our own on every seat that has touch, whose cancel becomes an
/// `SDL_USEREVENT` with code `HEE_USER_EVENT_TOUCHES_CANCELLED`. Its objects are on the
/// connection's default queue: SDL's event pump dispatches them on the main thread, in order
/// with SDL's own input events. Returns NULL when out of memory.
struct hee_touch_cancel_watch *hee_touch_cancel_watch_create(struct wl_display *display);
/// Releases the watch's seats and touches (call before SDL closes the connection).
void hee_touch_cancel_watch_destroy(struct hee_touch_cancel_watch *watch);

/// `&wl_shm_interface` (Swift cannot take the address of an imported C constant).
static inline const struct wl_interface *hee_wl_shm_interface(void) { return &wl_shm_interface; }

#endif
