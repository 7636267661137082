// The focused accessible, followed through AT-SPI 2 (see CAtspi.h).
//
// Threads: libatspi is not thread-safe and delivers its events through a GLib main loop, so
// everything of it runs on the watch's own thread, on a GMainContext of its own
// (atspi_set_main_context); the main thread (SDL's loop) only starts and stops the watch and
// takes reports, under `lock`. libatspi's calls to applications are synchronous D-Bus round
// trips (800 ms at most each, its default): they block this thread, never the keyboard.
//
// What is followed: `object:state-changed:focused` and the legacy `focus:` (Qt and Gecko send
// both; detail1 says gained or lost, except for `focus:`), `object:text-caret-moved` and
// `object:text-changed` of the focused object (the text around the caret), and
// `window:activate` (a window coming to the front: the focused object inside it, found with
// the Collection interface, as at start). Several events in one burst (focus leaving A and
// entering B, in either order) make one report: they only mark it due, and an idle source
// reads the focused object once they have all been dispatched.
//
// Chromium exposes its objects only once an assistive technology asks for attributes (its
// `AtkGetAttributes` turns its accessibility mode on, as Orca's calls do): the watch asks
// every application for its attributes at start and whenever one of its windows activates.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "CAtspi.h"
#include "atspi_library.h"
#include "atspi_objects.h"

/// How long a call on the session bus may take at start and at the end, in milliseconds.
enum { SESSION_TIMEOUT_MS = 3000 };

static const char *const event_types[] = {
    "object:state-changed:focused", "focus:", "object:text-caret-moved", "object:text-changed", "window:activate",
};
enum { EVENT_TYPE_COUNT = sizeof event_types / sizeof event_types[0] };

struct hee_atspi_watch {
    hee_atspi_options options;
    pthread_t thread;
    GMainContext *context;
    atomic_bool stopping;

    pthread_mutex_t lock;
    hee_atspi_report pending;    // under lock
    bool changed;                // under lock: `pending` not taken yet
    bool wake_posted;            // under lock: `wake` called since the last take

    // The watch's thread only.
    GMainLoop *loop;
    DBusConnection *session;
    AtspiEventListener *listener;
    AtspiAccessible *focused;    // a reference, or NULL
    bool refresh_due;
    bool verify_focus;           // the due refresh checks that the object still has the focus
    unsigned rescans;            // later scans made since the X focus last moved
    GSource *rescan_source;      // the next one, while it waits
    uint64_t event_ns;           // the first event since the last refresh
    uint64_t focus_serial;       // see hee_atspi_report
    hee_atspi_status status;
    bool enabled_accessibility;
    guint log_handler;
    char first_log[200];         // libatspi's first warning, instead of stderr
};

static uint64_t monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// MARK: - Reports (watch thread → main thread)

/// Hands `report` (its facts moved, `report` zeroed) to the main thread, waking it once.
static void publish(struct hee_atspi_watch *watch, hee_atspi_report *report) {
    report->status = watch->status;
    report->focus_serial = watch->focus_serial;
    report->enabled_accessibility = watch->enabled_accessibility;
    report->published_ns = monotonic_ns();
    pthread_mutex_lock(&watch->lock);
    hee_atspi_facts_clear(&watch->pending.facts);
    watch->pending = *report;
    memset(report, 0, sizeof *report);
    watch->changed = true;
    bool wake = !watch->wake_posted;
    watch->wake_posted = true;
    pthread_mutex_unlock(&watch->lock);
    if (wake)
        watch->options.wake(watch->options.wake_argument);
}

static void fail(struct hee_atspi_watch *watch, const char *reason) {
    hee_atspi_report report = {0};
    watch->status = HEE_ATSPI_FAILED;
    snprintf(report.reason, sizeof report.reason, "%s", reason);
    publish(watch, &report);
}

bool hee_atspi_watch_take(hee_atspi_watch *watch, hee_atspi_report *report) {
    pthread_mutex_lock(&watch->lock);
    bool changed = watch->changed;
    if (changed) {
        hee_atspi_facts_clear(&report->facts);
        *report = watch->pending;
        memset(&watch->pending.facts, 0, sizeof watch->pending.facts);
        watch->changed = false;
    }
    watch->wake_posted = false;
    pthread_mutex_unlock(&watch->lock);
    return changed;
}

// MARK: - Following the focus

static void set_focused(struct hee_atspi_watch *watch, AtspiAccessible *object) {
    if (watch->focused == object)
        return;
    if (object)
        watch->focus_serial++;
    if (object)
        hee_g_object_ref(object);
    if (watch->focused)
        hee_g_object_unref(watch->focused);
    watch->focused = object;
}

