#if canImport(Glibc)
import Glibc
#endif
import AppModel
import KeyboardCore

/// `settings.json` in the XDG config directory: loaded at start, saved atomically.
///
/// The file stays the user's: a save rewrites only the fields the app changed and keeps
/// every member it does not know; nothing is written when nothing changed; a symbolic link
/// (a dotfiles manager's) stays a link and its target is replaced, keeping the target's
/// permissions; a file that is not JSON (or larger than `sizeLimit`) is set aside under a
/// name no earlier one holds; a member with an invalid value is corrected for this run with
/// one warning, and the file is left as it is.
///
/// A path that names anything but a regular file (after links: a character or block
/// device such as `/dev/null`, a FIFO, a socket, a directory) is never read, renamed,
/// replaced or written: the defaults are used and nothing is saved (the dotfiles trick of
/// linking it to `/dev/null`). A character device is taken as meant and passes silently; any
/// other kind gets one warning. A file that exists but cannot be read (EACCES) is not corrupt:
/// one warning, the defaults, and it is never moved aside or overwritten. A save creates the
/// config directory (`XDG_CONFIG_HOME` or `~/.config`) and `hee-keyboard/` in it only when
/// the directory above them (`HOME`) exists.
struct SettingsFile: Sendable {
    /// The file's path, or `nil` when neither `XDG_CONFIG_HOME` nor `HOME` is usable.
    let path: String?
    /// The directory that must already exist before the app creates any below it (`HOME`,
    /// or the directory above `XDG_CONFIG_HOME`), and the warning when it does not.
    let base: (directory: String, missing: String)?
    /// The directories a first save creates under `base` (mode 0700, as XDG asks for a
    /// missing config directory), outermost first: the config directory, then `hee-keyboard`.
    let directoriesToCreate: [String]

    /// The largest settings file read, in bytes (1 MiB; settings are a few hundred bytes). A
    /// larger one is set aside like a corrupt one, by a rename, without being read.
    static let sizeLimit = 1 << 20

    /// What `load` found.
    struct Loaded {
        /// The settings to use: the file's, corrected where invalid, or the defaults.
        var settings: Settings
        /// The file's document, or `nil` when there was no usable file.
        var document: SettingsDocument?
        /// Whether settings may be saved at quit: `false` for a path that is not a regular
        /// file and for one that cannot be read.
        var savable: Bool
    }

