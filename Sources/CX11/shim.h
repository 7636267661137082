#ifndef HEE_CX11_SHIM_H
#define HEE_CX11_SHIM_H
// X11 for system mode: Xlib (+ the XCB connection under it), XTEST, XKB and xkbcommon-x11.
// Macros that do not import into Swift are re-exported as constants or inline functions.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>
#include <X11/Xlib-xcb.h>
#include <X11/extensions/XTest.h>
#include <xcb/xcb.h>
#include <xcb/xkb.h>
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-x11.h>
// SDL's declarations are the same ones CSDL imports (Swift merges them).
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

/// The X display SDL opened for `window`, or NULL when SDL's video driver is not x11.
static inline Display *hee_sdl_x11_display(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return NULL;
    return info.info.x11.display;
}

/// The X window behind `window`, or 0 when SDL's video driver is not x11.
static inline Window hee_sdl_x11_window(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    return info.info.x11.window;
}

/// The X event an SDL_SYSWMEVENT carries, or NULL for another event or window system.
static inline const XEvent *hee_sdl_x11_event(const SDL_Event *event) {
    if (event->type != SDL_SYSWMEVENT || !event->syswm.msg || event->syswm.msg->subsystem != SDL_SYSWM_X11) return NULL;
    return &event->syswm.msg->msg.x11.event;
}

/// `None`, `CurrentTime`, `PointerRoot` and `NoSymbol` (untyped macros).
static const Window HEE_X_NONE = None;
static const Window HEE_X_POINTER_ROOT = PointerRoot;
static const KeySym HEE_X_NO_SYMBOL = NoSymbol;
/// `XA_ATOM`, `XA_WINDOW`, `XA_STRING`, `XA_WM_NAME`, `XA_CARDINAL` (cast macros).
static const Atom HEE_XA_ATOM = XA_ATOM;
static const Atom HEE_XA_WINDOW = XA_WINDOW;
static const Atom HEE_XA_STRING = XA_STRING;
static const Atom HEE_XA_WM_NAME = XA_WM_NAME;

#endif
