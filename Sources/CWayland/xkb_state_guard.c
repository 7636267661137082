// SDL 2.26's Wayland keyboard code applies a wl_keyboard.modifiers event to its xkb_state
// without checking that one exists: a compositor that sends modifiers before the keymap (an
// embedded one, one restarting its input, a proxy) makes libxkbcommon dereference NULL and
// the app crash inside SDL's event pump (libsdl-org/SDL#9022, fixed in SDL 2.30.1 by #9023).
//
// SDL calls libxkbcommon through the dynamic linker, and a definition in the executable comes
// first, so these two functions stand in front of libxkbcommon's: with no state or keymap
// yet they do nothing (the modifiers are sent again with the next key, and the keymap
// follows), otherwise they call the real ones. Nothing else in HeeApp uses libxkbcommon
// (SDL's X11 driver does not), so this changes behaviour only where SDL would crash.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <xkbcommon/xkbcommon.h>

enum xkb_state_component xkb_state_update_mask(struct xkb_state *state, xkb_mod_mask_t depressed_mods,
                                               xkb_mod_mask_t latched_mods, xkb_mod_mask_t locked_mods,
                                               xkb_layout_index_t depressed_layout,
                                               xkb_layout_index_t latched_layout,
                                               xkb_layout_index_t locked_layout) {
    typedef enum xkb_state_component (*function)(struct xkb_state *, xkb_mod_mask_t, xkb_mod_mask_t,
                                                 xkb_mod_mask_t, xkb_layout_index_t, xkb_layout_index_t,
                                                 xkb_layout_index_t);
    static function real;
    if (state == NULL) {
        return 0;
    }
    if (real == NULL) {
        real = (function)dlsym(RTLD_NEXT, "xkb_state_update_mask");
    }
    return real ? real(state, depressed_mods, latched_mods, locked_mods, depressed_layout, latched_layout,
                       locked_layout)
                : 0;
}

void xkb_keymap_key_for_each(struct xkb_keymap *keymap, xkb_keymap_key_iter_t iter, void *data) {
    typedef void (*function)(struct xkb_keymap *, xkb_keymap_key_iter_t, void *);
    static function real;
    if (keymap == NULL) {
        return;
    }
    if (real == NULL) {
        real = (function)dlsym(RTLD_NEXT, "xkb_keymap_key_for_each");
    }
    if (real) {
        real(keymap, iter, data);
    }
}
