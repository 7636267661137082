#ifndef HEE_CWAYLAND_H
#define HEE_CWAYLAND_H
// What HeeApp needs of Wayland beside SDL: libwayland-client's protocol functions (wl_shm,
// wl_buffer, wl_surface), the Wayland handles of an SDL window, and shared-memory files for
// wl_shm pools. Used only when SDL runs on its Wayland driver (see HeeApp/WaylandPresenter).
#include <stddef.h>
#include <wayland-client.h>

struct SDL_Window;

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

/// `&wl_shm_interface` (Swift cannot take the address of an imported C constant).
static inline const struct wl_interface *hee_wl_shm_interface(void) { return &wl_shm_interface; }

#endif
