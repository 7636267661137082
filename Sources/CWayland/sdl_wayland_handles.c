// SDL_syswm.h is included here only, so that its X11 and Wayland declarations stay out of the
// Swift modules.
#include <SDL2/SDL_syswm.h>
#include "CWayland.h"

int hee_sdl_wayland_handles(struct SDL_Window *window, struct wl_display **display, struct wl_surface **surface) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_WAYLAND) {
        return 0;
    }
    *display = info.info.wl.display;
    *surface = info.info.wl.surface;
    return *display != NULL && *surface != NULL;
}
