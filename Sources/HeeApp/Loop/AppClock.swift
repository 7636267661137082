import CSDL

/// The app's time, as a `Duration` since SDL started: SDL's millisecond clock plus an offset
/// that only ever grows.
///
/// Live events are stamped with their SDL timestamp plus the offset. A replay moves the clock
/// forward to each replayed event's own time at once (it runs at full speed, and its gestures
/// are timed by the file, not by how fast this machine is). While a replay runs the clock is
/// frozen between its events, so however slowly this machine draws, no time passes that the
/// file does not contain; live time then continues from there, never running backwards.
struct AppClock {
    private(set) var offset: Duration = .zero
    /// The virtual time while a replay runs.
    private var frozen: Duration?

    /// The current time.
    var now: Duration { frozen ?? live }

    private var live: Duration { .milliseconds(Int64(SDL_GetTicks64())) + offset }

    /// Stops the clock at `time` (a replay starts: at zero, so its trace never depends on
    /// how long start-up took).
    mutating func freeze(at time: Duration) { frozen = time }

    /// Lets the clock run again from where it stood (the replay has ended).
    mutating func thaw() {
        guard let frozen else { return }
        self.frozen = nil
        let current = live
        if frozen > current { offset += frozen - current }
    }

    /// The time of a live event with SDL timestamp `timestamp` (milliseconds); during a
    /// replay, the replay's current time.
    func time(ofTimestamp timestamp: UInt32) -> Duration {
        frozen ?? .milliseconds(Int64(timestamp)) + offset
    }

    /// Moves the clock forward to `time` if it is behind.
    mutating func advance(to time: Duration) {
        if let frozen {
            if time > frozen { self.frozen = time }
            return
        }
        let current = live
        if time > current { offset += time - current }
    }
}
