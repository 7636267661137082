#if canImport(Glibc)
import Glibc
#endif

/// Writes whole lines to a file descriptor with `write(2)`: unbuffered, so each line is out
/// as soon as it is written (stdout is a pipe in tests).
enum Console {
    /// Writes `line` and a newline to stderr.
    static func error(_ line: String) { write(line + "\n", to: 2) }

    /// Writes `text` to stdout as is.
    static func out(_ text: String) { write(text, to: 1) }

    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf in
                Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe: nothing more to say
            }
            offset += n
        }
        bytes.removeAll()
    }
}
