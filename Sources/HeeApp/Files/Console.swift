#if canImport(Glibc)
import Glibc
#endif
import AppModel
import KeyboardCore

/// Writes whole lines to a file descriptor with `write(2)`: unbuffered, so each line is out
/// as soon as it is written (stdout is a pipe in tests).
enum Console {
    /// The name the program was started as (`HeeApp`, or `hee-keyboard` when installed), for
    /// messages.
    static let program: String = {
        let path = CommandLine.arguments.first ?? "HeeApp"
        return path.split(separator: "/").last.map(String.init) ?? "HeeApp"
    }()

    /// The usage text, naming the program as it was started.
    static var usage: String {
        let prefix = "usage: HeeApp"
        let text = LaunchOptions.usage
        guard program != "HeeApp", text.hasPrefix(prefix) else { return text }
        // The synopsis' continuation lines are aligned under the first flag: move them too.
        let shift = program.count - "HeeApp".count
        let continuation = String(repeating: " ", count: prefix.count + 1) + "["
        let lines = ("usage: " + program + text.dropFirst(prefix.count)).split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line in
            guard line.hasPrefix(continuation) else { return String(line) }
            return shift >= 0 ? String(repeating: " ", count: shift) + line : String(line.dropFirst(-shift))
        }.joined(separator: "\n")
    }

    /// Says what was wrong with the command line (`message`, one line without the program's
    /// name) and where the usage is, on stderr, and exits with status 64 (`EX_USAGE`). The
    /// usage itself (40 lines) would scroll the one line that matters off a small terminal.
    static func usageError(_ message: String) -> Never {
        error("\(program): \(message)")
        error("Try '\(program) --help' for the options.")
        exit(ExitStatus.usage)
    }

    /// Writes `line` and a newline to stderr.
    static func error(_ line: String) { write(line + "\n", to: 2) }

    /// Writes `text` to stdout as is. Returns whether all of it was written.
    @discardableResult
    static func out(_ text: String) -> Bool { write(text, to: 1) }

    @discardableResult
    static func write(_ text: String, to fd: Int32) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf in
                Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false  // a closed pipe or a full disk: nothing more to say
            }
            offset += n
        }
        return true
    }
}