/// Reads the focused object and publishes what it says (the idle source after a burst), in
/// two reports: its role, states, attributes and application first — each but the attributes
/// usually in libatspi's cache, so that showing or hiding the keyboard waits for one round trip
/// to the application — then, when the gate allows, the same with the text around the caret
/// (three more round trips).
static gboolean refresh(gpointer data) {
    struct hee_atspi_watch *watch = data;
    watch->refresh_due = false;
    bool verify = watch->verify_focus;
    watch->verify_focus = false;
    hee_atspi_report report = {0};
    report.event_ns = watch->event_ns;
    report.read_ns = monotonic_ns();
    if (watch->focused) {
        bool unfocused = false;
        bool read = hee_atspi_read_facts(watch->focused, &report.facts);
        if (read && verify)
            unfocused = !(report.facts.states & ((uint64_t)1 << ATSPI_STATE_FOCUSED));
        if (!read || unfocused) {
            // Gone, or (checked after the X focus moved, not after a focus event, whose
            // object libatspi's cached states may not show focused yet) no longer focused:
            // its application said nothing of it.
            hee_atspi_facts_clear(&report.facts);
            set_focused(watch, NULL);
        } else if (report.facts.pid == (uint32_t)getpid()) {
            // Our own window never takes the focus; should an accessible of ours ever say it
            // has it, the field the keys go to is still the one before.
            hee_atspi_facts_clear(&report.facts);
            return G_SOURCE_REMOVE;
        } else {
            report.focused = true;
        }
    }
    bool text = report.focused && watch->options.gate(&report.facts);
    hee_atspi_report second = {0};
    if (text) {
        second = report;
        hee_atspi_copy_facts(&second.facts, &report.facts);
    }
    publish(watch, &report);
    if (text) {
        hee_atspi_read_text(watch->focused, watch->options.text_before, watch->options.text_after, &second.facts);
        publish(watch, &second);
    }
    return G_SOURCE_REMOVE;
}

static void schedule_refresh(struct hee_atspi_watch *watch, uint64_t event_ns) {
    if (watch->refresh_due)
        return;
    watch->refresh_due = true;
    watch->event_ns = event_ns;
    GSource *source = hee_g_idle_source_new();
    hee_g_source_set_callback(source, refresh, watch, NULL);
    hee_g_source_attach(source, watch->context);
    hee_g_source_unref(source);
}

/// Each application woken, and the focused object of the active window followed, if there is
/// one. Returns whether there is.
static bool scan_desktop(struct hee_atspi_watch *watch) {
    AtspiAccessible *desktop = hee_atspi_get_desktop(0);
    if (!desktop)
        return false;
    bool found = false;
    GError *error = NULL;
    gint applications = hee_atspi_accessible_get_child_count(desktop, &error);
    hee_atspi_clear_error(&error);
    for (gint i = 0; i < applications && !atomic_load(&watch->stopping); i++) {
        AtspiAccessible *application = hee_atspi_accessible_get_child_at_index(desktop, i, &error);
        hee_atspi_clear_error(&error);
        if (!application)
            continue;
        hee_atspi_wake_application(application);
        gint windows = hee_atspi_accessible_get_child_count(application, &error);
        hee_atspi_clear_error(&error);
        for (gint j = 0; j < windows && !found; j++) {
            AtspiAccessible *window = hee_atspi_accessible_get_child_at_index(application, j, &error);
            hee_atspi_clear_error(&error);
            if (!window)
                continue;
            AtspiStateSet *set = hee_atspi_accessible_get_state_set(window);
            GArray *states = set ? hee_atspi_state_set_get_states(set) : NULL;
            bool active = false;
            for (guint k = 0; states && k < states->len; k++)
                active |= g_array_index(states, AtspiStateType, k) == ATSPI_STATE_ACTIVE;
            if (states)
                hee_g_array_free(states, TRUE);
            if (set)
                hee_g_object_unref(set);
            AtspiAccessible *inside = active ? hee_atspi_find_focused(window) : NULL;
            if (inside) {
                set_focused(watch, inside);
                hee_g_object_unref(inside);
                found = true;
            }
            hee_g_object_unref(window);
        }
        hee_g_object_unref(application);
    }
    hee_g_object_unref(desktop);
    return found;
}

static void stop_rescans(struct hee_atspi_watch *watch);

static bool has_prefix(const char *text, const char *prefix) {
    return text && !strncmp(text, prefix, strlen(prefix));
}

