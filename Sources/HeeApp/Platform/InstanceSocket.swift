#if canImport(Glibc)
import Glibc
#endif
import AppModel
import CSDL

/// `SingleInstance`'s socket: the first system-mode keyboard on a display listens on it,
/// a second connects and asks it to show itself.
enum InstanceSocket {
    /// What claiming the display's socket found.
    enum Claim {
        /// None ran: this one listens now (from `InstanceListener.start`).
        case first(InstanceListener)
        /// One runs and answered (its pid) or did not (`nil`).
        case running(pid: Int32?)
    }

    /// The `code` of the `SDL_USEREVENT` the listener pushes when a second instance asked
    /// this one to show itself (Wayland's touch cancels use 1).
    static let showRequestedCode: Int32 = 2

    /// Listens on `path`, or asks the instance already listening there to show itself.
    /// `nil` when the socket cannot be used (a path too long, no such directory): no rule.
    static func claim(path: String) -> Claim? {
        guard path.utf8.count <= SingleInstance.maximumPathBytes else { return nil }
        // A socket left by a keyboard that was killed refuses connections: it goes.
        for _ in 0..<2 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return nil }
            if withAddress(path, { bind(fd, $0, $1) }) == 0, listen(fd, 4) == 0 {
                return .first(InstanceListener(fd: fd, path: path))
            }
            let bindError = errno
            close(fd)
            guard bindError == EADDRINUSE else { return nil }
            switch ask(path) {
            case .answered(let pid): return .running(pid: pid)
            case .failed: return .running(pid: nil)
            case .refused: unlink(path)
            }
        }
        return nil
    }

    /// What asking the socket's owner gave.
    private enum Asked {
        /// It answered (its pid, `nil` if the answer was not one).
        case answered(Int32?)
        /// Nobody listens: the socket was left behind.
        case refused
        /// Something else went wrong (someone listens, perhaps).
        case failed
    }

    /// Connects to `path`, sends the request and reads the answer (waiting at most a second).
    private static func ask(_ path: String) -> Asked {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed }
        defer { close(fd) }
        guard withAddress(path, { connect(fd, $0, $1) }) == 0 else { return errno == ECONNREFUSED ? .refused : .failed }
        var wait = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let line = Array((SingleInstance.request + "\n").utf8)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return .answered(nil) }
        let answer = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return .answered(SingleInstance.pid(inAnswer: answer))
    }

    /// Calls `body` with `path` as a `sockaddr_un`.
    static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// The first instance's listening socket: a thread answers each second instance and pushes
/// an `SDL_USEREVENT` (`InstanceSocket.showRequestedCode`) for the loop. The socket file goes
/// when this does (`close`); one left by a killed keyboard is removed by the next claim.
final class InstanceListener {
    private let fd: Int32
    private let path: String
    private var closed = false

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    /// Starts answering (once SDL's events run: the thread pushes into SDL's queue).
    func start() {
        var thread = pthread_t()
        let argument = UnsafeMutableRawPointer(bitPattern: Int(fd) + 1)
        if pthread_create(&thread, nil, instanceListenerMain, argument) == 0 { pthread_detach(thread) }
    }

    /// Stops listening and removes the socket file.
    func close() {
        guard !closed else { return }
        closed = true
        unlink(path)
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }
}

/// The listener thread: accepts, reads the request, answers with our pid and pushes the
/// event; ends when the socket is shut down. A plain function: it touches nothing but its
/// descriptor and SDL's thread-safe `SDL_PushEvent`.
private func instanceListenerMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let fd = Int32(Int(bitPattern: argument) - 1)
    while true {
        let client = accept(fd, nil, nil)
        if client < 0 {
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        var wait = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        let line = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init) : nil
        if line == SingleInstance.request {
            let answer = Array((SingleInstance.answer(pid: getpid()) + "\n").utf8)
            _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var event = SDL_Event()
            event.user.type = SDL_USEREVENT.rawValue
            event.user.code = InstanceSocket.showRequestedCode
            SDL_PushEvent(&event)
        }
        close(client)
    }
}
