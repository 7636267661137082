import AppModel
import CSessionBus

/// The keyboard on the session bus (issue 31, Phosh): the on-screen keyboard's name
/// `sm.puri.OSK0` (object `/sm/puri/OSK0`: `SetVisible(b)`, `GetVisible() → b`, the property
/// `Visible`), and gnome-session's client when gnome-session started the keyboard
/// (`DESKTOP_AUTOSTART_ID`). GDBus runs it on a thread of its own (CSessionBus); the loop is
/// woken through system mode's Wayland pipe and reads what came (`take`) without waiting.
///
/// The name is never taken from another keyboard (squeekboard holds it without allowing
/// replacement): when it is taken, one line on stderr, and the keyboard goes on as a plain
/// system-mode keyboard (auto-show alone decides).
final class SessionBusService {
    /// What the loop does with what the bus said.
    struct Report {
        /// `SetVisible`'s last value since the last report, if it was called.
        var request: Bool?
        /// gnome-session asked the keyboard to end (EndSession, Stop).
        var endRequested: Bool
    }

    /// The name gnome-session knows the keyboard by (its desktop entry's, without `.desktop`).
    static let appID = "sm.puri.HeeKeyboard"

    private var toldName = false
    private var toldClient = false

    /// Starts the service; `wakeFD`: the pipe end that wakes the loop. `nil` (after one line
    /// on stderr) when GIO cannot be loaded.
    init?(wakeFD: Int32, environment: [String: String]) {
        let autostart = environment["DESKTOP_AUTOSTART_ID"].flatMap { $0.isEmpty ? nil : $0 }
        var error = [CChar](repeating: 0, count: 256)
        let started = hee_session_bus_start(true, Self.appID, autostart, wakeFD, &error, error.count)
        guard started == 0 else {
            Console.error("\(Console.program): --system: no sm.puri.OSK0 service: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            return nil
        }
    }

    /// What came since the last call; says once on stderr why the name or the session's
    /// registration failed.
    func take() -> Report {
        var raw = hee_session_bus_report()
        hee_session_bus_take(&raw)
        let reason = withUnsafeBytes(of: raw.reason) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        if raw.name_state >= 2, !toldName {
            toldName = true
            Console.error("\(Console.program): --system: \(reason); keeping on without sm.puri.OSK0")
        }
        if raw.client_state == 2, !toldClient {
            toldClient = true
            Console.error("\(Console.program): --system: cannot register with the session: \(reason)")
        }
        return Report(request: raw.has_request ? raw.requested_visible : nil, endRequested: raw.end_requested)
    }

    /// The keyboard is on the screen (`shown`) or off it: the property `Visible`.
    func keyboardShown(_ shown: Bool) {
        hee_session_bus_set_visible(shown)
    }

    /// Ends the thread; the name goes with the connection.
    func stop() {
        hee_session_bus_stop()
    }
}
