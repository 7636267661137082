/*
 * hee-touch: a weston module that gives weston a seat with a touch screen and a pointer,
 * driven by text commands from a FIFO, so the end-to-end tests can touch the app through a
 * real compositor (issue 19). Built by Tests/touch/Makefile against Debian's libweston-10-dev.
 *
 * weston --backend=headless-backend.so --use-pixman --shell=kiosk-shell.so --xwayland \
 *        --modules=/abs/path/hee-touch.so
 * with HEE_TOUCH_COMMANDS and HEE_TOUCH_REPLIES naming two FIFOs the test made.
 *
 * Commands, one a line (coordinates in pixels of the first output, fractions allowed):
 *   down ID X Y      a finger touches        motion ID X Y    it moves
 *   up ID            it lifts                frame            the end of a set of touch events
 *   cancel           the compositor takes every touch back (wl_touch.cancel to the client
 *                    with the touch focus; the points' later motion and up go nowhere)
 *   pointer X Y      the pointer moves there  press / release  its left button
 *   shot PATH        the output's pixels after its next repaint, as a binary PPM at PATH
 *   sync WORD        nothing; the reply proves every command before it was handled
 * Every command gets one reply line: "ok COMMAND" or "error COMMAND: reason" (for shot, once
 * the file is written).
 *
 * The prototypes below are libweston-10.so.0's exported functions that weston declares only
 * in its private headers (backend.h, libweston-internal.h); their signatures are facts of
 * that ABI.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/input-event-codes.h>
#include <wayland-server.h>
#include <libweston/libweston.h>

#include "hee_touch_commands.h"

/* libweston-10.so.0, private declarations (libweston/backend.h, libweston-internal.h). */
void weston_seat_init(struct weston_seat *seat, struct weston_compositor *ec, const char *seat_name);
void weston_seat_release(struct weston_seat *seat);
void weston_seat_init_touch(struct weston_seat *seat);
void weston_seat_init_pointer(struct weston_seat *seat);
struct weston_touch_device *weston_touch_create_touch_device(struct weston_touch *touch, const char *syspath,
                                                             void *backend_data, const void *ops);
void weston_touch_device_destroy(struct weston_touch_device *device);
void notify_touch_normalized(struct weston_touch_device *device, const struct timespec *time, int touch_id,
                             double x, double y, const void *norm, int touch_type);
void notify_touch_frame(struct weston_touch_device *device);
void notify_touch_cancel(struct weston_touch_device *device);
void notify_motion_absolute(struct weston_seat *seat, const struct timespec *time, double x, double y);
void notify_button(struct weston_seat *seat, const struct timespec *time, int32_t button,
                   enum wl_pointer_button_state state);
void notify_pointer_frame(struct weston_seat *seat);
void weston_output_damage(struct weston_output *output);

/* One screenshot waiting for its output's next repaint. */
struct shot {
    struct hee_touch *owner;
    struct weston_output *output;
    struct wl_listener frame;
    char *path;
    char *command;
};

/* A touch point the test put down: live, or taken back by `cancel` (its later motion and up
 * go nowhere, as a compositor's gesture keeps them). */
struct point {
    int id;
    enum { FREE, LIVE, CANCELLED } state;
};

enum { MAX_POINTS = 16 };

/* The module's state: the seat, its touch device, its touch points, the FIFOs. */
struct hee_touch {
    struct weston_compositor *compositor;
    struct weston_seat seat;
    struct weston_touch_device *device;
    struct point points[MAX_POINTS];
    struct wl_event_source *source;
    struct wl_listener destroy;
    int commands;
    int replies;
    char line[4096];
    size_t used;
};

/* Writes one reply line (best effort: a test that reads no replies loses them). */
static void reply(struct hee_touch *ht, const char *format, ...)
{
    char text[4200];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(text, sizeof text - 1, format, args);
    va_end(args);
    if (n < 0)
        return;
    if ((size_t)n > sizeof text - 2)
        n = sizeof text - 2;
    text[n] = '\n';
    if (write(ht->replies, text, (size_t)n + 1) < 0)
        weston_log("hee-touch: cannot write a reply: %s\n", strerror(errno));
}

static struct weston_output *first_output(struct hee_touch *ht)
{
    struct weston_output *output;
    wl_list_for_each(output, &ht->compositor->output_list, link)
        return output;
    return NULL;
}

/* Output pixels to the compositor's global coordinates. */
static int to_global(struct hee_touch *ht, double px, double py, double *gx, double *gy)
{
    struct weston_output *output = first_output(ht);
    if (!output)
        return -1;
    int scale = output->current_scale > 0 ? output->current_scale : 1;
    *gx = output->x + px / scale;
    *gy = output->y + py / scale;
    return 0;
}

