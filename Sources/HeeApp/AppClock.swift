import CSDL

/// The app's time, as a `Duration` since SDL started: SDL's millisecond clock plus an offset
/// that only ever grows.
///
/// Live events are stamped with their SDL timestamp plus the offset. A replay moves the clock
/// forward to each replayed event's own time at once (it runs at full speed, and its gestures
/// are timed by the file, not by how fast this machine is); live time then continues from
/// there, so time never runs backwards.
struct AppClock {
    private(set) var offset: Duration = .zero

    /// The current time.
    var now: Duration { .milliseconds(Int64(SDL_GetTicks64())) + offset }

    /// The time of a live event with SDL timestamp `timestamp` (milliseconds).
    func time(ofTimestamp timestamp: UInt32) -> Duration {
        .milliseconds(Int64(timestamp)) + offset
    }

    /// Moves the clock forward to `time` if it is behind.
    mutating func advance(to time: Duration) {
        let current = now
        if time > current { offset += time - current }
    }
}
