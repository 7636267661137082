#if canImport(Glibc)
import Glibc
#endif
import CWaylandProtocols

/// The thread that reads system mode's Wayland connection (`WaylandConnection`) whenever
/// anything arrives and says so on a pipe (`wakeFD`), which the loop's wait
/// (`WaylandEventWaiter`) watches beside SDL's connection.
///
/// Reading off the main thread keeps the socket empty while the main thread draws or types:
/// libwayland-server (1.21) disconnects a client whose socket is full, and during rapid
/// input the compositor flushes many small messages per loop turn (each a socket buffer of
/// its own, so the kernel's limit comes long before the byte count suggests). With the main
/// thread reading, 1 in 2 runs of 1,000 rapid presses ended in "Broken pipe" from sway after
/// a main-thread pause of 100–180 ms between reads.
///
/// The wake-up is a pipe, not an SDL event: `SDL_PushEvent` from another thread wakes
/// SDL 2.26's Wayland wait with a `wl_display.sync` round trip through the compositor, so
/// every press waited for the compositor twice (and for its rendering, when it was busy).
///
/// libwayland's reading protocol makes this safe: the thread prepares its reads on a queue of
/// its own that never holds events (`wl_display_prepare_read_queue` then succeeds at once),
/// `wl_display_read_events` files every event on its object's queue (the default queue, for
/// all of ours), and the main thread dispatches that queue (`wl_display_dispatch_pending`),
/// never reading.
final class WaylandEventReader {
    private let thread: pthread_t
    private let context: UnsafeMutablePointer<Context>

    /// What the thread shares with the main thread.
    struct Context {
        var display: OpaquePointer
        /// The empty queue reads are prepared on.
        var queue: OpaquePointer
        var stopRead: Int32
        var stopWrite: Int32
        /// The wake-up pipe (both ends non-blocking): readable when events were read since
        /// the main thread last emptied it (`takeWakeUps`), or the connection failed.
        var wakeRead: Int32
        var wakeWrite: Int32
    }

    /// The pipe's end that becomes readable when events were read (or the connection failed).
    var wakeFD: Int32 { context.pointee.wakeRead }
    /// The pipe's other end (non-blocking): another thread of ours writes a byte to it to wake
    /// the loop the same way (the session bus's, `SessionBusService`).
    var wakeWriteFD: Int32 { context.pointee.wakeWrite }

    /// Starts reading `display`. Returns `nil` when the thread cannot start (events are then
    /// read only by round trips).
    init?(display: OpaquePointer) {
        var ends: [Int32] = [-1, -1]
        var wake: [Int32] = [-1, -1]
        guard let queue = wl_display_create_queue(display) else { return nil }
        guard pipe(&ends) == 0 else {
            wl_event_queue_destroy(queue)
            return nil
        }
        guard pipe(&wake) == 0 else {
            close(ends[0])
            close(ends[1])
            wl_event_queue_destroy(queue)
            return nil
        }
        for end in ends + wake { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        for end in wake { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        context = .allocate(capacity: 1)
        context.initialize(to: Context(display: display, queue: queue, stopRead: ends[0], stopWrite: ends[1],
                                       wakeRead: wake[0], wakeWrite: wake[1]))
        var created = pthread_t()
        guard pthread_create(&created, nil, waylandReaderThread, context) == 0 else {
            for end in ends + wake { close(end) }
            wl_event_queue_destroy(queue)
            context.deallocate()
            return nil
        }
        thread = created
    }

    /// Stops and joins the thread.
    deinit {
        var byte: UInt8 = 1
        _ = write(context.pointee.stopWrite, &byte, 1)
        pthread_join(thread, nil)
        close(context.pointee.stopRead)
        close(context.pointee.stopWrite)
        close(context.pointee.wakeRead)
        close(context.pointee.wakeWrite)
        wl_event_queue_destroy(context.pointee.queue)
        context.deallocate()
    }

    /// Takes the wake-ups posted so far (the pipe is unreadable again until the next read).
    func takeWakeUps() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(context.pointee.wakeRead, &bytes, bytes.count) == bytes.count {}
    }
}

/// The reader thread: prepare, wait for data or the stop pipe, read, post a wake-up; on a
/// failed read, one last wake-up (the main thread then finds the connection failed) and out.
private func waylandReaderThread(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context = argument?.assumingMemoryBound(to: WaylandEventReader.Context.self) else { return nil }
    let display = context.pointee.display
    var fds = [pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0),
               pollfd(fd: context.pointee.stopRead, events: Int16(POLLIN), revents: 0)]
    func wakeUp() {
        // A full pipe (the main thread busy for a long while) is awake enough.
        var byte: UInt8 = 1
        _ = write(context.pointee.wakeWrite, &byte, 1)
    }
    while true {
        while wl_display_prepare_read_queue(display, context.pointee.queue) != 0 {
            _ = wl_display_dispatch_queue_pending(display, context.pointee.queue)  // never: nothing is on it
        }
        fds[0].revents = 0
        fds[1].revents = 0
        let ready = poll(&fds, 2, -1)
        if ready < 0 && errno == EINTR {
            wl_display_cancel_read(display)
            continue
        }
        if ready < 0 || fds[1].revents != 0 {
            wl_display_cancel_read(display)
            return nil
        }
        LatencyProbe.mark("poll")
        if wl_display_read_events(display) < 0 {
            wakeUp()
            return nil
        }
        LatencyProbe.mark("read")
        wakeUp()
    }
}