/* Reads the output's pixels (it has just been repainted) into the PPM file. */
static void shot_frame(struct wl_listener *listener, void *data)
{
    (void)data;
    struct shot *shot = wl_container_of(listener, shot, frame);
    struct weston_output *output = shot->output;
    struct weston_compositor *compositor = output->compositor;
    wl_list_remove(&shot->frame.link);
    int width = output->current_mode->width, height = output->current_mode->height;
    uint32_t *pixels = malloc((size_t)width * height * 4);
    unsigned char *row = malloc((size_t)width * 3);
    FILE *file = pixels && row ? fopen(shot->path, "wb") : NULL;
    pixman_format_code_t format = compositor->read_format;
    int rgba = format == PIXMAN_a8b8g8r8 || format == PIXMAN_x8b8g8r8;
    int bgra = format == PIXMAN_a8r8g8b8 || format == PIXMAN_x8r8g8b8;
    if (!file) {
        reply(shot->owner, "error %s: cannot write the file", shot->command);
    } else if (!rgba && !bgra) {
        reply(shot->owner, "error %s: the renderer reads pixels in an unknown format", shot->command);
    } else if (compositor->renderer->read_pixels(output, format, pixels, 0, 0, width, height) < 0) {
        reply(shot->owner, "error %s: the renderer cannot read pixels (run weston with --use-pixman)",
              shot->command);
    } else {
        int flip = (compositor->capabilities & WESTON_CAP_CAPTURE_YFLIP) != 0;
        fprintf(file, "P6\n%d %d\n255\n", width, height);
        for (int y = 0; y < height; y++) {
            const uint32_t *source = pixels + (size_t)(flip ? height - 1 - y : y) * width;
            for (int x = 0; x < width; x++) {
                uint32_t p = source[x];
                unsigned char r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
                row[x * 3 + 0] = rgba ? b : r;
                row[x * 3 + 1] = g;
                row[x * 3 + 2] = rgba ? r : b;
            }
            fwrite(row, 3, (size_t)width, file);
        }
        if (fclose(file) != 0)
            reply(shot->owner, "error %s: cannot write the file", shot->command);
        else
            reply(shot->owner, "ok %s", shot->command);
        file = NULL;
    }
    if (file)
        fclose(file);
    free(row);
    free(pixels);
    free(shot->path);
    free(shot->command);
    free(shot);
}

static void take_shot(struct hee_touch *ht, const struct hee_command *command, const char *text)
{
    struct weston_output *output = first_output(ht);
    if (!output) {
        reply(ht, "error %s: no output", text);
        return;
    }
    struct shot *shot = calloc(1, sizeof *shot);
    if (!shot || !(shot->path = strdup(command->path)) || !(shot->command = strdup(text))) {
        reply(ht, "error %s: out of memory", text);
        if (shot)
            free(shot->path);
        free(shot);
        return;
    }
    shot->owner = ht;
    shot->output = output;
    shot->frame.notify = shot_frame;
    wl_signal_add(&output->frame_signal, &shot->frame);
    weston_output_damage(output);
    weston_output_schedule_repaint(output);
}

static struct point *find_point(struct hee_touch *ht, int id)
{
    for (int i = 0; i < MAX_POINTS; i++)
        if (ht->points[i].state != FREE && ht->points[i].id == id)
            return &ht->points[i];
    return NULL;
}

/* A compositor taking every touch back for a gesture of its own: wl_touch.cancel to the
 * clients that have the touch focus, then the points end inside weston with no client told
 * (weston 10's own notify_touch_cancel only cancels a grab; its default grab tells clients
 * nothing). */
static void cancel_touches(struct hee_touch *ht, const struct timespec *now)
{
    struct weston_touch *touch = weston_seat_get_touch(&ht->seat);
    struct wl_resource *resource;
    notify_touch_cancel(ht->device);
    wl_resource_for_each(resource, &touch->focus_resource_list)
        wl_touch_send_cancel(resource);
    weston_touch_set_focus(touch, NULL);
    for (int i = 0; i < MAX_POINTS; i++) {
        if (ht->points[i].state != LIVE)
            continue;
        notify_touch_normalized(ht->device, now, ht->points[i].id, 0, 0, NULL, WL_TOUCH_UP);
        ht->points[i].state = CANCELLED;
    }
}

/* Passes a touch event on, keeping the points' states; returns what to say of it. */
static const char *touch_event(struct hee_touch *ht, const struct hee_command *command, double x, double y,
                               const struct timespec *now)
{
    struct point *point = find_point(ht, command->id);
    switch (command->kind) {
    case HEE_DOWN:
        if (point && point->state == LIVE)
            return "that id is down already";
        for (int i = 0; !point && i < MAX_POINTS; i++)
            if (ht->points[i].state == FREE)
                point = &ht->points[i];
        if (!point)
            return "too many touch points";
        point->id = command->id;
        point->state = LIVE;
        notify_touch_normalized(ht->device, now, command->id, x, y, NULL, WL_TOUCH_DOWN);
        return NULL;
    case HEE_MOTION:
    case HEE_UP:
        if (!point)
            return "no such touch point";
        if (point->state == LIVE)
            notify_touch_normalized(ht->device, now, command->id, x, y, NULL,
                                    command->kind == HEE_UP ? WL_TOUCH_UP : WL_TOUCH_MOTION);
        if (command->kind == HEE_UP)
            point->state = FREE;
        return NULL;
    default:
        return NULL;
    }
}

