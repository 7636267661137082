// Reading an accessible object: what it says, copied out of libatspi (see atspi_objects.h).
// The watch's thread only.
#include <stdlib.h>
#include <string.h>

#include "CAtspi.h"
#include "atspi_library.h"
#include "atspi_objects.h"

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

void hee_atspi_clear_error(GError **error) {
    if (*error)
        hee_g_error_free(*error);
    *error = NULL;
}

void hee_atspi_read_text(AtspiAccessible *object, gint before, gint after, hee_atspi_facts *facts) {
    AtspiText *text = hee_atspi_accessible_get_text_iface(object);
    if (!text)
        return;
    GError *error = NULL;
    gint caret = hee_atspi_text_get_caret_offset(text, &error);
    hee_atspi_clear_error(&error);
    gint count = hee_atspi_text_get_character_count(text, &error);
    hee_atspi_clear_error(&error);
    facts->caret = caret;
    facts->character_count = count;
    if (caret >= 0 && count >= 0) {
        gint start = caret > before ? caret - before : 0;
        gint end = count - caret > after ? caret + after : count;
        gchar *part = hee_atspi_text_get_text(text, start, end, &error);
        hee_atspi_clear_error(&error);
        if (part) {
            facts->text = copy_string(part);
            facts->text_start = start;
            facts->has_text = true;
            hee_g_free(part);
        }
    }
    hee_g_object_unref(text);
}

bool hee_atspi_read_facts(AtspiAccessible *object, hee_atspi_facts *facts) {
    GError *error = NULL;
    // Asked, not remembered: libatspi's cache of an object's role and states can be stale (Qt
    // 5's line edit was seen read as the push button focused before it, right after its focus
    // event). Two more round trips, of the four a field costs.
    hee_atspi_accessible_clear_cache(object);
    facts->role = hee_atspi_accessible_get_role(object, &error);
    if (error) {
        hee_atspi_clear_error(&error);
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
    hee_atspi_clear_error(&error);
    AtspiAccessible *application = hee_atspi_accessible_get_application(object, &error);
    hee_atspi_clear_error(&error);
    if (application) {
        gchar *name = hee_atspi_accessible_get_name(application, &error);
        hee_atspi_clear_error(&error);
        facts->application = copy_string(name);
        hee_g_free(name);
        hee_g_object_unref(application);
    }
    GHashTable *attributes = hee_atspi_accessible_get_attributes(object, &error);
    hee_atspi_clear_error(&error);
    if (attributes) {
        hee_g_hash_table_foreach(attributes, copy_attribute, facts);
        hee_g_hash_table_unref(attributes);
    }
    facts->caret = -1;
    return true;
}

void hee_atspi_copy_facts(hee_atspi_facts *copy, const hee_atspi_facts *source) {
    memset(copy, 0, sizeof *copy);
    copy->role = source->role;
    copy->states = source->states;
    copy->pid = source->pid;
    copy->caret = -1;
    copy->application = copy_string(source->application);
    for (size_t i = 0; i < source->attribute_count; i++)
        copy_attribute(source->attribute_names[i], source->attribute_values[i], copy);
}

AtspiAccessible *hee_atspi_find_focused(AtspiAccessible *root) {
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
    hee_atspi_clear_error(&error);
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

void hee_atspi_wake_application(AtspiAccessible *application) {
    GError *error = NULL;
    GHashTable *attributes = hee_atspi_accessible_get_attributes(application, &error);
    hee_atspi_clear_error(&error);
    if (attributes)
        hee_g_hash_table_unref(attributes);
}
