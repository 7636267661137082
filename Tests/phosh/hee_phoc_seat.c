/*
 * hee_phoc_seat.so: an LD_PRELOAD library for phoc 0.24 (wlroots 0.15) on wlroots' headless
 * backend, for the Phosh tests (Tests/e2e/run_phosh_tests.py).
 *
 * phoc makes its wl_seat when the first input device appears, and the headless backend has
 * none; phosh (GDK) does not start without a seat. Once phoc has started its backend, this
 * library adds a headless keyboard and a headless touch screen (wlroots 0.15's
 * wlr_headless_add_input_device) and feeds the touch screen from a FIFO, one command a line,
 * in the output's layout coordinates (HEE_PHOC_SIZE "WxH", default 360x720):
 *     down ID X Y      a touch point goes down
 *     up ID            it lifts
 *     frame            the end of a group of touch events
 * The FIFO is $HEE_PHOC_FIFO (default $XDG_RUNTIME_DIR/hee-phoc-seat).
 *
 * With phoc's damage tracking on the pixman renderer, a screencopy client (grim) reads back
 * black wherever a frame was not damaged; each frame phoc renders is made whole here, so a
 * screenshot shows the whole screen. LD_PRELOAD is taken out of the environment at load, so
 * the programs phoc starts (-E) do not load this library.
 */
#define _GNU_SOURCE
#define WLR_USE_UNSTABLE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_damage.h>
#include <wlr/types/wlr_touch.h>

static struct wl_display *server;
static struct wlr_input_device *touch_screen;
static double layout_width = 360, layout_height = 720;
static char pending[1024];
static size_t pending_length;
static int devices_added;

__attribute__((constructor)) static void forget_preload(void) { unsetenv("LD_PRELOAD"); }

static uint32_t milliseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

/* phoc's display, kept for its event loop. */
struct wl_display *wl_display_create(void) {
    struct wl_display *(*create)(void) = (struct wl_display *(*)(void))dlsym(RTLD_NEXT, "wl_display_create");
    server = create();
    return server;
}

static void run_line(const char *line) {
    int id;
    double x, y;
    if (!touch_screen) return;
    if (sscanf(line, "down %d %lf %lf", &id, &x, &y) == 3) {
        struct wlr_event_touch_down down = { .device = touch_screen, .time_msec = milliseconds(), .touch_id = id,
                                             .x = x / layout_width, .y = y / layout_height };
        wl_signal_emit(&touch_screen->touch->events.down, &down);
    } else if (sscanf(line, "up %d", &id) == 1) {
        struct wlr_event_touch_up up = { .device = touch_screen, .time_msec = milliseconds(), .touch_id = id };
        wl_signal_emit(&touch_screen->touch->events.up, &up);
    } else if (!strcmp(line, "frame")) {
        wl_signal_emit(&touch_screen->touch->events.frame, NULL);
    } else {
        fprintf(stderr, "hee_phoc_seat: not a command: %s\n", line);
    }
}

static int fifo_readable(int fd, uint32_t mask, void *data) {
    (void)mask; (void)data;
    ssize_t count = read(fd, pending + pending_length, sizeof pending - 1 - pending_length);
    if (count <= 0) return 0;
    pending_length += (size_t)count;
    char *start = pending, *end;
    while ((end = memchr(start, '\n', (size_t)(pending + pending_length - start)))) {
        *end = 0;
        if (end > start) run_line(start);
        start = end + 1;
    }
    pending_length = (size_t)(pending + pending_length - start);
    memmove(pending, start, pending_length);
    if (pending_length == sizeof pending - 1) pending_length = 0;   /* a line too long: dropped */
    return 0;
}

static void add_devices(struct wlr_backend *backend, void *data) {
    (void)data;
    if (devices_added || !wlr_backend_is_headless(backend)) return;
    devices_added = 1;
    const char *size = getenv("HEE_PHOC_SIZE");
    if (size) sscanf(size, "%lfx%lf", &layout_width, &layout_height);
    wlr_headless_add_input_device(backend, WLR_INPUT_DEVICE_KEYBOARD);
    touch_screen = wlr_headless_add_input_device(backend, WLR_INPUT_DEVICE_TOUCH);
    char path[512];
    const char *fifo = getenv("HEE_PHOC_FIFO");
    if (!fifo) {
        snprintf(path, sizeof path, "%s/hee-phoc-seat", getenv("XDG_RUNTIME_DIR") ? getenv("XDG_RUNTIME_DIR") : "/tmp");
        fifo = path;
    }
    unlink(fifo);
    if (mkfifo(fifo, 0600) != 0) {
        fprintf(stderr, "hee_phoc_seat: mkfifo %s: %s\n", fifo, strerror(errno));
        return;
    }
    int fd = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    wl_event_loop_add_fd(wl_display_get_event_loop(server), fd, WL_EVENT_READABLE, fifo_readable, NULL);
    fprintf(stderr, "hee_phoc_seat: keyboard and touch screen added; touches from %s\n", fifo);
}

bool wlr_backend_start(struct wlr_backend *backend) {
    bool (*start)(struct wlr_backend *) = (bool (*)(struct wlr_backend *))dlsym(RTLD_NEXT, "wlr_backend_start");
    bool started = start(backend);
    if (started && server) {
        if (wlr_backend_is_multi(backend)) wlr_multi_for_each_backend(backend, add_devices, NULL);
        else add_devices(backend, NULL);
    }
    return started;
}

/* Every frame rendered whole (see the top). */
bool wlr_output_damage_attach_render(struct wlr_output_damage *damage, bool *needs_frame, pixman_region32_t *buffer_damage) {
    static bool (*attach)(struct wlr_output_damage *, bool *, pixman_region32_t *);
    if (!attach) attach = (bool (*)(struct wlr_output_damage *, bool *, pixman_region32_t *))dlsym(RTLD_NEXT, "wlr_output_damage_attach_render");
    bool attached = attach(damage, needs_frame, buffer_damage);
    if (attached) pixman_region32_union_rect(buffer_damage, buffer_damage, 0, 0, damage->output->width, damage->output->height);
    return attached;
}
