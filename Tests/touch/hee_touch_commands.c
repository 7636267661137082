/* The hee-touch module's command parser: pure C, no weston (see hee_touch_commands.h). */
#include "hee_touch_commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    enum hee_command_kind kind;
    int arguments;              /* 0: none, 1: id, 2: x y, 3: id x y, -1: the rest of the line */
} commands[] = {
    {"down", HEE_DOWN, 3}, {"motion", HEE_MOTION, 3}, {"up", HEE_UP, 1},
    {"frame", HEE_FRAME, 0}, {"cancel", HEE_CANCEL, 0}, {"pointer", HEE_POINTER, 2},
    {"press", HEE_PRESS, 0}, {"release", HEE_RELEASE, 0}, {"shot", HEE_SHOT, -1},
    {"sync", HEE_SYNC, -1},
};

/* Coordinates beyond this many pixels are a typo, not a touch. */
static const double limit = 1e6;

int hee_parse_command(const char *line, struct hee_command *command, char *error, size_t error_size)
{
    char name[16];
    int used = 0;
    memset(command, 0, sizeof *command);
    if (sscanf(line, "%15s%n", name, &used) != 1) {
        snprintf(error, error_size, "empty command");
        return -1;
    }
    const char *rest = line + used;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        command->kind = commands[i].kind;
        int end = 0, count = 0;
        switch (commands[i].arguments) {
        case 0:
            end = (int)strspn(rest, " ");
            break;
        case 1:
            count = sscanf(rest, "%d %n", &command->id, &end);
            break;
        case 2:
            count = sscanf(rest, "%lf %lf %n", &command->x, &command->y, &end);
            break;
        case 3:
            count = sscanf(rest, "%d %lf %lf %n", &command->id, &command->x, &command->y, &end);
            break;
        case -1:
            while (*rest == ' ')
                rest++;
            if (commands[i].kind == HEE_SHOT && !*rest) {
                snprintf(error, error_size, "shot needs a path");
                return -1;
            }
            command->path = rest;
            return 0;
        }
        if (count != commands[i].arguments || rest[end] != '\0') {
            static const char *usage[] = {"no arguments", "an id", "x and y", "an id, x and y"};
            snprintf(error, error_size, "%s takes %s", name, usage[commands[i].arguments]);
            return -1;
        }
        if (!isfinite(command->x) || !isfinite(command->y) || fabs(command->x) > limit
            || fabs(command->y) > limit) {
            snprintf(error, error_size, "coordinates out of range");
            return -1;
        }
        return 0;
    }
    snprintf(error, error_size, "unknown command");
    return -1;
}
