#if canImport(Glibc)
import Glibc
#endif
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

    /// The whole file at `path` as UTF-8 text (invalid bytes become U+FFFD).
    /// - Throws: `ReadError` when it cannot be opened or read.
    static func readText(_ path: String) throws(ReadError) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// Creates `path` and its missing parents (mode 0700, as XDG asks for config dirs).
    /// - Throws: `ReadError` naming the directory that could not be made.
    static func makeDirectories(_ path: String) throws(ReadError) {
        if path.isEmpty || path == "/" { return }
        var info = stat()
        if stat(path, &info) == 0 { return }
        try makeDirectories(AssetLocator.parentDirectory(of: path))
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw ReadError(path: path, code: errno, reason: String(cString: strerror(errno)))
        }
    }

    /// The whole file at `path`.
    /// - Throws: `ReadError` when it cannot be opened or read.
    static func readBytes(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, code: errno, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, code: errno, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
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
