#if canImport(Glibc)
import Glibc
#endif
import KeyboardCore

/// Writes `--record` files: every input event as one JSON line, written at once (a crash
/// loses nothing recorded before it). Owns the file descriptor and closes it in `deinit`.
final class InputRecorder {
    private let fd: Int32
    private let path: String
    /// Set once a write has failed (reported once; recording stops).
    private var failed = false
    /// The latest timestamp written: a record is never stamped earlier (a replay refuses a
    /// file whose time runs backwards, and SDL may queue an event from another thread with
    /// a timestamp a millisecond older than one already taken).
    private var latest = 0

    /// A recorder whose file couldn't be created: `path` and the system's reason.
    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    /// Creates (or truncates) the file at `path`.
    /// - Throws: `OpenError` when it cannot be created.
    init(path: String) throws(OpenError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(fd) }

    /// Appends `record` as one line (stamped no earlier than the line before). A failed write (a full disk) is reported once on
    /// stderr and ends the recording.
    func write(_ record: InputRecord) {
        guard !failed else { return }
        var record = record
        record.t = max(record.t, latest)
        latest = record.t
        if !Console.write(record.jsonLine + "\n", to: fd) {
            failed = true
            Console.error("\(Console.program): warning: cannot write \(path): \(String(cString: strerror(errno))); recording stopped")
        }
    }
}
