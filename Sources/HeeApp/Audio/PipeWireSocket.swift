#if canImport(Glibc)
import Glibc
#endif

/// Which PipeWire server is running, told apart by its socket file: a server that ended
/// removes (or leaves stale) its socket, and one started since made a new one.
///
/// SDL 2.26's PipeWire driver does not report a server that went away: its stream simply
/// stops asking for buffers, and a press in the first moments after a crash would look like
/// one on a live device. Comparing the socket a device was opened on with the one there now
/// tells at once (a `stat`, no round trip).
struct PipeWireSocket: Equatable {
    /// The socket file's device and inode numbers (`stat`).
    let device: UInt64
    let inode: UInt64
    /// When the file was made (a new file may reuse a deleted one's inode number).
    let changed: timespec

    /// The socket the PipeWire client library connects to by default, as it finds it:
    /// `PIPEWIRE_REMOTE` (default `pipewire-0`; an absolute path as is) in
    /// `PIPEWIRE_RUNTIME_DIR`, else `XDG_RUNTIME_DIR`. `nil` when there is none (no server).
    static func current() -> PipeWireSocket? {
        let remote = environment("PIPEWIRE_REMOTE") ?? "pipewire-0"
        let path: String
        if remote.hasPrefix("/") {
            path = remote
        } else if let directory = environment("PIPEWIRE_RUNTIME_DIR") ?? environment("XDG_RUNTIME_DIR") {
            path = directory + "/" + remote
        } else {
            return nil
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        return PipeWireSocket(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), changed: info.st_ctim)
    }

    /// The same socket file: device, inode and change time (`timespec` is not `Equatable`).
    static func == (a: PipeWireSocket, b: PipeWireSocket) -> Bool {
        a.device == b.device && a.inode == b.inode && a.changed.tv_sec == b.changed.tv_sec
            && a.changed.tv_nsec == b.changed.tv_nsec
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
