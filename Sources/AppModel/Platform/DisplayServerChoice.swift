import KeyboardCore
/// Which display server the app runs on, decided before SDL starts (pure: the environment
/// and what a Wayland compositor offers are inputs).
///
/// The rule (docs/wayland-and-x11.md):
/// - `SDL_VIDEODRIVER` set: SDL uses it, as SDL documents; named alone, `x11` without
///   `DISPLAY` and `wayland` with no compositor to reach are refused with the reason.
/// - `WAYLAND_DISPLAY` set (a Wayland session, with or without XWayland): native Wayland,
///   sharp at the output's scale and decorated as the compositor's other windows, with X11 as
///   the fallback if SDL's Wayland driver fails.
/// - `DISPLAY` alone (an X11 session), or `preferX11` with `DISPLAY`: X11 only. No Wayland
///   connection is made, not even by SDL when the X server cannot be reached (its Wayland
///   driver would print libwayland's own errors).
/// - `WAYLAND_DISPLAY` naming no compositor: X11 when `DISPLAY` is set, else refused with a
///   line naming the socket.
/// - neither: SDL's default Wayland socket when a compositor is there, else refused.
///
/// SDL 2.26 crashes during `SDL_Init` on a compositor that offers no `wl_seat`
/// (libsdl-org/SDL#8898, fixed in 2.30): such a compositor is refused, or, when an X server
/// is there too, left for X11.
public enum DisplayServerChoice: Hashable, Sendable {
    /// Leave the choice to SDL (`SDL_VIDEODRIVER`, else X11, then Wayland, ...).
    case sdlDefault
    /// Ask SDL for these drivers, in this order (`SDL_HINT_VIDEODRIVER`, e.g. `"wayland,x11"`);
    /// `warning` is one line for stderr, when the choice is not the obvious one.
    case drivers(String, warning: String?)
    /// Do not start SDL; `message` is one line saying why (a variable's value in it quoted
    /// with its control characters escaped).
    case refuse(String)

    /// What a Wayland compositor offers, found by connecting to it before SDL does.
    public enum WaylandProbe: Hashable, Sendable {
        /// No compositor answers at `WAYLAND_DISPLAY` (or its default, `wayland-0`).
        case unreachable
        /// A compositor answers but offers no `wl_seat` (no input at all).
        case noSeat
        /// A compositor with a seat.
        case usable
    }

    /// The upstream report of SDL 2.26's crash without a seat.
    public static let noSeatReport = "https://github.com/libsdl-org/SDL/issues/8898"

    /// Decides from `environment` (`SDL_VIDEODRIVER`, `WAYLAND_DISPLAY`, `WAYLAND_SOCKET`,
    /// `DISPLAY`), calling `probeWayland` only when Wayland may be used (never in an X11
    /// session without `WAYLAND_DISPLAY`).
    /// - Parameter preferX11: X11 first whenever `DISPLAY` is set, even in a Wayland session:
    ///   for what works through X11 only (typing into other applications with XTEST reaches
    ///   XWayland's).
    public static func decide(environment: [String: String], preferX11: Bool = false,
                              probeWayland: () -> WaylandProbe) -> DisplayServerChoice {
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        let hasX11 = isSet("DISPLAY")
        let noSeat = "the Wayland compositor offers no input seat (wl_seat), and SDL 2.26 crashes without one (\(noSeatReport))"
        // libwayland finds a relative socket name in XDG_RUNTIME_DIR; without it, connecting
        // only prints libwayland's "XDG_RUNTIME_DIR is invalid or not set" to stderr.
        let runtimeDirectory = isSet("XDG_RUNTIME_DIR")
        if let explicit = environment["SDL_VIDEODRIVER"], !explicit.isEmpty {
            // The user's choice stands. A seatless compositor is refused (not crashed on), and
            // a driver named alone that has nothing to connect to is refused with the reason
            // (SDL would say only "wayland not available" or "x11 not available").
            let names = explicit.lowercased().split(separator: ",")
            if names == ["x11"], !hasX11 {
                return .refuse("SDL_VIDEODRIVER is x11, but DISPLAY is not set (no X server to open a window on)")
            }
            // A socket handed over by the compositor is left alone: probing would use it up.
            if names.first == "wayland", !isSet("WAYLAND_SOCKET") {
                let socket = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
                let reachable = socket?.hasPrefix("/") == true || runtimeDirectory
                switch reachable ? probeWayland() : .unreachable {
                case .noSeat:
                    return .refuse(noSeat)
                case .unreachable where names.count == 1:
                    let place = socket.map { "WAYLAND_DISPLAY \($0.quotedForMessage)" } ?? "the default socket 'wayland-0'"
                    let notes = [socket == nil ? "WAYLAND_DISPLAY is not set" : nil,
                                 reachable ? "is it running?" : "XDG_RUNTIME_DIR, where the socket would be, is not set"]
                    return .refuse("SDL_VIDEODRIVER is wayland, but no Wayland compositor answers at \(place) "
                                   + "(\(notes.compactMap { $0 }.joined(separator: "; ")))")
                default:
                    break
                }
            }
            return .sdlDefault
        }
        if preferX11 && hasX11 { return .drivers("x11", warning: nil) }
        if isSet("WAYLAND_SOCKET") {
            // A socket handed over by the compositor: connecting to probe it would use it up.
            return .drivers("wayland,x11", warning: nil)
        }
        if let socket = environment["WAYLAND_DISPLAY"], !socket.isEmpty {
            let probe = socket.hasPrefix("/") || runtimeDirectory ? probeWayland() : .unreachable
            switch probe {
            case .usable:
                return .drivers("wayland,x11", warning: nil)
            case .noSeat:
                return hasX11 ? .drivers("x11", warning: noSeat + "; using X11") : .refuse(noSeat)
            case .unreachable:
                if hasX11 { return .drivers("x11", warning: nil) }
                let why = socket.hasPrefix("/") || runtimeDirectory ? "is it running?" : "XDG_RUNTIME_DIR, where the socket would be, is not set"
                return .refuse("cannot connect to the Wayland compositor at WAYLAND_DISPLAY \(socket.quotedForMessage) (\(why))")
            }
        }
        if hasX11 { return .drivers("x11", warning: nil) }
        // Neither variable: SDL would still try Wayland's default socket.
        let none = "no display to open a window on (set DISPLAY or WAYLAND_DISPLAY)"
        guard runtimeDirectory else { return .refuse(none) }
        switch probeWayland() {
        case .usable: return .sdlDefault
        case .noSeat: return .refuse(noSeat)
        case .unreachable: return .refuse(none)
        }
    }
}
