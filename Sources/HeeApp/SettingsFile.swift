#if canImport(Glibc)
import Glibc
#endif
import KeyboardCore

/// `settings.json` in the XDG config directory: loaded at start, saved atomically.
///
/// The file stays the user's: a save rewrites only the fields the app changed and keeps
/// every member it does not know; nothing is written when nothing changed; a symbolic link
/// (a dotfiles manager's) stays a link and its target is replaced, keeping the target's
/// permissions; a corrupt file is set aside under a name no earlier one holds.
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

    /// The saved settings, or the defaults when there is no file (`document` `nil`). A
    /// corrupt or unreadable file is moved aside (see `setAside`) with a one-line warning.
    func load() -> (settings: Settings, document: SettingsDocument?) {
        guard let path else { return (Settings(), nil) }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path)
        } catch {
            if error.code == ENOENT { return (Settings(), nil) }
            setAside(path, reason: error.reason)
            return (Settings(), nil)
        }
        do {
            let document = try SettingsDocument(parsing: bytes)
            return (try document.settings(), document)
        } catch {
            setAside(path, reason: error.message)
            return (Settings(), nil)
        }
    }

    /// Moves the file that `path` names (the link's target, when it is a symbolic link, so
    /// the link stays) to `NAME.bad` beside it, or `NAME.bad.2`, `.bad.3`, … when that name
    /// is taken: an earlier bad file is never overwritten.
    private func setAside(_ path: String, reason: String) {
        if let file = FileSystem.resolvingSymbolicLinks(path), let bad = FileSystem.moveAside(file, suffix: ".bad") {
            Console.error("\(Console.program): warning: \(path): \(reason); moved it to \(bad) and using the defaults")
        } else {
            Console.error("\(Console.program): warning: \(path): \(reason); using the defaults")
        }
    }

    /// Saves `settings` if they differ from `loaded` (or there was no usable file): the fields
    /// that changed are written into the file as it is now, every other member kept. The
    /// file that a symbolic link names is replaced atomically (a temporary file beside it,
    /// fsync, rename), with that file's permissions. Failures are a one-line warning: the app
    /// still quits normally.
    func save(_ settings: Settings, loaded: Settings, document: SettingsDocument?) {
        guard let path, document == nil || settings != loaded else { return }
        guard let target = FileSystem.resolvingSymbolicLinks(path) else {
            Console.error("\(Console.program): warning: cannot save settings to \(path): too many symbolic links")
            return
        }
        // The file as it is now (edited since launch, perhaps): the changes go on top of it.
        var current = SettingsDocument()
        var changedSince: Settings?
        if let bytes = try? FileSystem.readBytes(target) {
            if let parsed = try? SettingsDocument(parsing: bytes) {
                if settings == loaded { return }  // it is there and nothing changed
                current = parsed
                changedSince = loaded
            } else {
                setAside(path, reason: "not valid settings any more")
            }
        }
        current.update(from: changedSince, to: settings)
        do {
            if target == path { try FileSystem.makeDirectories(AssetLocator.parentDirectory(of: path)) }
            var fileSystem = PosixFileSystem(permissions: FileSystem.permissions(of: target) ?? 0o600)
            try AtomicFileWriter.write(current.encoded, to: target, using: &fileSystem)
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

    /// The permission bits new files get (the file they replace keeps its own this way).
    var permissions: mode_t = 0o600

    private func fail(_ call: String, _ path: String) -> Failure {
        Failure(call: call, path: path, reason: String(cString: strerror(errno)))
    }

    mutating func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail("open", path) }
        defer { close(fd) }
        // open's mode is filtered by the umask; the file it replaces had exactly these bits.
        guard fchmod(fd, permissions) == 0 else { throw fail("fchmod", path) }
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
