#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CWaylandProtocols

/// The thread that reads system mode's Wayland connection (`WaylandConnection`) whenever
/// anything arrives and wakes SDL's loop with one `SDL_USEREVENT` at a time.
///
/// Reading off the main thread keeps the socket empty while the main thread draws or types:
/// libwayland-server (1.21) disconnects a client whose socket is full, and during rapid
/// input the compositor flushes many small messages per loop turn (each a socket buffer of
/// its own, so the kernel's limit comes long before the byte count suggests). With the main
/// thread reading, 1 in 2 runs of 1,000 rapid presses ended in "Broken pipe" from sway after
/// a main-thread pause of 100–180 ms between reads.
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
        var eventType: UInt32
        /// 1 while no wake-up is in flight (the thread takes it to post one; the main thread
        /// gives it back when it handles the wake-up).
        var token = sem_t()
    }

    /// Starts reading `display`; wake-ups are SDL events of `eventType`. Returns `nil` when
    /// the thread cannot start (events are then read only by round trips).
    init?(display: OpaquePointer, eventType: UInt32) {
        var ends: [Int32] = [-1, -1]
        guard let queue = wl_display_create_queue(display) else { return nil }
        guard pipe(&ends) == 0 else {
            wl_event_queue_destroy(queue)
            return nil
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        context = .allocate(capacity: 1)
        context.initialize(to: Context(display: display, queue: queue, stopRead: ends[0], stopWrite: ends[1], eventType: eventType))
        sem_init(&context.pointee.token, 0, 1)
        var created = pthread_t()
        guard pthread_create(&created, nil, waylandReaderThread, context) == 0 else {
            close(ends[0])
            close(ends[1])
            sem_destroy(&context.pointee.token)
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
        sem_destroy(&context.pointee.token)
        wl_event_queue_destroy(context.pointee.queue)
        context.deallocate()
    }

    /// The main thread is handling the wake-up: the next read may post another.
    func wakeUpHandled() {
        var value: Int32 = 0
        sem_getvalue(&context.pointee.token, &value)
        if value == 0 { sem_post(&context.pointee.token) }
    }
}

/// The reader thread: prepare, wait for data or the stop pipe, read, post a wake-up unless
/// one is in flight; on a failed read, one last wake-up (the main thread then finds the
/// connection failed) and out.
private func waylandReaderThread(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context = argument?.assumingMemoryBound(to: WaylandEventReader.Context.self) else { return nil }
    let display = context.pointee.display
    var fds = [pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0),
               pollfd(fd: context.pointee.stopRead, events: Int16(POLLIN), revents: 0)]
    func wakeUp() {
        var event = SDL_Event()
        event.type = context.pointee.eventType
        _ = SDL_PushEvent(&event)
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
        if wl_display_read_events(display) < 0 {
            wakeUp()
            return nil
        }
        if sem_trywait(&context.pointee.token) == 0 { wakeUp() }
    }
}
