// The GIO functions the session bus's thread calls, looked up by name in libgio-2.0.so.0
// (dlsym on its handle also finds GLib's and GObject's, which it links). Their types are the
// headers' own declarations, so every call is checked as if linked. No GLib macro that
// calls a function is used (G_VARIANT_TYPE and the cast macros call symbols of their own).
#ifndef HEE_GIO_LIBRARY_H
#define HEE_GIO_LIBRARY_H
#include <stddef.h>
#include <gio/gio.h>

#define HEE_GIO_FUNCTIONS(X)                                                                         \
    X(g_main_context_new) X(g_main_context_unref) X(g_main_context_push_thread_default)              \
    X(g_main_context_pop_thread_default) X(g_main_context_invoke) X(g_main_loop_new)                 \
    X(g_main_loop_run) X(g_main_loop_quit) X(g_main_loop_unref) X(g_error_free) X(g_free)            \
    X(g_object_unref) X(g_variant_new) X(g_variant_get) X(g_variant_new_boolean)                    \
    X(g_variant_new_strv) X(g_variant_builder_new) X(g_variant_builder_add) X(g_variant_builder_end) \
    X(g_variant_builder_unref) X(g_variant_unref) X(g_dbus_node_info_new_for_xml)                    \
    X(g_dbus_node_info_unref) X(g_bus_get_sync) X(g_bus_own_name_on_connection) X(g_bus_unown_name)  \
    X(g_dbus_connection_register_object) X(g_dbus_connection_emit_signal)                           \
    X(g_dbus_connection_call) X(g_dbus_connection_call_finish) X(g_dbus_connection_signal_subscribe) \
    X(g_dbus_connection_flush_sync) X(g_dbus_method_invocation_return_value)                        \
    X(g_dbus_method_invocation_return_dbus_error) X(g_dbus_connection_set_exit_on_close)

#define HEE_GIO_POINTER(name) extern __typeof__(name) *hee_gio_##name;
HEE_GIO_FUNCTIONS(HEE_GIO_POINTER)
#undef HEE_GIO_POINTER

/// Loads libgio-2.0.so.0 and looks the functions up (once; main thread). Returns 0, or -1
/// with the reason in `error` (`size` bytes).
int hee_gio_load(char *error, size_t size);

#endif
