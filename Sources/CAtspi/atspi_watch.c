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

static char *copy_string(const char *text) {
    return text ? strdup(text) : NULL;
}

void hee_atspi_facts_clear(hee_atspi_facts *facts) {
    free(facts->application);
    for (size_t i = 0; i < facts->attribute_count; i++) {
        free(facts->attribute_names[i]);
        free(facts->attribute_values[i]);
    }
    free(facts->attribute_names);
    free(facts->attribute_values);
    free(facts->text);
    memset(facts, 0, sizeof *facts);
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

// MARK: - Reading an accessible

static void copy_attribute(gpointer key, gpointer value, gpointer data) {
    hee_atspi_facts *facts = data;
    size_t n = facts->attribute_count;
    char **names = realloc(facts->attribute_names, (n + 1) * sizeof *names);
    if (names)
        facts->attribute_names = names;
    char **values = realloc(facts->attribute_values, (n + 1) * sizeof *values);
    if (values)
        facts->attribute_values = values;
    if (!names || !values)
        return;
    names[n] = copy_string(key ? key : "");
    values[n] = copy_string(value ? value : "");
    facts->attribute_count = n + 1;
}

static void clear_error(GError **error) {
    if (*error)
        hee_g_error_free(*error);
    *error = NULL;
}

/// The text around the caret, read when the gate allows it.
static void read_text(struct hee_atspi_watch *watch, AtspiAccessible *object, hee_atspi_facts *facts) {
    AtspiText *text = hee_atspi_accessible_get_text_iface(object);
    if (!text)
        return;
    GError *error = NULL;
    gint caret = hee_atspi_text_get_caret_offset(text, &error);
    clear_error(&error);
    gint count = hee_atspi_text_get_character_count(text, &error);
    clear_error(&error);
    facts->caret = caret;
    facts->character_count = count;
    if (caret >= 0 && count >= 0) {
        gint start = caret > watch->options.text_before ? caret - watch->options.text_before : 0;
        gint end = count - caret > watch->options.text_after ? caret + watch->options.text_after : count;
        gchar *part = hee_atspi_text_get_text(text, start, end, &error);
        clear_error(&error);
        if (part) {
            facts->text = copy_string(part);
            facts->text_start = start;
            facts->has_text = true;
            hee_g_free(part);
        }
    }
    hee_g_object_unref(text);
}

/// What `object` says, its text aside. Returns false when it cannot say anything (gone: its
/// application quit).
static bool read_facts(AtspiAccessible *object, hee_atspi_facts *facts) {
    GError *error = NULL;
    // Asked, not remembered: libatspi's cache of an object's role and states can be stale (Qt
    // 5's line edit was seen read as the push button focused before it, right after its focus
    // event). Two more round trips, of the four a field costs.
    hee_atspi_accessible_clear_cache(object);
    facts->role = hee_atspi_accessible_get_role(object, &error);
    if (error) {
        clear_error(&error);
        return false;
    }
    AtspiStateSet *set = hee_atspi_accessible_get_state_set(object);
    if (set) {
        GArray *states = hee_atspi_state_set_get_states(set);
        for (guint i = 0; states && i < states->len; i++) {
            AtspiStateType state = g_array_index(states, AtspiStateType, i);
            if (state >= 0 && state < 64)
                facts->states |= (uint64_t)1 << state;
        }
        if (states)
            hee_g_array_free(states, TRUE);
        hee_g_object_unref(set);
    }
    facts->pid = hee_atspi_accessible_get_process_id(object, &error);
    clear_error(&error);
    AtspiAccessible *application = hee_atspi_accessible_get_application(object, &error);
    clear_error(&error);
    if (application) {
        gchar *name = hee_atspi_accessible_get_name(application, &error);
        clear_error(&error);
        facts->application = copy_string(name);
        hee_g_free(name);
        hee_g_object_unref(application);
    }
    GHashTable *attributes = hee_atspi_accessible_get_attributes(object, &error);
    clear_error(&error);
    if (attributes) {
        hee_g_hash_table_foreach(attributes, copy_attribute, facts);
        hee_g_hash_table_unref(attributes);
    }
    facts->caret = -1;
    return true;
}

/// A copy of `source`'s facts (its text aside).
static void copy_facts(hee_atspi_facts *copy, const hee_atspi_facts *source) {
    memset(copy, 0, sizeof *copy);
    copy->role = source->role;
    copy->states = source->states;
    copy->pid = source->pid;
    copy->caret = -1;
    copy->application = copy_string(source->application);
    for (size_t i = 0; i < source->attribute_count; i++)
        copy_attribute(source->attribute_names[i], source->attribute_values[i], copy);
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
        bool read = read_facts(watch->focused, &report.facts);
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
        copy_facts(&second.facts, &report.facts);
    }
    publish(watch, &report);
    if (text) {
        read_text(watch, watch->focused, &second.facts);
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

/// The object with the FOCUSED state inside `root` (a reference), through the Collection
/// interface; NULL when there is none or `root` has no Collection (Qt 5).
static AtspiAccessible *find_focused(AtspiAccessible *root) {
    AtspiCollection *collection = hee_atspi_accessible_get_collection_iface(root);
    if (!collection)
        return NULL;
    AtspiStateType focused_state = ATSPI_STATE_FOCUSED;
    GArray *wanted = hee_g_array_new(FALSE, FALSE, sizeof(AtspiStateType));
    hee_g_array_append_vals(wanted, &focused_state, 1);
    AtspiStateSet *states = hee_atspi_state_set_new(wanted);
    hee_g_array_free(wanted, TRUE);
    AtspiMatchRule *rule = hee_atspi_match_rule_new(states, ATSPI_Collection_MATCH_ALL, NULL, ATSPI_Collection_MATCH_NONE,
                                                    NULL, ATSPI_Collection_MATCH_NONE, NULL, ATSPI_Collection_MATCH_NONE,
                                                    FALSE);
    hee_g_object_unref(states);
    GError *error = NULL;
    GArray *matches = hee_atspi_collection_get_matches(collection, rule, ATSPI_Collection_SORT_ORDER_CANONICAL, 1, TRUE,
                                                       &error);
    clear_error(&error);
    hee_g_object_unref(rule);
    hee_g_object_unref(collection);
    AtspiAccessible *found = NULL;
    for (guint i = 0; matches && i < matches->len; i++) {
        AtspiAccessible *match = g_array_index(matches, AtspiAccessible *, i);
        if (!found)
            found = match;
        else
            hee_g_object_unref(match);
    }
    if (matches)
        hee_g_array_free(matches, TRUE);
    return found;
}

/// Asks `application` for its attributes (Chromium's signal to expose its objects).
static void wake_application(AtspiAccessible *application) {
    GError *error = NULL;
    GHashTable *attributes = hee_atspi_accessible_get_attributes(application, &error);
    clear_error(&error);
    if (attributes)
        hee_g_hash_table_unref(attributes);
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
    clear_error(&error);
    for (gint i = 0; i < applications && !atomic_load(&watch->stopping); i++) {
        AtspiAccessible *application = hee_atspi_accessible_get_child_at_index(desktop, i, &error);
        clear_error(&error);
        if (!application)
            continue;
        wake_application(application);
        gint windows = hee_atspi_accessible_get_child_count(application, &error);
        clear_error(&error);
        for (gint j = 0; j < windows && !found; j++) {
            AtspiAccessible *window = hee_atspi_accessible_get_child_at_index(application, j, &error);
            clear_error(&error);
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
            AtspiAccessible *inside = active ? find_focused(window) : NULL;
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
        clear_error(&error);
        if (application) {
            wake_application(application);
            hee_g_object_unref(application);
        }
        AtspiAccessible *inside = find_focused(source);
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
            clear_error(&error);
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
            clear_error(&error);
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
