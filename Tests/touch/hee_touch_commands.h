/* The hee-touch module's command language (see hee_touch.c): one command a line. */
#ifndef HEE_TOUCH_COMMANDS_H
#define HEE_TOUCH_COMMANDS_H

#include <stddef.h>

enum hee_command_kind {
    HEE_DOWN, HEE_MOTION, HEE_UP, HEE_FRAME, HEE_CANCEL,
    HEE_POINTER, HEE_PRESS, HEE_RELEASE, HEE_SHOT, HEE_SYNC
};

/* One parsed command: `id` for down/motion/up, `x` and `y` (output pixels) for down, motion
 * and pointer, `path` (pointing into the parsed line) for shot. */
struct hee_command {
    enum hee_command_kind kind;
    int id;
    double x, y;
    const char *path;
};

/* Parses `line` (no newline) into `command`; returns 0, or -1 with a reason in `error`. */
int hee_parse_command(const char *line, struct hee_command *command, char *error, size_t error_size);

#endif