    /// `$XDG_CONFIG_HOME/hee-keyboard/settings.json`, with `XDG_CONFIG_HOME` defaulting to
    /// `$HOME/.config` when unset, empty or relative (the XDG Base Directory rules).
    init(environment: [String: String]) {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            path = AssetLocator.join(xdg, "hee-keyboard/settings.json")
            var trimmed = xdg
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            let above = AssetLocator.parentDirectory(of: trimmed)
            base = (above.isEmpty ? "/" : above,
                    "settings not saved: XDG_CONFIG_HOME (\(xdg)) does not exist and neither does the directory above it")
            directoriesToCreate = [trimmed, AssetLocator.join(trimmed, "hee-keyboard")]
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            path = AssetLocator.join(home, ".config/hee-keyboard/settings.json")
            base = (home, "settings not saved: HOME (\(home)) does not exist")
            directoriesToCreate = [AssetLocator.join(home, ".config"), AssetLocator.join(home, ".config/hee-keyboard")]
        } else {
            path = nil
            base = nil
            directoriesToCreate = []
        }
    }

    private func warn(_ message: String) {
        Console.error("\(Console.program): warning: \(message)")
    }

    /// The saved settings, or the defaults when there is no usable file (`document` `nil`).
    /// A file that is not a JSON object, or is larger than `sizeLimit`, is moved aside (see
    /// `setAside`); invalid members are corrected; each case prints one warning line.
    func load() -> Loaded {
        guard let path else { return Loaded(settings: Settings(), document: nil, savable: true) }
        switch RegularFileRead.read(path, limit: Self.sizeLimit) {
        case .missing:
            return Loaded(settings: Settings(), document: nil, savable: true)
        case .notRegular(let kind):
            if kind != .characterDevice {
                warn("\(path) is \(kind.rawValue), not a regular file; using the defaults and saving nothing")
            }
            return Loaded(settings: Settings(), document: nil, savable: false)
        case .unreadable(let error):
            warn("cannot read \(path): \(error.reason); using the defaults and saving nothing")
            return Loaded(settings: Settings(), document: nil, savable: false)
        case .tooLarge(let size, let identity):
            setAside(path, identity: identity, reason: "larger than 1 MiB (\(size) bytes)")
            return Loaded(settings: Settings(), document: nil, savable: true)
        case .contents(let bytes, let identity):
            do {
                let document = try SettingsDocument(parsing: bytes)
                let (settings, corrections) = document.correctedSettings
                if !corrections.isEmpty {
                    warn("\(path): " + corrections.map(\.description).joined(separator: "; "))
                }
                return Loaded(settings: settings, document: document, savable: true)
            } catch {
                setAside(path, identity: identity, reason: error.message)
                return Loaded(settings: Settings(), document: nil, savable: true)
            }
        }
    }

    /// Moves the file that `path` names (the link's target, when it is a symbolic link, so
    /// the link stays) to `NAME.bad` beside it, or `NAME.bad.2`, `.bad.3`, … when that name
    /// is taken: an earlier bad file is never overwritten. Only the regular file that was
    /// read (`identity`) is moved: anything else found there now stays where it is.
    private func setAside(_ path: String, identity: FileSystem.FileIdentity, reason: String) {
        var info = stat()
        if let file = FileSystem.resolvingSymbolicLinks(path), lstat(file, &info) == 0,
           info.st_mode & S_IFMT == S_IFREG,
           FileSystem.FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) == identity,
           let bad = FileSystem.moveAside(file, suffix: ".bad") {
            warn("\(path): \(reason); moved it to \(bad) and using the defaults")
        } else {
            warn("\(path): \(reason); using the defaults")
        }
    }

    /// Saves `settings` if they differ from `loaded` (or there was no usable file): the fields
    /// that changed are written into the file as it is now, every other member kept. The
    /// file that a symbolic link names is replaced atomically (a temporary file beside it,
    /// fsync, rename), with that file's permissions; it is checked again first, and nothing
    /// that is not a regular file is ever replaced. The app's directory (and a missing
    /// `~/.config` or `XDG_CONFIG_HOME`) is created only under an existing directory. Failures are a one-line
    /// warning: the app still quits normally.
    func save(_ settings: Settings, loaded: Settings, document: SettingsDocument?) {
        guard let path, document == nil || settings != loaded else { return }
        guard let target = FileSystem.resolvingSymbolicLinks(path) else {
            warn("cannot save settings to \(path): too many symbolic links")
            return
        }
        // The file as it is now (edited since launch, perhaps): the changes go on top of it.
        var current = SettingsDocument()
        var changedSince: Settings?
        switch RegularFileRead.read(target, limit: Self.sizeLimit) {
        case .missing:
            break
        case .contents(let bytes, let identity):
            if let parsed = try? SettingsDocument(parsing: bytes) {
                if settings == loaded { return }  // it is there and nothing changed
                current = parsed
                changedSince = loaded
            } else {
                setAside(path, identity: identity, reason: "not valid settings any more")
            }
        case .tooLarge(let size, let identity):
            setAside(path, identity: identity, reason: "larger than 1 MiB (\(size) bytes)")
        case .notRegular(let kind):
            if kind != .characterDevice {
                warn("settings not saved: \(path) is \(kind.rawValue), not a regular file")
            }
            return
        case .unreadable(let error):
            warn("settings not saved: cannot read \(path): \(error.reason)")
            return
        }
        current.update(from: changedSince, to: settings)
        if target == path, !makeDirectories() { return }
        do {
            var fileSystem = PosixFileSystem(permissions: FileSystem.permissions(of: target) ?? 0o600)
            try AtomicFileWriter.write(current.encoded, to: target, using: &fileSystem)
        } catch {
            warn("cannot save settings to \(path): \(error)")
        }
    }

    /// Creates `directoriesToCreate` (mode 0700, as XDG asks) if `base` exists as a
    /// directory: at most the config directory and the app's, never a chain of directories
    /// under a `HOME` that does not exist. Otherwise, or when one cannot be made, one warning
    /// and `false`.
    private func makeDirectories() -> Bool {
        guard let base else { return false }
        var info = stat()
        guard stat(base.directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            warn(base.missing)
            return false
        }
        for directory in directoriesToCreate where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            warn("settings not saved: cannot create \(directory): \(String(cString: strerror(errno)))")
            return false
        }
        return true
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
        // Never follow a link or block on a FIFO at the temporary name; write only into a
        // regular file.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else { throw fail("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw fail("fstat", path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(call: "open", path: path, reason: "not a regular file") }
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

    /// Renames `from` over `to` unless `to` exists and is not a regular file (a device, a
    /// FIFO, a directory, a link put there since it was checked): those are never replaced.
    mutating func rename(_ from: String, to: String) throws {
        var info = stat()
        if lstat(to, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw Failure(call: "rename", path: to, reason: "not a regular file")
        }
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
