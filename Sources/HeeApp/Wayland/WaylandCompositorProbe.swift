import CWayland
import AppModel
import KeyboardCore

/// Connects to the Wayland compositor that SDL would use (`WAYLAND_DISPLAY`, else
/// `wayland-0`) and asks its registry whether it offers a `wl_seat`, then disconnects:
/// one round trip, before SDL starts, and only when Wayland may be chosen.
enum WaylandCompositorProbe {
    /// What the compositor offers: `usable` (a seat), `noSeat`, or `unreachable` (no
    /// compositor answers, or the round trip fails).
    static func run() -> DisplayServerChoice.WaylandProbe {
        guard let display = wl_display_connect(nil) else { return .unreachable }
        defer { wl_display_disconnect(display) }
        guard let registry = wl_display_get_registry(display) else { return .unreachable }
        defer { wl_registry_destroy(registry) }
        final class Found { var seat = false }
        let found = Found()
        var listener = wl_registry_listener(global: { data, _, _, interface, _ in
            guard let data, let interface, String(cString: interface) == "wl_seat" else { return }
            Unmanaged<Found>.fromOpaque(data).takeUnretainedValue().seat = true
        }, global_remove: { _, _, _ in })
        return withExtendedLifetime(found) {
            withUnsafePointer(to: &listener) { listener in
                wl_registry_add_listener(registry, listener, Unmanaged.passUnretained(found).toOpaque())
                guard wl_display_roundtrip(display) >= 0 else { return .unreachable }
                return found.seat ? .usable : .noSeat
            }
        }
    }
}