static void run_command(struct hee_touch *ht, const char *text)
{
    struct hee_command command;
    char error[200];
    if (hee_parse_command(text, &command, error, sizeof error) < 0) {
        reply(ht, "error %s: %s", text, error);
        return;
    }
    struct timespec now;
    double x = 0, y = 0;
    weston_compositor_get_time(&now);
    if ((command.kind == HEE_DOWN || command.kind == HEE_MOTION || command.kind == HEE_POINTER)
        && to_global(ht, command.x, command.y, &x, &y) < 0) {
        reply(ht, "error %s: no output", text);
        return;
    }
    const char *problem = NULL;
    switch (command.kind) {
    case HEE_DOWN:
    case HEE_MOTION:
    case HEE_UP:
        problem = touch_event(ht, &command, x, y, &now);
        break;
    case HEE_FRAME:
        notify_touch_frame(ht->device);
        break;
    case HEE_CANCEL:
        cancel_touches(ht, &now);
        break;
    case HEE_POINTER:
        notify_motion_absolute(&ht->seat, &now, x, y);
        notify_pointer_frame(&ht->seat);
        break;
    case HEE_PRESS:
    case HEE_RELEASE:
        notify_button(&ht->seat, &now, BTN_LEFT,
                      command.kind == HEE_PRESS ? WL_POINTER_BUTTON_STATE_PRESSED
                                                : WL_POINTER_BUTTON_STATE_RELEASED);
        notify_pointer_frame(&ht->seat);
        break;
    case HEE_SHOT:
        take_shot(ht, &command, text);
        return;
    case HEE_SYNC:
        break;
    }
    if (problem)
        reply(ht, "error %s: %s", text, problem);
    else
        reply(ht, "ok %s", text);
}

/* The command FIFO is readable: runs every complete line. */
static int commands_readable(int fd, uint32_t mask, void *data)
{
    (void)mask;
    struct hee_touch *ht = data;
    for (;;) {
        ssize_t n = read(fd, ht->line + ht->used, sizeof ht->line - 1 - ht->used);
        if (n <= 0)
            return 0;
        ht->used += (size_t)n;
        char *start = ht->line, *end;
        while ((end = memchr(start, '\n', ht->line + ht->used - start))) {
            *end = '\0';
            if (end > start)
                run_command(ht, start);
            start = end + 1;
        }
        ht->used -= (size_t)(start - ht->line);
        memmove(ht->line, start, ht->used);
        if (ht->used == sizeof ht->line - 1) {
            reply(ht, "error (a line of %zu bytes): too long", ht->used);
            ht->used = 0;
        }
    }
}

static void compositor_destroyed(struct wl_listener *listener, void *data)
{
    (void)data;
    struct hee_touch *ht = wl_container_of(listener, ht, destroy);
    wl_event_source_remove(ht->source);
    weston_touch_device_destroy(ht->device);
    weston_seat_release(&ht->seat);
    close(ht->commands);
    close(ht->replies);
    free(ht);
}

/* Opens a FIFO named by an environment variable, read and write, so it never reports an end. */
static int open_fifo(const char *variable)
{
    const char *path = getenv(variable);
    if (!path || !*path) {
        weston_log("hee-touch: %s is not set (the path of a FIFO)\n", variable);
        return -1;
    }
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        weston_log("hee-touch: cannot open %s=%s: %s\n", variable, path, strerror(errno));
    return fd;
}

WL_EXPORT int wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
    (void)argc;
    (void)argv;
    struct hee_touch *ht = calloc(1, sizeof *ht);
    if (!ht)
        return -1;
    ht->compositor = compositor;
    ht->commands = open_fifo("HEE_TOUCH_COMMANDS");
    ht->replies = open_fifo("HEE_TOUCH_REPLIES");
    if (ht->commands < 0 || ht->replies < 0) {
        if (ht->commands >= 0)
            close(ht->commands);
        if (ht->replies >= 0)
            close(ht->replies);
        free(ht);
        return -1;
    }
    weston_seat_init(&ht->seat, compositor, "seat0");
    weston_seat_init_pointer(&ht->seat);
    weston_seat_init_touch(&ht->seat);
    ht->device = weston_touch_create_touch_device(weston_seat_get_touch(&ht->seat), "hee-touch", NULL, NULL);
    if (!ht->device) {
        weston_log("hee-touch: cannot create the touch device\n");
        weston_seat_release(&ht->seat);
        close(ht->commands);
        close(ht->replies);
        free(ht);
        return -1;
    }
    struct wl_event_loop *loop = wl_display_get_event_loop(compositor->wl_display);
    ht->source = wl_event_loop_add_fd(loop, ht->commands, WL_EVENT_READABLE, commands_readable, ht);
    ht->destroy.notify = compositor_destroyed;
    weston_compositor_add_destroy_listener_once(compositor, &ht->destroy, compositor_destroyed);
    weston_log("hee-touch: seat0 with a touch screen and a pointer, commands from %s\n",
               getenv("HEE_TOUCH_COMMANDS"));
    return 0;
}