static void on_event(AtspiEvent *event, void *data) {
    struct hee_atspi_watch *watch = data;
    uint64_t now = monotonic_ns();
    AtspiAccessible *source = event->source;
    if (has_prefix(event->type, "object:state-changed:focused") || has_prefix(event->type, "focus:")) {
        if (event->detail1 != 0 || has_prefix(event->type, "focus:")) {
            set_focused(watch, source);
            schedule_refresh(watch, now);
            watch->verify_focus = false;
            stop_rescans(watch);  // the application speaks: no need to look for its focus
        } else if (source == watch->focused) {
            // Lost: only by the object that has it (events of two objects come in any order).
            set_focused(watch, NULL);
            schedule_refresh(watch, now);
        }
    } else if (has_prefix(event->type, "object:text-")) {
        if (source && source == watch->focused)
            schedule_refresh(watch, now);
    } else if (has_prefix(event->type, "window:activate") && source) {
        GError *error = NULL;
        AtspiAccessible *application = hee_atspi_accessible_get_application(source, &error);
        hee_atspi_clear_error(&error);
        if (application) {
            hee_atspi_wake_application(application);
            hee_g_object_unref(application);
        }
        AtspiAccessible *inside = hee_atspi_find_focused(source);
        if (inside) {
            set_focused(watch, inside);
            hee_g_object_unref(inside);
            schedule_refresh(watch, now);
        }
    }
    hee_g_boxed_free(hee_atspi_event_get_type(), event);
}

// MARK: - The thread

static void on_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain;
    (void)level;
    struct hee_atspi_watch *watch = data;
    if (!watch->first_log[0])
        snprintf(watch->first_log, sizeof watch->first_log, "%s", message ? message : "");
}

/// The session bus and its accessibility status; enables accessibility when asked. Returns
/// false (having failed the watch) when there is no accessibility bus to reach.
static bool prepare_session(struct hee_atspi_watch *watch) {
    const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    char path[512] = "";
    if (runtime && *runtime)
        snprintf(path, sizeof path, "%s/bus", runtime);
    // Without a session bus libdbus would launch one of its own (dbus-launch), for good.
    if (!(address && *address) && !(path[0] && access(path, F_OK) == 0)) {
        fail(watch, "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)");
        return false;
    }
    DBusError error;
    hee_dbus_error_init(&error);
    watch->session = hee_dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!watch->session) {
        char reason[256];
        snprintf(reason, sizeof reason, "cannot reach the D-Bus session bus: %s",
                 hee_dbus_error_is_set(&error) && error.message ? error.message : "no connection");
        hee_dbus_error_free(&error);
        fail(watch, reason);
        return false;
    }
    hee_dbus_connection_set_exit_on_disconnect(watch->session, FALSE);
    char reason[256] = "";
    int enabled = hee_atspi_bus_is_enabled(watch->session, SESSION_TIMEOUT_MS, reason, sizeof reason);
    if (enabled < 0) {
        fail(watch, reason);
        return false;
    }
    if (!enabled && watch->options.enable_accessibility
        && hee_atspi_bus_set_enabled(watch->session, 1, SESSION_TIMEOUT_MS, reason, sizeof reason) == 0)
        watch->enabled_accessibility = true;
    return true;
}

/// Gives `IsEnabled` back when the watch set it and nobody changed it since.
static void restore_session(struct hee_atspi_watch *watch) {
    if (!watch->session)
        return;
    char reason[256];
    if (watch->enabled_accessibility
        && hee_atspi_bus_is_enabled(watch->session, SESSION_TIMEOUT_MS, reason, sizeof reason) == 1)
        hee_atspi_bus_set_enabled(watch->session, 0, SESSION_TIMEOUT_MS, reason, sizeof reason);
    hee_dbus_connection_close(watch->session);
    hee_dbus_connection_unref(watch->session);
    watch->session = NULL;
}

static gboolean quit(gpointer data) {
    struct hee_atspi_watch *watch = data;
    if (watch->loop)
        hee_g_main_loop_quit(watch->loop);
    return G_SOURCE_REMOVE;
}

static void *watch_thread(void *data) {
    struct hee_atspi_watch *watch = data;
    hee_g_main_context_push_thread_default(watch->context);
    watch->log_handler = hee_g_log_set_handler(NULL, G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE,
                                               on_log, watch);
    bool initialized = false;
    if (prepare_session(watch)) {
        int result = hee_atspi_init();
        initialized = result == 0;
        if (!initialized) {
            char reason[256];
            snprintf(reason, sizeof reason, "cannot reach the accessibility bus%s%s", watch->first_log[0] ? ": " : "",
                     watch->first_log);
            fail(watch, reason);
        }
    }
    if (initialized) {
        hee_atspi_set_main_context(watch->context);
        watch->listener = hee_atspi_event_listener_new(on_event, watch, NULL);
        for (int i = 0; i < EVENT_TYPE_COUNT; i++) {
            GError *error = NULL;
            hee_atspi_event_listener_register(watch->listener, event_types[i], &error);
            hee_atspi_clear_error(&error);
        }
        scan_desktop(watch);
        // The first report: running, and the field focused at start, if any.
        watch->status = HEE_ATSPI_RUNNING;
        watch->event_ns = monotonic_ns();
        refresh(watch);
        watch->loop = hee_g_main_loop_new(watch->context, FALSE);
        if (!atomic_load(&watch->stopping))
            hee_g_main_loop_run(watch->loop);
        for (int i = 0; i < EVENT_TYPE_COUNT; i++) {
            GError *error = NULL;
            hee_atspi_event_listener_deregister(watch->listener, event_types[i], &error);
            hee_atspi_clear_error(&error);
        }
        hee_g_object_unref(watch->listener);
        set_focused(watch, NULL);
        stop_rescans(watch);
        hee_g_main_loop_unref(watch->loop);
        watch->loop = NULL;
    }
    restore_session(watch);
    if (initialized)
        hee_atspi_exit();
    hee_g_log_remove_handler(NULL, watch->log_handler);
    hee_g_main_context_pop_thread_default(watch->context);
    return NULL;
}

