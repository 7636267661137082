#if canImport(Glibc)
import Glibc
#endif
import AppModel
import KeyboardCore

/// The few file-system facts the app needs, from libc (the app does not load Foundation).
enum FileSystem {
    /// The running binary's absolute path (`/proc/self/exe`), or `argv[0]` if unreadable.
    static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments.first ?? "" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The working directory, or "." if unreadable.
    static var currentDirectory: String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// A file that could not be read: its path, `errno` and the system's reason.
    struct ReadError: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var reason: String
        var description: String { "cannot read \(path): \(reason)" }
    }

    /// Reads the file at `path` in pieces of 64 KiB and hands each to `body` as it comes, so
    /// a file of any size (or `/dev/zero`) is never held whole; `body` may stop the reading by
    /// throwing.
    /// - Throws: `ReadError` when the file cannot be opened or read, or what `body` throws.
    static func readPieces(_ path: String, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, code: errno, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, code: errno, reason: String(cString: strerror(errno)))
            }
            if n == 0 { return }
            try body(chunk[0..<n])
        }
    }

    /// The whole file at `path` as UTF-8 text (invalid bytes become U+FFFD); for small files
    /// such as `/proc/self/smaps_rollup` (it is held whole).
    /// - Throws: `ReadError` when it cannot be opened or read.
    static func readText(_ path: String) throws -> String {
        var bytes: [UInt8] = []
        try readPieces(path) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The file `path` names once symbolic links in its last component are followed (a
    /// relative link is read from the link's directory): `path` itself when it is no link,
    /// the final target when that does not exist yet, `nil` for a loop (40 links) or an
    /// unreadable link.
    static func resolvingSymbolicLinks(_ path: String) -> String? {
        var current = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for _ in 0..<40 {
            let n = readlink(current, &buffer, buffer.count - 1)
            if n < 0 { return errno == EINVAL || errno == ENOENT ? current : nil }
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : AssetLocator.join(AssetLocator.parentDirectory(of: current), target)
        }
        return nil
    }

    /// Renames `path` to `path + suffix`, or `path + suffix + ".2"`, `".3"`, … when that name
    /// is taken, never replacing a file. Returns the new name, or `nil` when it failed.
    static func moveAside(_ path: String, suffix: String) -> String? {
        for n in 1...1000 {
            let name = n == 1 ? path + suffix : path + suffix + ".\(n)"
            // Claim the name first (O_EXCL fails if anything, even a dangling link, holds
            // it), then rename over our own empty placeholder.
            let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                return nil
            }
            close(fd)
            if rename(path, name) == 0 { return name }
            unlink(name)
            return nil
        }
        return nil
    }

    /// The permission bits of the file at `path` (following links), or `nil` if it does not exist.
    static func permissions(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// Which file a path names: its device and inode, so two spellings of one file (`./r`,
    /// an absolute path, `d/../r`, a symbolic or hard link) compare equal.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        /// For a directory entry: the name in the directory that `device`/`inode` identify.
        var name: String?
    }

    /// The identity of the file at `path` (links followed), or `nil` if it cannot be
    /// examined (it does not exist).
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity of an open file.
    static func identity(ofDescriptor fd: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The directory entry `path` names once symbolic links are followed: its directory's
    /// identity and its name. Defined for a file that does not exist yet too.
    static func entryIdentity(of path: String) -> FileIdentity? {
        guard let target = resolvingSymbolicLinks(path) else { return nil }
        let name = target.split(separator: "/").last.map(String.init) ?? ""
        guard !name.isEmpty, name != ".", name != "..",
              var directory = identity(of: AssetLocator.parentDirectory(of: target).isEmpty ? "." : AssetLocator.parentDirectory(of: target))
        else { return nil }
        directory.name = name
        return directory
    }

    /// Whether `a` and `b` name the same file, however spelt: the same device and inode, or,
    /// when one does not exist yet, the same name in the same directory.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        if let ia = identity(of: a), let ib = identity(of: b) { return ia == ib }
        guard let ea = entryIdentity(of: a), let eb = entryIdentity(of: b) else { return false }
        return ea == eb
    }

    /// The process's environment.
    static var environment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let eq = pair.firstIndex(of: "=") {
                result[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }
}
