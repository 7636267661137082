import CSDL

/// How the loop blocks until the next SDL event.
///
/// `SDLEventWaiter` is SDL's own wait. Wayland system mode has its own
/// (`WaylandEventWaiter`): SDL 2.26's Wayland driver wakes a waiting loop with a round trip
/// through the compositor for every event another thread pushes, and the keyboard's input
/// arrives on a connection SDL does not watch.
protocol EventWaiter: AnyObject {
    /// Waits at most `milliseconds` (`nil`: for good) for an event and takes it into `event`.
    /// Returns whether one came.
    func wait(for event: inout SDL_Event, milliseconds: Int32?) -> Bool
}

/// SDL's own wait (`SDL_WaitEventTimeout`, `SDL_WaitEvent`).
final class SDLEventWaiter: EventWaiter {
    func wait(for event: inout SDL_Event, milliseconds: Int32?) -> Bool {
        if let milliseconds { return SDL_WaitEventTimeout(&event, milliseconds) != 0 }
        return SDL_WaitEvent(&event) != 0
    }
}
