import KeyboardCore

/// Writes `--trace` events to stdout as JSON Lines, one `write` per line. Does nothing when
/// tracing is off.
final class TraceWriter {
    let isEnabled: Bool

    init(enabled: Bool) { isEnabled = enabled }

    /// Writes `event` stamped `time` (since the app started).
    func emit(_ event: TraceEvent, at time: Duration) {
        guard isEnabled else { return }
        Console.out(event.json(at: time.seconds).serialized + "\n")
    }
}
