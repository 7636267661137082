#if canImport(Glibc)
import Glibc
#endif

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
}
