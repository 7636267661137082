// gnome-session's client (GNOME's session manager protocol, org.gnome.SessionManager): a
// keyboard gnome-session started (DESKTOP_AUTOSTART_ID in its environment) registers with
// RegisterClient, or gnome-session waits 90 s for it and then fails the session. Registered,
// the keyboard answers its client object's signals (org.gnome.SessionManager.ClientPrivate):
// QueryEndSession and EndSession with EndSessionResponse(true, ""), and EndSession and Stop
// by asking the main thread to quit. All of it on the session bus's thread, asynchronously.
#include <stdio.h>
#include <string.h>

#include "gio_library.h"
#include "session_bus_internal.h"

static const char *const manager_name = "org.gnome.SessionManager";
static char client_path[256];

static void store_client(hee_session_bus_report *r, const void *argument) {
    const char *reason = argument;
    r->client_state = reason ? 2 : 1;
    if (reason) snprintf(r->reason, sizeof r->reason, "gnome-session: %s", reason);
}

static void store_end(hee_session_bus_report *r, const void *argument) {
    (void)argument;
    r->end_requested = true;
}

/// EndSessionResponse(is_ok = true, reason = ""): the keyboard never holds the session up.
static void respond(GDBusConnection *connection) {
    hee_gio_g_dbus_connection_call(connection, manager_name, client_path, "org.gnome.SessionManager.ClientPrivate",
                               "EndSessionResponse", hee_gio_g_variant_new("(bs)", TRUE, ""), NULL,
                               G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL, NULL);
}

static void client_signal(GDBusConnection *connection, const gchar *sender, const gchar *path, const gchar *interface,
                          const gchar *signal, GVariant *parameters, gpointer data) {
    (void)sender; (void)path; (void)interface; (void)parameters; (void)data;
    if (!strcmp(signal, "QueryEndSession")) {
        respond(connection);
    } else if (!strcmp(signal, "EndSession")) {
        respond(connection);
        hee_session_bus_update(store_end, NULL);
    } else if (!strcmp(signal, "Stop")) {
        hee_session_bus_update(store_end, NULL);
    }
}

static void registered(GObject *source, GAsyncResult *result, gpointer data) {
    (void)data;
    GDBusConnection *connection = (GDBusConnection *)source;
    GError *error = NULL;
    GVariant *reply = hee_gio_g_dbus_connection_call_finish(connection, result, &error);
    if (!reply) {
        hee_session_bus_update(store_client, error ? error->message : "RegisterClient failed");
        if (error) hee_gio_g_error_free(error);
        return;
    }
    const gchar *path = NULL;
    hee_gio_g_variant_get(reply, "(&o)", &path);
    snprintf(client_path, sizeof client_path, "%s", path ? path : "");
    hee_gio_g_variant_unref(reply);
    hee_gio_g_dbus_connection_signal_subscribe(connection, NULL, "org.gnome.SessionManager.ClientPrivate", NULL,
                                           client_path, NULL, G_DBUS_SIGNAL_FLAGS_NONE, client_signal, NULL, NULL);
    hee_session_bus_update(store_client, NULL);
}

void hee_session_client_register(GDBusConnection *connection, const char *app_id, const char *autostart_id) {
    hee_gio_g_dbus_connection_call(connection, manager_name, "/org/gnome/SessionManager", manager_name, "RegisterClient",
                               hee_gio_g_variant_new("(ss)", app_id ? app_id : "", autostart_id),
                               (const GVariantType *)"(o)", G_DBUS_CALL_FLAGS_NONE, 25000, NULL, registered, NULL);
}
