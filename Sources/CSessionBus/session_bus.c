// The session bus's thread (see CSessionBus.h): a GMainLoop on a GMainContext of its own, a
// session-bus connection of its own, the sm.puri.OSK0 object and name, and gnome-session's
// client (session_client.c). What the bus asks is stored under `lock` and the main thread is
// woken by a byte on its pipe; what the main thread says (Visible) goes to the thread with
// g_main_context_invoke. Nothing here waits on the main thread, nor the main thread on the bus.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "CSessionBus.h"
#include "gio_library.h"
#include "session_bus_internal.h"

static const char *const osk_name = "sm.puri.OSK0";
static const char *const osk_path = "/sm/puri/OSK0";
static const char *const osk_xml =
    "<node><interface name='sm.puri.OSK0'>"
    "<method name='SetVisible'><arg type='b' name='visible' direction='in'/></method>"
    "<method name='GetVisible'><arg type='b' name='visible' direction='out'/></method>"
    "<property name='Visible' type='b' access='read'/>"
    "</interface></node>";

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hee_session_bus_report report;        // under lock
static bool visible;                         // the thread's copy of what is on the screen
static int wake_fd = -1;
static GMainContext *context;
static GMainLoop *loop;
static GDBusConnection *connection;
static pthread_t thread;
static bool running;
static bool own_name;
static char *app_id;
static char *autostart_id;

void hee_session_bus_wake(void) {
    char byte = 2;
    ssize_t written;
    do written = write(wake_fd, &byte, 1); while (written < 0 && errno == EINTR);   // full: awake enough
}

void hee_session_bus_update(void (*change)(hee_session_bus_report *, const void *), const void *argument) {
    pthread_mutex_lock(&lock);
    change(&report, argument);
    pthread_mutex_unlock(&lock);
    hee_session_bus_wake();
}

static void store_request(hee_session_bus_report *r, const void *argument) {
    r->has_request = true;
    r->requested_visible = *(const bool *)argument;
}

static void store_name(hee_session_bus_report *r, const void *argument) {
    const struct { int state; const char *reason; } *name = argument;
    r->name_state = name->state;
    if (name->reason) snprintf(r->reason, sizeof r->reason, "%s", name->reason);
}

static void method_called(GDBusConnection *bus, const gchar *sender, const gchar *path, const gchar *interface,
                          const gchar *method, GVariant *parameters, GDBusMethodInvocation *invocation, gpointer data) {
    (void)bus; (void)sender; (void)path; (void)interface; (void)data;
    if (!strcmp(method, "SetVisible")) {
        gboolean wanted = FALSE;
        hee_gio_g_variant_get(parameters, "(b)", &wanted);
        bool request = wanted != FALSE;
        hee_session_bus_update(store_request, &request);
        hee_gio_g_dbus_method_invocation_return_value(invocation, NULL);
    } else if (!strcmp(method, "GetVisible")) {
        hee_gio_g_dbus_method_invocation_return_value(invocation, hee_gio_g_variant_new("(b)", (gboolean)visible));
    } else {
        hee_gio_g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", method);
    }
}

static GVariant *property_read(GDBusConnection *bus, const gchar *sender, const gchar *path, const gchar *interface,
                               const gchar *property, GError **error, gpointer data) {
    (void)bus; (void)sender; (void)path; (void)interface; (void)error; (void)data;
    return strcmp(property, "Visible") ? NULL : hee_gio_g_variant_new_boolean(visible);
}

static const GDBusInterfaceVTable osk_vtable = { method_called, property_read, NULL, { 0 } };

static void name_acquired(GDBusConnection *bus, const gchar *name, gpointer data) {
    (void)bus; (void)name; (void)data;
    struct { int state; const char *reason; } owned = { 1, NULL };
    hee_session_bus_update(store_name, &owned);
}

static void name_lost(GDBusConnection *bus, const gchar *name, gpointer data) {
    (void)name; (void)data;
    struct { int state; const char *reason; } lost = { 2, bus ? "another keyboard owns sm.puri.OSK0" : "the session bus went away" };
    hee_session_bus_update(store_name, &lost);
}

