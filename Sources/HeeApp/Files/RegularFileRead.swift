#if canImport(Glibc)
import Glibc
#endif

/// What reading a file that must be a small regular file found: the settings file's one read.
///
/// The path is opened with `O_NONBLOCK | O_NOCTTY | O_CLOEXEC` (a FIFO cannot block the open,
/// a terminal cannot become the controlling one) and its type is taken with `fstat` on that
/// descriptor, so what is read is what was checked. Anything but a regular file (a
/// character or block device such as `/dev/null`, a FIFO, a socket, a directory) is not
/// read, and a regular file over the size limit is not read into memory.
enum RegularFileRead {
    /// The whole file and the identity of what was read.
    case contents([UInt8], FileSystem.FileIdentity)
    /// Nothing at the path (or a dangling symbolic link).
    case missing
    /// Not a regular file; `kind` says what it is ("a character device", "a FIFO", …).
    case notRegular(kind: FileKind)
    /// A regular file larger than the limit: `size` in bytes.
    case tooLarge(size: Int64, FileSystem.FileIdentity)
    /// It exists but cannot be opened or read (EACCES, EIO, …).
    case unreadable(FileSystem.ReadError)

    /// What a path that is not a regular file names.
    enum FileKind: String, Sendable {
        case characterDevice = "a character device"
        case blockDevice = "a block device"
        case fifo = "a FIFO"
        case socket = "a socket"
        case directory = "a directory"
        case other = "not a regular file"

        /// The kind of a `st_mode`, or `nil` for a regular file.
        init?(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: return nil
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFIFO: self = .fifo
            case S_IFSOCK: self = .socket
            case S_IFDIR: self = .directory
            default: self = .other
            }
        }
    }

    /// Reads `path` (symbolic links followed) if it is a regular file of at most `limit` bytes.
    /// - Parameter limit: the largest file read, in bytes; a file that grows past it while
    ///   being read counts as too large too.
    /// - Complexity: O(n) in the file's size, at most `limit` bytes in memory.
    static func read(_ path: String, limit: Int) -> RegularFileRead {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return .missing }
            // A socket (and a device without a driver) cannot be opened at all: say what it is.
            var info = stat()
            if code == ENXIO || code == ENODEV || code == EOPNOTSUPP, stat(path, &info) == 0,
               let kind = FileKind(mode: info.st_mode) {
                return .notRegular(kind: kind)
            }
            return .unreadable(FileSystem.ReadError(path: path, code: code, reason: String(cString: strerror(code))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return .unreadable(FileSystem.ReadError(path: path, code: errno, reason: String(cString: strerror(errno))))
        }
        if let kind = FileKind(mode: info.st_mode) { return .notRegular(kind: kind) }
        let identity = FileSystem.FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if Int64(info.st_size) > Int64(limit) { return .tooLarge(size: Int64(info.st_size), identity) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .unreadable(FileSystem.ReadError(path: path, code: errno, reason: String(cString: strerror(errno))))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { return .tooLarge(size: Int64(bytes.count), identity) }
        }
        return .contents(bytes, identity)
    }
}
