#ifndef HEE_CATSPI_H
#define HEE_CATSPI_H
// The focused accessible, followed through AT-SPI 2 (see atspi_watch.c): a thread of its own
// runs a GLib main loop on a GMainContext of its own, listens to focus events on the
// accessibility bus and copies what the focused accessible says into a report the main
// thread takes. libatspi (Debian's libatspi2.0-0) is loaded with dlopen when the watch starts;
// its headers come from libatspi2.0-dev. AT-SPI's role and state numbers (AtspiRole,
// AtspiStateType) are imported from its constants header, which needs no other header.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <at-spi-2.0/atspi/atspi-constants.h>

/// What one accessible object says, copied out of libatspi (every string is UTF-8 as the
/// application sent it, malloc'd; `hee_atspi_facts_clear` frees them).
typedef struct hee_atspi_facts {
    /// AtspiRole (ATSPI_ROLE_…): a wire value of the AT-SPI protocol.
    int32_t role;
    /// Bit n set: the state AtspiStateType n (ATSPI_STATE_…) is in the object's state set.
    uint64_t states;
    /// The application's process, 0 when not known.
    uint32_t pid;
    /// The application's name (its accessible's name), or NULL.
    char *application;
    /// The object's attributes (`text-input-type` = `email` …), `attribute_count` pairs.
    size_t attribute_count;
    char **attribute_names;
    char **attribute_values;
    /// Whether the text below was read (only when the gate allowed it and the object has the
    /// Text interface).
    bool has_text;
    /// The caret, in code points from the start of the text; -1 when the object has none.
    int32_t caret;
    /// The text's length, in code points.
    int32_t character_count;
    /// Where `text` starts, in code points from the start of the object's text.
    int32_t text_start;
    /// Part of the object's text around the caret (UTF-8), or NULL.
    char *text;
} hee_atspi_facts;

/// Frees what `facts` holds and zeroes it.
void hee_atspi_facts_clear(hee_atspi_facts *facts);

/// Where the watch is.
typedef enum hee_atspi_status {
    /// Still connecting (the thread has not reached the accessibility bus yet).
    HEE_ATSPI_STARTING = 0,
    /// Listening on the accessibility bus.
    HEE_ATSPI_RUNNING = 1,
    /// It could not start (no session bus, no accessibility bus, no libatspi): `reason` says why.
    HEE_ATSPI_FAILED = 2,
} hee_atspi_status;

/// What the main thread takes from the watch (`hee_atspi_watch_take`).
typedef struct hee_atspi_report {
    hee_atspi_status status;
    /// Why it failed (one line), when `status` is HEE_ATSPI_FAILED.
    char reason[256];
    /// Whether the watch set the bus's `org.a11y.Status.IsEnabled` (it was false), to give it
    /// back at the end.
    bool enabled_accessibility;
    /// Whether an accessible has the focus; `facts` describes it then.
    bool focused;
    /// Counts the focus moving to an accessible (another one, or the same again after it lost
    /// the focus): a field of the same kind as the one before is still another field.
    uint64_t focus_serial;
    hee_atspi_facts facts;
    /// CLOCK_MONOTONIC nanoseconds when the event that led to this report arrived.
    uint64_t event_ns;
    /// When the watch began to read the focused object's facts for it.
    uint64_t read_ns;
    /// When the report was ready (its facts read).
    uint64_t published_ns;
} hee_atspi_report;

/// Whether the text of the accessible `facts` describes (role, states, attributes and
/// application read; no text yet) may be read: called on the watch's thread, it must only
/// look at `facts`.
typedef bool (*hee_atspi_text_gate)(const hee_atspi_facts *facts);
/// Called on the watch's thread when a new report waits (once until it is taken).
typedef void (*hee_atspi_wake)(uint32_t argument);

typedef struct hee_atspi_watch hee_atspi_watch;

/// What the watch is asked to do.
typedef struct hee_atspi_options {
    /// Code points read before and after the caret (when the gate allows).
    int32_t text_before;
    int32_t text_after;
    /// Set `org.a11y.Status.IsEnabled` on the session bus while the watch runs (when false),
    /// so that applications started meanwhile expose their accessible objects.
    bool enable_accessibility;
    hee_atspi_text_gate gate;
    hee_atspi_wake wake;
    uint32_t wake_argument;
} hee_atspi_options;

/// Loads libatspi and starts the watch's thread; returns at once (the thread connects, and
/// reports RUNNING or FAILED through `wake`). Returns NULL with the reason in `error` (`size`
/// bytes) when libatspi cannot be loaded or the thread cannot start. Main thread only; one
/// watch at a time.
hee_atspi_watch *hee_atspi_watch_start(const hee_atspi_options *options, char *error, size_t size);

/// Moves the latest report into `report` (whose earlier facts it frees first) and returns
/// true, or returns false when nothing changed since the last take.
bool hee_atspi_watch_take(hee_atspi_watch *watch, hee_atspi_report *report);

/// Asks the watch to find the focused accessible again (the X focus moved: the application
/// may have gone away, lost the focus without saying so, or only now be ready to say it).
void hee_atspi_watch_refresh(hee_atspi_watch *watch);

/// Stops listening, gives `IsEnabled` back if the watch set it and it is still set, leaves the
/// accessibility bus and joins the thread. Frees the watch.
void hee_atspi_watch_stop(hee_atspi_watch *watch);

#endif
