#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CWaylandProtocols

/// System mode's own Wayland connection (never SDL's: a protocol error here must not end
/// SDL's, and SDL 2.26 cannot make layer surfaces), its globals, and how its events reach the
/// main thread.
///
/// SDL's event loop blocks in `SDL_WaitEventTimeout`, which does not watch this connection's
/// file descriptor. A thread of ours only polls that descriptor: when it is readable, the
/// thread posts one `SDL_USEREVENT` (`eventType`) and waits; the main thread, handling that
/// event, reads and dispatches the connection's events (`dispatch()`), so every event handler
/// runs on the main thread, between SDL events, and lets the thread poll again.
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
    private var thread: pthread_t?
    private var context: UnsafeMutablePointer<WaylandPollContext>?

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
        stopEventThread()
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

    /// Sends buffered requests now.
    func flush() { wl_display_flush(display) }

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

    /// Starts the thread that wakes SDL's loop when events arrive.
    func startEventThread() {
        guard thread == nil else { return }
        eventType = SDL_RegisterEvents(1)
        guard eventType != UInt32.max else { return }
        let context = UnsafeMutablePointer<WaylandPollContext>.allocate(capacity: 1)
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            context.deallocate()
            return
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        context.initialize(to: WaylandPollContext(fd: wl_display_get_fd(display), stopRead: pipeEnds[0],
                                                  stopWrite: pipeEnds[1], eventType: eventType))
        sem_init(&context.pointee.consumed, 0, 0)
        var created = pthread_t()
        guard pthread_create(&created, nil, waylandPollThread, context) == 0 else {
            close(pipeEnds[0])
            close(pipeEnds[1])
            context.deallocate()
            return
        }
        thread = created
        self.context = context
    }

    /// Stops and joins the thread.
    private func stopEventThread() {
        guard let thread, let context else { return }
        var byte: UInt8 = 1
        _ = write(context.pointee.stopWrite, &byte, 1)
        sem_post(&context.pointee.consumed)
        pthread_join(thread, nil)
        close(context.pointee.stopRead)
        close(context.pointee.stopWrite)
        sem_destroy(&context.pointee.consumed)
        context.deallocate()
        self.thread = nil
        self.context = nil
    }

    /// Reads what has arrived and dispatches every queued event (on the main thread), then
    /// lets the poll thread watch again. Returns `false` when the connection failed.
    @discardableResult
    func dispatch() -> Bool {
        defer { if let context { sem_post(&context.pointee.consumed) } }
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { return false }
        }
        wl_display_flush(display)
        var poller = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, 0) > 0 {
            if wl_display_read_events(display) < 0 { return false }
        } else {
            wl_display_cancel_read(display)
        }
        let result = wl_display_dispatch_pending(display)
        wl_display_flush(display)
        return result >= 0
    }

    /// Whether `event` is this connection's wake-up.
    func isWakeUp(_ event: UnsafePointer<SDL_Event>) -> Bool {
        eventType != 0 && event.pointee.type == eventType
    }
}

/// What the poll thread shares with the main thread.
struct WaylandPollContext {
    var fd: Int32
    var stopRead: Int32
    var stopWrite: Int32
    var eventType: UInt32
    /// Posted by the main thread when it has read what the last wake-up announced.
    var consumed = sem_t()
}

/// The poll thread: waits for the connection's descriptor to be readable, posts one wake-up
/// event and waits until the main thread has read, until the stop pipe is written.
private func waylandPollThread(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context = argument?.assumingMemoryBound(to: WaylandPollContext.self) else { return nil }
    var fds = [pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0),
               pollfd(fd: context.pointee.stopRead, events: Int16(POLLIN), revents: 0)]
    while true {
        fds[0].revents = 0
        fds[1].revents = 0
        let ready = poll(&fds, 2, -1)
        if ready < 0 && errno == EINTR { continue }
        if ready < 0 || fds[1].revents != 0 { return nil }
        if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 && fds[0].revents & Int16(POLLIN) == 0 { return nil }
        var event = SDL_Event()
        event.type = context.pointee.eventType
        if SDL_PushEvent(&event) < 0 { return nil }
        while sem_wait(&context.pointee.consumed) != 0 && errno == EINTR {}
    }
}
