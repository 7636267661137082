// Shared between the session bus's thread (session_bus.c) and gnome-session's client
// (session_client.c); both run on that thread only.
#ifndef HEE_SESSION_BUS_INTERNAL_H
#define HEE_SESSION_BUS_INTERNAL_H
#include <gio/gio.h>
#include "CSessionBus.h"

/// Changes the report under its lock (`change(report, argument)`) and wakes the main thread.
void hee_session_bus_update(void (*change)(hee_session_bus_report *, const void *), const void *argument);

/// Registers with gnome-session on `connection` (org.gnome.SessionManager.RegisterClient with
/// `app_id` and `autostart_id`) and answers its client's signals from then on.
void hee_session_client_register(GDBusConnection *connection, const char *app_id, const char *autostart_id);

#endif
