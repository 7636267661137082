/* Tests of the hee-touch command parser (hee_touch_commands.c): every command, and the lines
 * it refuses. Prints one line per failure; exit status 1 if any. */
#include "hee_touch_commands.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void accepts(const char *line, enum hee_command_kind kind, int id, double x, double y, const char *path)
{
    struct hee_command c;
    char error[200] = "";
    if (hee_parse_command(line, &c, error, sizeof error) != 0) {
        printf("FAIL: \"%s\" refused: %s\n", line, error);
        failures++;
    } else if (c.kind != kind || c.id != id || c.x != x || c.y != y
               || (path ? !c.path || strcmp(c.path, path) != 0 : c.path != NULL)) {
        printf("FAIL: \"%s\" parsed as kind %d id %d (%g, %g) path %s\n", line, c.kind, c.id, c.x, c.y,
               c.path ? c.path : "(none)");
        failures++;
    }
}

static void refuses(const char *line, const char *reason)
{
    struct hee_command c;
    char error[200] = "";
    if (hee_parse_command(line, &c, error, sizeof error) == 0) {
        printf("FAIL: \"%s\" accepted\n", line);
        failures++;
    } else if (strcmp(error, reason) != 0) {
        printf("FAIL: \"%s\" refused with \"%s\", expected \"%s\"\n", line, error, reason);
        failures++;
    }
}

int main(void)
{
    accepts("down 3 10.5 -2", HEE_DOWN, 3, 10.5, -2, NULL);
    accepts("motion 0 480 800", HEE_MOTION, 0, 480, 800, NULL);
    accepts("up 7", HEE_UP, 7, 0, 0, NULL);
    accepts("frame", HEE_FRAME, 0, 0, 0, NULL);
    accepts("cancel", HEE_CANCEL, 0, 0, 0, NULL);
    accepts("pointer 1 2", HEE_POINTER, 0, 1, 2, NULL);
    accepts("press", HEE_PRESS, 0, 0, 0, NULL);
    accepts("release ", HEE_RELEASE, 0, 0, 0, NULL);
    accepts("shot /tmp/a b.ppm", HEE_SHOT, 0, 0, 0, "/tmp/a b.ppm");
    accepts("sync 12", HEE_SYNC, 0, 0, 0, "12");
    refuses("", "empty command");
    refuses("tap 1 2 3", "unknown command");
    refuses("down 1 2", "down takes an id, x and y");
    refuses("down 1 2 3 4", "down takes an id, x and y");
    refuses("up", "up takes an id");
    refuses("frame now", "frame takes no arguments");
    refuses("pointer x 2", "pointer takes x and y");
    refuses("down 1 nan 2", "coordinates out of range");
    refuses("motion 1 2 1e9", "coordinates out of range");
    refuses("shot", "shot needs a path");
    if (failures == 0)
        printf("hee-touch command parser: all checks passed\n");
    return failures ? 1 : 0;
}
