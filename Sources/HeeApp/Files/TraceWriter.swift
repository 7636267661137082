#if canImport(Glibc)
import Glibc
#endif
import AppModel
import KeyboardCore

/// Writes `--trace` events to stdout as JSON Lines, one `write` per line. Does nothing when
/// tracing is off. When stdout cannot take a line (a full disk, `/dev/full`, a reader that
/// went away), it says so once on stderr and writes no more: the app itself carries on.
final class TraceWriter {
    let isEnabled: Bool
    /// Set by the first line that could not be written; later lines are dropped.
    private(set) var hasFailed = false

    init(enabled: Bool) { isEnabled = enabled }

    /// Writes `event` stamped `time` (since the app started).
    func emit(_ event: TraceEvent, at time: Duration) {
        guard isEnabled, !hasFailed else { return }
        if !Console.out(event.json(at: time.seconds).serialized + "\n") {
            hasFailed = true
            Console.error("\(Console.program): warning: --trace: cannot write to standard output "
                          + "(\(String(cString: strerror(errno)))); no further trace lines are written")
        }
    }
}
