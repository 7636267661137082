// Hears wl_touch.cancel on SDL's Wayland connection (see CWayland.h). SDL 2.26's own
// wl_touch listener ignores the event, so a touch the compositor takes back for a gesture of
// its own would stay down in the app. A compositor sends the cancel to every wl_touch of the
// client that has the touch focus, so a wl_touch of our own on the same connection gets it
// too; it turns it into an SDL_USEREVENT (code HEE_USER_EVENT_TOUCHES_CANCELLED).
//
// Our registry, seats and wl_touch objects live on the connection's default queue, which
// SDL's event pump dispatches on the main thread: each callback runs there, in protocol
// order with SDL's own input listeners, so the event we push comes after the finger events
// SDL pushed for what happened before the cancel, and it wakes SDL_WaitEventTimeout at once
// (on a queue of our own it would wait for the next SDL event). The callbacks only keep
// their own objects and push an event.
#include <SDL2/SDL.h>
#include <stdlib.h>
#include <string.h>
#include "CWayland.h"

enum { MAX_SEATS = 8 };

struct hee_touch_seat {
    struct hee_touch_cancel_watch *watch;
    uint32_t name;               // the global's name, for global_remove
    struct wl_seat *seat;
    struct wl_touch *touch;
};

struct hee_touch_cancel_watch {
    struct wl_display *display;
    struct wl_registry *registry;
    struct hee_touch_seat seats[MAX_SEATS];
};

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)touch; (void)serial; (void)time; (void)surface; (void)id; (void)x; (void)y;
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
    (void)data; (void)touch; (void)serial; (void)time; (void)id;
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)touch; (void)time; (void)id; (void)x; (void)y;
}

static void touch_frame(void *data, struct wl_touch *touch) {
    (void)data; (void)touch;
}

static void touch_cancel(void *data, struct wl_touch *touch) {
    (void)data; (void)touch;
    SDL_Event event;
    memset(&event, 0, sizeof event);
    event.type = SDL_USEREVENT;
    event.user.timestamp = SDL_GetTicks();
    event.user.code = HEE_USER_EVENT_TOUCHES_CANCELLED;
    SDL_PushEvent(&event);
}

// Version 5 at most (see bind_seat): shape and orientation (version 6) never come.
static const struct wl_touch_listener touch_listener = {
    .down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame, .cancel = touch_cancel,
};

static void release_touch(struct hee_touch_seat *entry) {
    if (!entry->touch)
        return;
    if (wl_touch_get_version(entry->touch) >= WL_TOUCH_RELEASE_SINCE_VERSION)
        wl_touch_release(entry->touch);
    else
        wl_touch_destroy(entry->touch);
    entry->touch = NULL;
}

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    struct hee_touch_seat *entry = data;
    if ((capabilities & WL_SEAT_CAPABILITY_TOUCH) && !entry->touch) {
        entry->touch = wl_seat_get_touch(seat);
        if (entry->touch)
            wl_touch_add_listener(entry->touch, &touch_listener, entry);
    } else if (!(capabilities & WL_SEAT_CAPABILITY_TOUCH)) {
        release_touch(entry);
    }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) {
    (void)data; (void)seat; (void)name;
}

static const struct wl_seat_listener seat_listener = {
    .capabilities = seat_capabilities, .name = seat_name,
};

static void forget_seat(struct hee_touch_seat *entry) {
    release_touch(entry);
    if (entry->seat) {
        if (wl_seat_get_version(entry->seat) >= WL_SEAT_RELEASE_SINCE_VERSION)
            wl_seat_release(entry->seat);
        else
            wl_seat_destroy(entry->seat);
    }
    entry->seat = NULL;
    entry->name = 0;
}

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    struct hee_touch_cancel_watch *watch = data;
    if (strcmp(interface, wl_seat_interface.name) != 0)
        return;
    for (int i = 0; i < MAX_SEATS; i++) {
        struct hee_touch_seat *entry = &watch->seats[i];
        if (entry->seat)
            continue;
        entry->watch = watch;
        entry->name = name;
        entry->seat = wl_registry_bind(registry, name, &wl_seat_interface, version < 5 ? version : 5);
        if (entry->seat)
            wl_seat_add_listener(entry->seat, &seat_listener, entry);
        return;
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)registry;
    struct hee_touch_cancel_watch *watch = data;
    for (int i = 0; i < MAX_SEATS; i++)
        if (watch->seats[i].seat && watch->seats[i].name == name)
            forget_seat(&watch->seats[i]);
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global, .global_remove = registry_global_remove,
};

struct hee_touch_cancel_watch *hee_touch_cancel_watch_create(struct wl_display *display) {
    struct hee_touch_cancel_watch *watch = calloc(1, sizeof *watch);
    if (!watch)
        return NULL;
    watch->display = display;
    watch->registry = wl_display_get_registry(display);
    if (!watch->registry) {
        free(watch);
        return NULL;
    }
    wl_registry_add_listener(watch->registry, &registry_listener, watch);
    wl_display_flush(display);
    return watch;
}

void hee_touch_cancel_watch_destroy(struct hee_touch_cancel_watch *watch) {
    if (!watch)
        return;
    for (int i = 0; i < MAX_SEATS; i++)
        forget_seat(&watch->seats[i]);
    wl_registry_destroy(watch->registry);
    wl_display_flush(watch->display);
    free(watch);
}
