#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CWaylandProtocols

/// System mode's own Wayland connection (never SDL's: a protocol error here must not end
/// SDL's, and SDL 2.26 cannot make layer surfaces), its globals, and how its events reach the
/// main thread.
///
/// A thread of ours (`WaylandEventReader`) reads the socket as soon as anything arrives, so
/// the compositor never finds it full, and makes its pipe (`wakeFD`) readable; the loop's
/// wait (`WaylandEventWaiter`) watches it and hands the loop an `SDL_USEREVENT` of
/// `eventType`, and the main thread, handling that event, dispatches what was read
/// (`dispatch()`), so every event handler runs on the main thread, between SDL events.
final class WaylandConnection {
    /// One global the compositor announced.
    struct Global {
        var name: UInt32
        var interface: String
        var version: UInt32
    }

    /// The `wl_display *`.
    let display: OpaquePointer
    private let registry: WaylandObject
    /// Every global announced so far, in order.
    private(set) var globals: [Global] = []
    /// The SDL event type the poll thread posts (from `SDL_RegisterEvents`), or 0 before
    /// `startEventThread`.
    private(set) var eventType: UInt32 = 0
    private var reader: WaylandEventReader?
    /// The `wl_callback`s of `sync` not yet done.
    private var callbacks: [ObjectIdentifier: WaylandObject] = [:]

    /// Connects to the compositor at `WAYLAND_DISPLAY` and reads its globals (one round trip).
    /// Returns `nil` when there is no compositor to reach.
    init?() {
        guard let display = wl_display_connect(nil) else { return nil }
        self.display = display
        var placeholder = wl_argument(u: 0)
        guard let proxy = wl_proxy_marshal_array_flags(display, 1 /* wl_display.get_registry */,
                                                       hee_wl_registry(), 1, 0, &placeholder) else {
            wl_display_disconnect(display)
            return nil
        }
        registry = WaylandObject(proxy: proxy)
        registry.onEvent = { [unowned self] opcode, args in
            if opcode == 0 {  // wl_registry.global(name, interface, version)
                globals.append(Global(name: args.uint(0), interface: args.string(1), version: args.uint(2)))
            } else if opcode == 1 {  // global_remove(name)
                globals.removeAll { $0.name == args.uint(0) }
            }
        }
        guard wl_display_roundtrip(display) >= 0 else {
            registry.destroy(request: nil)
            wl_display_disconnect(display)
            return nil
        }
    }

    deinit {
        reader = nil  // stops and joins the thread
        registry.destroy(request: nil)
        wl_display_flush(display)
        wl_display_disconnect(display)
    }

    /// Whether the compositor offers `interface`.
    func offers(_ interface: String) -> Bool { globals.contains { $0.interface == interface } }

    /// Binds the first global of `interface`'s name, at `version` or the compositor's, if lower.
    func bind(_ interface: UnsafePointer<wl_interface>, version: UInt32) -> WaylandObject? {
        let name = String(cString: interface.pointee.name)
        guard let global = globals.first(where: { $0.interface == name }) else { return nil }
        return bind(global, interface, version: version)
    }

    /// Binds `global` as `interface`, at `version` or the global's, if lower.
    func bind(_ global: Global, _ interface: UnsafePointer<wl_interface>, version: UInt32) -> WaylandObject? {
        let version = min(version, global.version)
        // wl_registry.bind(name, new_id): an untyped new_id carries the interface's name and version.
        return registry.request(0, [.uint(global.name), .string(global.interface), .uint(version), .newID],
                                creating: interface, version: version)
    }

    /// Waits until the compositor has handled every request sent so far, dispatching events
    /// meanwhile. Returns `false` when the connection failed.
    @discardableResult
    func roundtrip() -> Bool { wl_display_roundtrip(display) >= 0 }

    /// The longest wait for the compositor to take buffered requests.
    static let flushWait: Int32 = 1000  // milliseconds

    /// Sends buffered requests now, waiting (at most `flushWait`) while the socket is full.
    /// libwayland-client 1.21 has a 4 KiB buffer for outgoing requests: a request that finds
    /// it full and the socket full ends the connection ("Error sending request: Resource
    /// temporarily unavailable"), so every burst of requests is followed by a flush.
    func flush() {
        var waited: Int32 = 0
        while wl_display_flush(display) < 0, errno == EAGAIN, waited < Self.flushWait {
            var writable = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLOUT), revents: 0)
            _ = poll(&writable, 1, 50)
            waited += 50
        }
    }

    /// Sends `wl_display.sync`: `done` runs (on the main thread, when the answer is
    /// dispatched) once the compositor has handled every request sent before it. Returns
    /// `false` when the request could not be made.
    @discardableResult
    func sync(_ done: @escaping () -> Void) -> Bool {
        var placeholder = wl_argument(u: 0)
        guard let proxy = wl_proxy_marshal_array_flags(display, 0 /* wl_display.sync */, hee_wl_callback(), 1, 0,
                                                       &placeholder) else { return false }
        let callback = WaylandObject(proxy: proxy)
        let id = ObjectIdentifier(callback)
        callbacks[id] = callback
        callback.onEvent = { [unowned self] _, _ in  // wl_callback.done(data); the compositor destroys it
            callbacks[id]?.destroy(request: nil)
            callbacks[id] = nil
            done()
        }
        return true
    }

    /// Whether the connection has failed (a protocol error, the compositor gone).
    var failed: Bool { wl_display_get_error(display) != 0 }

    /// Why the connection failed, in words: the protocol error (object, interface, code) or
    /// the system error.
    var failure: String {
        let code = wl_display_get_error(display)
        guard code != 0 else { return "no error" }
        guard code == EPROTO else { return String(cString: strerror(code)) }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let error = wl_display_get_protocol_error(display, &interface, &id)
        let name = interface.map { String(cString: $0.pointee.name) } ?? "an object"
        return "protocol error \(error) on \(name)@\(id)"
    }

    /// Starts the thread that reads the connection and says when events arrive
    /// (`wakeFD`). Afterwards the main thread only dispatches (`dispatch()`), never reads.
    func startEventThread() {
        guard reader == nil else { return }
        eventType = SDL_RegisterEvents(1)
        guard eventType != UInt32.max else { return }
        reader = WaylandEventReader(display: display)
    }

    /// The pipe end that is readable while events read by the reader thread wait to be
    /// dispatched (`nil` without the thread).
    var wakeFD: Int32? { reader?.wakeFD }
    /// Where another thread writes a byte to wake the loop as this connection's events do.
    var wakeWriteFD: Int32? { reader?.wakeWriteFD }

    /// Takes the reader's wake-ups (see `WaylandEventReader.takeWakeUps`).
    func takeWakeUps() { reader?.takeWakeUps() }

    /// Dispatches the events the reader thread has read (on the main thread). Returns
    /// `false` when the connection failed.
    @discardableResult
    func dispatch() -> Bool {
        flush()
        let result = wl_display_dispatch_pending(display)
        flush()
        return result >= 0 && !failed
    }

    /// Whether `event` is this connection's wake-up.
    func isWakeUp(_ event: UnsafePointer<SDL_Event>) -> Bool {
        eventType != 0 && event.pointee.type == eventType
    }
}