hee_atspi_watch *hee_atspi_watch_start(const hee_atspi_options *options, char *error, size_t size) {
    static bool started;   // main thread only: libatspi connects once per process
    if (started) {
        snprintf(error, size, "the AT-SPI watch runs once per process");
        return NULL;
    }
    if (hee_atspi_load(error, size) != 0)
        return NULL;
    struct hee_atspi_watch *watch = calloc(1, sizeof *watch);
    if (!watch) {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    watch->options = *options;
    watch->context = hee_g_main_context_new();
    pthread_mutex_init(&watch->lock, NULL);
    if (pthread_create(&watch->thread, NULL, watch_thread, watch) != 0) {
        snprintf(error, size, "cannot start the AT-SPI thread");
        pthread_mutex_destroy(&watch->lock);
        hee_g_main_context_unref(watch->context);
        free(watch);
        return NULL;
    }
    started = true;
    return watch;
}

/// After the X focus moved: the desktop scanned again for the focused object (the one followed
/// may have lost the focus without an event: its application quit, or the focus went to a
/// window that says nothing through AT-SPI), and read. Finding none, it looks again a few
/// times, later (an application that has just mapped its window registers its objects and
/// learns of the listeners asynchronously, and says nothing of a focus it took meanwhile).
static const guint rescan_delays_ms[] = {100, 400, 1200};
enum { RESCANS = sizeof rescan_delays_ms / sizeof rescan_delays_ms[0] };

static void stop_rescans(struct hee_atspi_watch *watch) {
    if (watch->rescan_source) {
        hee_g_source_destroy(watch->rescan_source);
        hee_g_source_unref(watch->rescan_source);
        watch->rescan_source = NULL;
    }
    watch->rescans = RESCANS;
}

static gboolean rescan(gpointer data) {
    struct hee_atspi_watch *watch = data;
    if (watch->status != HEE_ATSPI_RUNNING)
        return G_SOURCE_REMOVE;
    if (watch->rescan_source) {
        hee_g_source_unref(watch->rescan_source);
        watch->rescan_source = NULL;
    }
    // Found or not, the object followed is read again (a refresh drops one that lost the focus).
    bool found = scan_desktop(watch);
    if (!watch->refresh_due) {
        // Checked only when no focus event asked for the read meanwhile (trusted: its object
        // may not show the state yet).
        schedule_refresh(watch, monotonic_ns());
        watch->verify_focus = !found;
    }
    if (!found && watch->rescans < RESCANS) {
        watch->rescan_source = hee_g_timeout_source_new(rescan_delays_ms[watch->rescans++]);
        hee_g_source_set_callback(watch->rescan_source, rescan, watch, NULL);
        hee_g_source_attach(watch->rescan_source, watch->context);
    }
    return G_SOURCE_REMOVE;
}

static gboolean refresh_requested(gpointer data) {
    struct hee_atspi_watch *watch = data;
    stop_rescans(watch);
    watch->rescans = 0;
    return rescan(watch);
}

static void run_on_thread(hee_atspi_watch *watch, GSourceFunc function) {
    GSource *source = hee_g_idle_source_new();
    hee_g_source_set_callback(source, function, watch, NULL);
    hee_g_source_attach(source, watch->context);
    hee_g_source_unref(source);
}

void hee_atspi_watch_refresh(hee_atspi_watch *watch) {
    run_on_thread(watch, refresh_requested);
}

void hee_atspi_watch_stop(hee_atspi_watch *watch) {
    if (!watch)
        return;
    atomic_store(&watch->stopping, true);
    run_on_thread(watch, quit);
    pthread_join(watch->thread, NULL);
    hee_atspi_facts_clear(&watch->pending.facts);
    pthread_mutex_destroy(&watch->lock);
    hee_g_main_context_unref(watch->context);
    free(watch);
}
