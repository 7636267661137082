// libatspi loaded at run time (see atspi_library.h), and the session bus's accessibility
// status, `org.a11y.Status.IsEnabled`, read and written through libdbus (which libatspi
// links): GTK 3 always exposes its accessible objects, but Chromium reads this property once
// at its start, and Firefox reads it at its start and follows its changes, to decide
// whether to expose theirs. Setting it is what at-spi2-core's launcher stores in GSettings
// (`org.gnome.desktop.interface toolkit-accessibility`), where GNOME keeps it too.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "atspi_library.h"

#define HEE_ATSPI_SONAME "libatspi.so.0"

#define HEE_ATSPI_DEFINE(name) __typeof__(name) *hee_##name;
HEE_ATSPI_FUNCTIONS(HEE_ATSPI_DEFINE)

int hee_atspi_load(char *error, size_t size) {
    static int loaded;   // main thread only
    if (loaded)
        return 0;
    void *library = dlopen(HEE_ATSPI_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, size, "%s", dlerror());
        return -1;
    }
#define HEE_ATSPI_LOOKUP(name)                                                             \
    if (!(hee_##name = (__typeof__(name) *)dlsym(library, #name))) {                       \
        snprintf(error, size, "%s is missing from %s or its libraries", #name, HEE_ATSPI_SONAME); \
        return -1;                                                                         \
    }
    HEE_ATSPI_FUNCTIONS(HEE_ATSPI_LOOKUP)
    loaded = 1;
    return 0;
}

static const char *const bus_name = "org.a11y.Bus";
static const char *const bus_path = "/org/a11y/bus";
static const char *const properties = "org.freedesktop.DBus.Properties";
static const char *const status_interface = "org.a11y.Status";
static const char *const enabled_property = "IsEnabled";

/// The reply to `message` (which it frees), or NULL with the reason in `error`.
static DBusMessage *call(DBusConnection *session, DBusMessage *message, int timeout_ms, char *error, size_t size) {
    DBusError failure;
    hee_dbus_error_init(&failure);
    DBusMessage *reply = hee_dbus_connection_send_with_reply_and_block(session, message, timeout_ms, &failure);
    hee_dbus_message_unref(message);
    if (!reply) {
        if (hee_dbus_error_is_set(&failure) && failure.name && !strcmp(failure.name, "org.freedesktop.DBus.Error.ServiceUnknown"))
            snprintf(error, size, "the session bus has no accessibility bus (%s: at-spi2-core is not running)", bus_name);
        else
            snprintf(error, size, "%s does not answer: %s", bus_name,
                     hee_dbus_error_is_set(&failure) && failure.message ? failure.message : "no reply");
        hee_dbus_error_free(&failure);
    }
    return reply;
}

/// `org.freedesktop.DBus.Properties.Get` (`value` NULL) or `Set` (to `*value`) of
/// `org.a11y.Status.IsEnabled`; NULL with the reason in `error` when it cannot be built.
static DBusMessage *status_message(const dbus_bool_t *value, char *error, size_t size) {
    DBusMessage *message = hee_dbus_message_new_method_call(bus_name, bus_path, properties, value ? "Set" : "Get");
    int built = message && hee_dbus_message_append_args(message, DBUS_TYPE_STRING, &status_interface, DBUS_TYPE_STRING,
                                                        &enabled_property, DBUS_TYPE_INVALID);
    if (built && value) {
        DBusMessageIter iter, variant;
        hee_dbus_message_iter_init_append(message, &iter);
        built = hee_dbus_message_iter_open_container(&iter, DBUS_TYPE_VARIANT, DBUS_TYPE_BOOLEAN_AS_STRING, &variant)
                && hee_dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, value)
                && hee_dbus_message_iter_close_container(&iter, &variant);
    }
    if (!built) {
        if (message)
            hee_dbus_message_unref(message);
        snprintf(error, size, "out of memory");
        return NULL;
    }
    return message;
}

int hee_atspi_bus_is_enabled(DBusConnection *session, int timeout_ms, char *error, size_t size) {
    DBusMessage *message = status_message(NULL, error, size);
    if (!message)
        return -1;
    DBusMessage *reply = call(session, message, timeout_ms, error, size);
    if (!reply)
        return -1;
    int result = -1;
    DBusMessageIter iter, variant;
    if (hee_dbus_message_iter_init(reply, &iter) && hee_dbus_message_iter_get_arg_type(&iter) == DBUS_TYPE_VARIANT) {
        hee_dbus_message_iter_recurse(&iter, &variant);
        if (hee_dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_BOOLEAN) {
            dbus_bool_t value = FALSE;
            hee_dbus_message_iter_get_basic(&variant, &value);
            result = value ? 1 : 0;
        }
    }
    if (result < 0)
        snprintf(error, size, "%s's %s.%s is not a boolean", bus_name, status_interface, enabled_property);
    hee_dbus_message_unref(reply);
    return result;
}

int hee_atspi_bus_set_enabled(DBusConnection *session, int enabled, int timeout_ms, char *error, size_t size) {
    dbus_bool_t value = enabled ? TRUE : FALSE;
    DBusMessage *message = status_message(&value, error, size);
    DBusMessage *reply = message ? call(session, message, timeout_ms, error, size) : NULL;
    if (!reply)
        return -1;
    hee_dbus_message_unref(reply);
    return 0;
}
