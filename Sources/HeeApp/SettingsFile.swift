#if canImport(Glibc)
import Glibc
#endif
import KeyboardCore

/// `settings.json` in the XDG config directory: loaded at start, saved atomically.
struct SettingsFile: Sendable {
    /// The file's path, or `nil` when neither `XDG_CONFIG_HOME` nor `HOME` is usable.
    let path: String?

    /// `$XDG_CONFIG_HOME/hee-keyboard/settings.json`, with `XDG_CONFIG_HOME` defaulting to
    /// `$HOME/.config` when unset, empty or relative (the XDG Base Directory rules).
    init(environment: [String: String]) {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            path = AssetLocator.join(xdg, "hee-keyboard/settings.json")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            path = AssetLocator.join(home, ".config/hee-keyboard/settings.json")
        } else {
            path = nil
        }
    }

    /// The saved settings, or the defaults when there is no file. A corrupt or unreadable
    /// file is moved aside to `settings.json.bad` with a one-line warning.
    func load() -> Settings {
        guard let path else { return Settings() }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path)
        } catch {
            if error.code == ENOENT { return Settings() }
            setAside(path, reason: error.reason)
            return Settings()
        }
        do {
            return try Settings.decode(bytes)
        } catch {
            setAside(path, reason: error.message)
            return Settings()
        }
    }

    private func setAside(_ path: String, reason: String) {
        let bad = path + ".bad"
        if rename(path, bad) == 0 {
            Console.error("\(Console.program): warning: \(path): \(reason); moved it to \(bad) and using the defaults")
        } else {
            Console.error("\(Console.program): warning: \(path): \(reason); using the defaults")
        }
    }

    /// Writes `settings` atomically (temporary file, fsync, rename). Failures are a
    /// one-line warning: the app still quits normally.
    func save(_ settings: Settings) {
        guard let path else { return }
        let directory = AssetLocator.parentDirectory(of: path)
        do {
            try FileSystem.makeDirectories(directory)
            var fileSystem = PosixFileSystem()
            try AtomicFileWriter.write(settings.encoded, to: path, using: &fileSystem)
        } catch {
            Console.error("\(Console.program): warning: cannot save settings to \(path): \(error)")
        }
    }
}

/// `AtomicWriteFileSystem` on the real file system (POSIX calls).
struct PosixFileSystem: AtomicWriteFileSystem {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var path: String
        var reason: String
        var description: String { "\(call) \(path): \(reason)" }
    }

    private func fail(_ call: String, _ path: String) -> Failure {
        Failure(call: call, path: path, reason: String(cString: strerror(errno)))
    }

    mutating func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail("open", path) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("write", path)
            }
            offset += n
        }
    }

    mutating func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw fail("open", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw fail("fsync", path) }
    }

    mutating func rename(_ from: String, to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw fail("rename", to) }
    }

    mutating func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw fail("open", directory) }
        defer { close(fd) }
        _ = fsync(fd)  // some file systems refuse fsync on directories; the rename stands
    }

    mutating func remove(_ path: String) {
        unlink(path)
    }
}
