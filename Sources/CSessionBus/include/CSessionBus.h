#ifndef HEE_CSESSIONBUS_H
#define HEE_CSESSIONBUS_H
// The keyboard's services on the session bus (issue 31, Phosh), on a thread of its own that
// runs a GLib main loop on a GMainContext of its own (see session_bus.c): the on-screen
// keyboard's name `sm.puri.OSK0` (object /sm/puri/OSK0, interface sm.puri.OSK0: SetVisible(b),
// GetVisible() → b, the read-only property Visible announced with PropertiesChanged), and,
// when gnome-session started the keyboard (DESKTOP_AUTOSTART_ID), its client registration
// (org.gnome.SessionManager.RegisterClient; QueryEndSession / EndSession / Stop answered).
// GIO (Debian's libglib2.0-0) is loaded with dlopen when the service starts; its headers come
// from libglib2.0-dev. The main thread never waits on the bus: it reads what the thread
// stored (`hee_session_bus_take`) when the thread wrote a byte to `wake_fd`.
#include <stdbool.h>
#include <stddef.h>

/// What happened on the bus since the main thread last looked (`hee_session_bus_take`).
typedef struct hee_session_bus_report {
    /// SetVisible was called since: `requested_visible` holds the last value asked for.
    bool has_request;
    bool requested_visible;
    /// The name's state: 0 not yet known, 1 owned, 2 another process has it (or the bus
    /// refused it), 3 no session bus.
    int name_state;
    /// gnome-session's registration: 0 none asked, 1 registered, 2 failed.
    int client_state;
    /// gnome-session asked the keyboard to end (EndSession or Stop).
    bool end_requested;
    /// Why the name or the registration failed (empty when they did not).
    char reason[256];
} hee_session_bus_report;

/// Loads GIO and starts the thread: it owns `sm.puri.OSK0` when `own_name` (never replacing
/// an owner, never allowing replacement), registers with gnome-session when `autostart_id`
/// is not NULL (the value of DESKTOP_AUTOSTART_ID) under `app_id`, and writes a byte to
/// `wake_fd` (non-blocking) whenever the report changed. Returns 0, or -1 with the reason in
/// `error` (`size` bytes: GIO cannot be loaded, the thread cannot start).
int hee_session_bus_start(bool own_name, const char *app_id, const char *autostart_id, int wake_fd,
                          char *error, size_t size);

/// Copies the report and clears its request and end flags (main thread).
void hee_session_bus_take(hee_session_bus_report *report);

/// What is on the screen now: the property `Visible`, announced with PropertiesChanged when
/// it changed (main thread; never waits).
void hee_session_bus_set_visible(bool visible);

/// Ends the thread (the name is released with the connection) and waits for it.
void hee_session_bus_stop(void);

#endif
