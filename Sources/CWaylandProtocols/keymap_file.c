// A keymap for zwp_virtual_keyboard_v1.keymap: an anonymous file holding the text and its NUL,
// sealed, so the compositor (which maps it) never sees it shrink or change.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CWaylandProtocols.h"

int hee_keymap_file(const char *text, size_t size) {
    int fd = memfd_create("hee-keyboard-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) {
        return -1;
    }
    size_t written = 0;
    while (written < size) {
        ssize_t n = write(fd, text + written, size - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        written += (size_t)n;
    }
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    return fd;
}
