#if canImport(Glibc)
import Glibc
#endif
import AppModel
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
        /// The file is the one being replayed (a usage error, not a file-system one).
        var sameFile = false
        var description: String { "cannot write \(path): \(reason)" }
    }

    /// Creates (or empties) the file at `path`, unless it is the file `protected` identifies
    /// (the replay being read): that one is checked on the open file, before anything is
    /// truncated, so no spelling or race can make a recording overwrite it.
    /// - Throws: `OpenError` when it cannot be created, or `sameFile` set when it is `protected`.
    init(path: String, protecting protected: FileSystem.FileIdentity? = nil) throws(OpenError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
        if let protected, FileSystem.identity(ofDescriptor: descriptor) == protected {
            close(descriptor)
            throw OpenError(path: path, reason: "it is the --replay file", sameFile: true)
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, ftruncate(descriptor, 0) != 0 {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw OpenError(path: path, reason: reason)
        }
        self.path = path
        fd = descriptor
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
