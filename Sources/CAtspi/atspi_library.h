// The functions the watch calls, looked up by name in libatspi.so.0 and the libraries it
// depends on (GLib, GObject, libdbus: dlsym on libatspi's handle searches them too). Their
// types are the headers' own declarations, so every call is checked as if linked.
#ifndef HEE_ATSPI_LIBRARY_H
#define HEE_ATSPI_LIBRARY_H
#include <stddef.h>
#include <atspi/atspi.h>
#include <dbus/dbus.h>

#define HEE_ATSPI_FUNCTIONS(X)                                                                              \
    X(atspi_init) X(atspi_exit) X(atspi_set_main_context) X(atspi_get_desktop) X(atspi_event_get_type)      \
    X(atspi_event_listener_new) X(atspi_event_listener_register) X(atspi_event_listener_deregister)         \
    X(atspi_accessible_get_role) X(atspi_accessible_clear_cache) X(atspi_accessible_get_state_set) X(atspi_state_set_get_states)            \
    X(atspi_state_set_new) X(atspi_accessible_get_attributes) X(atspi_accessible_get_application)           \
    X(atspi_accessible_get_name) X(atspi_accessible_get_process_id) X(atspi_accessible_get_text_iface)      \
    X(atspi_accessible_get_collection_iface) X(atspi_accessible_get_child_count)                           \
    X(atspi_accessible_get_child_at_index) X(atspi_text_get_caret_offset) X(atspi_text_get_character_count) \
    X(atspi_text_get_text) X(atspi_match_rule_new) X(atspi_collection_get_matches)                          \
    X(g_main_context_new) X(g_main_context_unref) X(g_main_context_push_thread_default)                     \
    X(g_main_context_pop_thread_default) X(g_main_loop_new) X(g_main_loop_run) X(g_main_loop_quit)         \
    X(g_main_loop_unref) X(g_idle_source_new) X(g_timeout_source_new) X(g_source_set_callback) X(g_source_attach) X(g_source_destroy) X(g_source_unref) \
    X(g_hash_table_foreach) X(g_hash_table_unref) X(g_array_new) X(g_array_append_vals) X(g_array_free)     \
    X(g_free) X(g_error_free) X(g_object_ref) X(g_object_unref) X(g_boxed_free) X(g_log_set_handler) X(g_log_remove_handler) \
    X(dbus_error_init) X(dbus_error_free) X(dbus_error_is_set) X(dbus_bus_get_private)                      \
    X(dbus_connection_set_exit_on_disconnect) X(dbus_connection_close) X(dbus_connection_unref)             \
    X(dbus_message_new_method_call) X(dbus_message_unref) X(dbus_message_append_args)                       \
    X(dbus_message_iter_init_append) X(dbus_message_iter_open_container) X(dbus_message_iter_append_basic)  \
    X(dbus_message_iter_close_container) X(dbus_connection_send_with_reply_and_block)                       \
    X(dbus_message_iter_init) X(dbus_message_iter_get_arg_type) X(dbus_message_iter_recurse)               \
    X(dbus_message_iter_get_basic)

#define HEE_ATSPI_POINTER(name) extern __typeof__(name) *hee_##name;
HEE_ATSPI_FUNCTIONS(HEE_ATSPI_POINTER)
#undef HEE_ATSPI_POINTER

/// Loads libatspi.so.0 and looks the functions up (once; main thread). Returns 0, or -1 with
/// the reason in `error` (`size` bytes).
int hee_atspi_load(char *error, size_t size);

/// Whether the session bus's accessibility status (`org.a11y.Status.IsEnabled` of
/// `org.a11y.Bus`) is true: 1, 0, or -1 with the reason in `error` (the bus has no
/// `org.a11y.Bus`: at-spi2-core is not there). At most `timeout_ms` milliseconds.
int hee_atspi_bus_is_enabled(DBusConnection *session, int timeout_ms, char *error, size_t size);
/// Sets it. Returns 0, or -1 with the reason in `error`.
int hee_atspi_bus_set_enabled(DBusConnection *session, int enabled, int timeout_ms, char *error, size_t size);

#endif
