// GIO loaded at run time (see gio_library.h): only a keyboard that serves the session bus
// (Wayland system mode) loads it.
#include <dlfcn.h>
#include <stdio.h>

#include "gio_library.h"

#define HEE_GIO_SONAME "libgio-2.0.so.0"

#define HEE_GIO_DEFINE(name) __typeof__(name) *hee_gio_##name;
HEE_GIO_FUNCTIONS(HEE_GIO_DEFINE)

int hee_gio_load(char *error, size_t size) {
    static int loaded;   // main thread only
    if (loaded)
        return 0;
    void *library = dlopen(HEE_GIO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, size, "%s", dlerror());
        return -1;
    }
#define HEE_GIO_LOOKUP(name)                                                                \
    if (!(hee_gio_##name = (__typeof__(name) *)dlsym(library, #name))) {                        \
        snprintf(error, size, "%s is missing from %s or its libraries", #name, HEE_GIO_SONAME); \
        return -1;                                                                          \
    }
    HEE_GIO_FUNCTIONS(HEE_GIO_LOOKUP)
    loaded = 1;
    return 0;
}
