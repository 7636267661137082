#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CWayland

/// The loop's wait in Wayland system mode: SDL's queue first, then `poll` on SDL's Wayland
/// connection and on system mode's reader (`WaylandConnection.wakeFD`) together.
///
/// `SDL_WaitEventTimeout` (SDL 2.26, Wayland) watches only SDL's connection; an event pushed
/// from another thread wakes it with `wl_display_sync` and a flush, so the compositor has to
/// answer before the loop runs: one more trip through the compositor for every press, and
/// as long as the compositor's own work (rendering an output) when it is busy. Here the
/// reader's pipe wakes the loop directly, and the wake-up is handed over as the
/// connection's `SDL_USEREVENT` without entering SDL's queue.
///
/// SDL's own events are read by `SDL_PollEvent` (its `SDL_PumpEvents` reads what the socket
/// holds). An event another thread pushes into SDL's queue while the loop sleeps here (SDL's
/// audio thread losing a device) is taken at the next wake-up: the loop wakes for the open
/// audio device's deadlines anyway. A signal (SDL turns SIGINT/SIGTERM into `SDL_QUIT`)
/// ends the `poll` at once.
final class WaylandEventWaiter: EventWaiter {
    private let sdlDisplay: OpaquePointer
    private let connection: WaylandConnection

    /// Waits on `window`'s SDL connection and on `connection`'s reader. Returns `nil` when
    /// `window` is not on SDL's Wayland driver or the reader thread is not running.
    init?(window: Window, connection: WaylandConnection) {
        var display: OpaquePointer?
        var surface: OpaquePointer?
        guard hee_sdl_wayland_handles(window.pointer, &display, &surface) != 0, let display,
              connection.wakeFD != nil else { return nil }
        sdlDisplay = display
        self.connection = connection
    }

    func wait(for event: inout SDL_Event, milliseconds: Int32?) -> Bool {
        let deadline = milliseconds.map { Self.monotonicMilliseconds() + Int64($0) }
        var fds = [pollfd(fd: wl_display_get_fd(sdlDisplay), events: Int16(POLLIN), revents: 0),
                   pollfd(fd: connection.wakeFD ?? -1, events: Int16(POLLIN), revents: 0)]
        while true {
            // SDL's queue, after SDL has read and dispatched what its socket holds (and
            // flushed its requests).
            if SDL_PollEvent(&event) != 0 { return true }
            var timeout: Int32 = -1
            if let deadline {
                timeout = Int32(clamping: max(deadline - Self.monotonicMilliseconds(), 0))
            }
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { return SDL_PollEvent(&event) != 0 }
            if ready == 0 { return SDL_PollEvent(&event) != 0 }
            if fds[1].revents != 0 {
                connection.takeWakeUps()
                event = SDL_Event()
                event.type = connection.eventType
                event.common.timestamp = SDL_GetTicks()
                return true
            }
            // SDL's connection has something (or a signal came): SDL_PollEvent reads it.
        }
    }

    /// CLOCK_MONOTONIC in milliseconds.
    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
