#ifndef HEE_CX11_SHIM_H
#define HEE_CX11_SHIM_H
// Xlib for the X11-only parts of HeeApp (the window class, X error handlers, system mode's
// X11 layer: XTEST, XKB, xkbcommon-x11, XInput 1), and SDL's window-system info, which hands
// out the X display, window and events behind SDL's. Kept out of CSDL so that Xlib's short
// names (Window, Font, Display, ...) reach only the files that import this module.
// Macros that do not import into Swift are re-exported as constants or inline functions.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>
#include <X11/Xlib-xcb.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/XInput.h>
#include <string.h>
#include <xcb/xcb.h>
#include <xcb/xkb.h>
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-x11.h>
// SDL's declarations are the same ones CSDL imports (Swift merges them).
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>


/// The X server's XTEST keyboard device (XInput 1's "Virtual core XTEST keyboard", the
/// device XTEST key events come from), opened, or NULL when there is none.
static inline XDevice *hee_open_xtest_keyboard(Display *display) {
    int count = 0;
    XDeviceInfo *devices = XListInputDevices(display, &count);
    XDevice *opened = NULL;
    for (int i = 0; devices && i < count && !opened; i++) {
        if (devices[i].use == IsXExtensionKeyboard && devices[i].name && strstr(devices[i].name, "XTEST")) {
            opened = XOpenDevice(display, devices[i].id);
        }
    }
    if (devices) XFreeDeviceList(devices);
    return opened;
}

/// Which keys `device` holds down, one bit per keycode in `keys` (32 bytes). Returns 0 when
/// its state cannot be read.
static inline int hee_device_keys_down(Display *display, XDevice *device, unsigned char keys[32]) {
    XDeviceState *state = XQueryDeviceState(display, device);
    if (!state) return 0;
    int found = 0;
    XInputClass *cls = state->data;
    for (int i = 0; i < state->num_classes; i++) {
        if (cls->class == KeyClass) {
            memcpy(keys, ((XKeyState *)cls)->keys, 32);
            found = 1;
        }
        cls = (XInputClass *)((char *)cls + cls->length);
    }
    XFreeDeviceState(state);
    return found;
}

/// `XA_ATOM` (a cast macro).
static const Atom HEE_XA_ATOM = XA_ATOM;

/// `XA_STRING` (a cast macro): the Latin-1 selection target.
static const Atom HEE_XA_STRING = XA_STRING;
/// `PropertyChangeMask`, `CWEventMask` (shifted long macros), for the clipboard reader's window.
static const long HEE_X11_PROPERTY_CHANGE_MASK = PropertyChangeMask;
static const unsigned long HEE_X11_CW_EVENT_MASK = CWEventMask;

/// `DestroyNotify` (an X event type).
static const int HEE_X11_DESTROY_NOTIFY = DestroyNotify;
/// `BadWindow`, `BadDrawable`: errors about a window that no longer exists.
static const unsigned char HEE_X11_BAD_WINDOW = BadWindow;
static const unsigned char HEE_X11_BAD_DRAWABLE = BadDrawable;

#endif