/// Visible changed on the main thread: the thread's copy, and PropertiesChanged.
static gboolean announce_visible(gpointer data) {
    bool now = data != NULL;
    if (now == visible) return G_SOURCE_REMOVE;
    visible = now;
    if (!connection) return G_SOURCE_REMOVE;
    GVariantBuilder *changed = hee_gio_g_variant_builder_new((const GVariantType *)"a{sv}");
    hee_gio_g_variant_builder_add(changed, "{sv}", "Visible", hee_gio_g_variant_new_boolean(visible));
    GVariant *arguments = hee_gio_g_variant_new("(s@a{sv}@as)", osk_name, hee_gio_g_variant_builder_end(changed),
                                            hee_gio_g_variant_new_strv(NULL, 0));
    hee_gio_g_variant_builder_unref(changed);
    hee_gio_g_dbus_connection_emit_signal(connection, NULL, osk_path, "org.freedesktop.DBus.Properties",
                                      "PropertiesChanged", arguments, NULL);
    return G_SOURCE_REMOVE;
}

static void serve(void) {
    GError *error = NULL;
    connection = hee_gio_g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!connection) {
        struct { int state; const char *reason; } none = { 3, error ? error->message : "no session bus" };
        hee_session_bus_update(store_name, &none);
        if (error) hee_gio_g_error_free(error);
        return;
    }
    hee_gio_g_dbus_connection_set_exit_on_close(connection, FALSE);
    if (own_name) {
        GDBusNodeInfo *node = hee_gio_g_dbus_node_info_new_for_xml(osk_xml, &error);
        guint object = node ? hee_gio_g_dbus_connection_register_object(connection, osk_path, node->interfaces[0], &osk_vtable,
                                                                    NULL, NULL, &error) : 0;
        if (node) hee_gio_g_dbus_node_info_unref(node);
        if (!object) {
            struct { int state; const char *reason; } failed = { 2, error ? error->message : "cannot export /sm/puri/OSK0" };
            hee_session_bus_update(store_name, &failed);
            if (error) hee_gio_g_error_free(error);
            error = NULL;
        } else {
            // Never replacing an owner (squeekboard), never letting one replace us, never queued.
            hee_gio_g_bus_own_name_on_connection(connection, osk_name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                             name_acquired, name_lost, NULL, NULL);
        }
    }
    if (autostart_id) hee_session_client_register(connection, app_id, autostart_id);
}

static void *session_bus_thread(void *argument) {
    (void)argument;
    hee_gio_g_main_context_push_thread_default(context);
    serve();
    hee_gio_g_main_loop_run(loop);
    if (connection) {
        hee_gio_g_dbus_connection_flush_sync(connection, NULL, NULL);
        hee_gio_g_object_unref(connection);
        connection = NULL;
    }
    hee_gio_g_main_context_pop_thread_default(context);
    return NULL;
}

int hee_session_bus_start(bool own, const char *app, const char *autostart, int fd, char *error, size_t size) {
    if (running) return 0;
    if (hee_gio_load(error, size) != 0) return -1;
    own_name = own;
    app_id = app ? strdup(app) : NULL;
    autostart_id = autostart ? strdup(autostart) : NULL;
    wake_fd = fd;
    context = hee_gio_g_main_context_new();
    loop = hee_gio_g_main_loop_new(context, FALSE);
    int failed = pthread_create(&thread, NULL, session_bus_thread, NULL);
    if (failed) {
        snprintf(error, size, "cannot start the session bus's thread: %s", strerror(failed));
        return -1;
    }
    running = true;
    return 0;
}

void hee_session_bus_take(hee_session_bus_report *out) {
    pthread_mutex_lock(&lock);
    *out = report;
    report.has_request = false;
    report.end_requested = false;
    pthread_mutex_unlock(&lock);
}

void hee_session_bus_set_visible(bool now) {
    if (!running) return;
    hee_gio_g_main_context_invoke(context, announce_visible, now ? (gpointer)1 : NULL);
}

static gboolean quit_loop(gpointer data) {
    (void)data;
    hee_gio_g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

void hee_session_bus_stop(void) {
    if (!running) return;
    running = false;
    hee_gio_g_main_context_invoke(context, quit_loop, NULL);
    pthread_join(thread, NULL);
}
