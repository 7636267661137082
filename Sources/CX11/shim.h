#ifndef HEE_CX11_SHIM_H
#define HEE_CX11_SHIM_H
// Xlib for the X11-only parts of HeeApp (the window class, X error handlers), and SDL's
// window-system info, which hands out the X display and window behind an SDL window.
// Kept out of CSDL so that Xlib's short names (Window, Font, Display, ...) reach only the
// files that import this module.
#include <SDL2/SDL_syswm.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

/// `DestroyNotify` (an X event type).
static const int HEE_X11_DESTROY_NOTIFY = DestroyNotify;
/// `BadWindow`, `BadDrawable`: errors about a window that no longer exists.
static const unsigned char HEE_X11_BAD_WINDOW = BadWindow;
static const unsigned char HEE_X11_BAD_DRAWABLE = BadDrawable;

#endif
