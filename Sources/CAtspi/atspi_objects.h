// Reading an accessible object for the watch (atspi_objects.c): its facts, its text around
// the caret, the focused object inside a window. On the watch's thread only; every call is a
// synchronous D-Bus round trip to the object's application (800 ms at most, libatspi's default).
#ifndef HEE_ATSPI_OBJECTS_H
#define HEE_ATSPI_OBJECTS_H
#include <stdbool.h>
#include <atspi/atspi.h>
#include "CAtspi.h"

/// What `object` says, its text aside (its caret -1). Returns false when it cannot say
/// anything (gone: its application quit).
bool hee_atspi_read_facts(AtspiAccessible *object, hee_atspi_facts *facts);
/// The text around `object`'s caret: at most `before` and `after` code points, into `facts`
/// (`has_text` when read).
void hee_atspi_read_text(AtspiAccessible *object, gint before, gint after, hee_atspi_facts *facts);
/// `copy` as `source`, its text aside.
void hee_atspi_copy_facts(hee_atspi_facts *copy, const hee_atspi_facts *source);
/// The object with the FOCUSED state inside `root` (a reference), through the Collection
/// interface; NULL when there is none or `root` has no Collection (Qt 5).
AtspiAccessible *hee_atspi_find_focused(AtspiAccessible *root);
/// Asks `application` for its attributes: Chromium's signal to expose its objects.
void hee_atspi_wake_application(AtspiAccessible *application);
/// Frees `*error` and clears it.
void hee_atspi_clear_error(GError **error);

#endif
