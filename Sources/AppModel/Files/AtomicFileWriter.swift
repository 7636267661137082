import KeyboardCore
/// The file operations an atomic replace needs, so the sequence can be tested with a
/// simulated file system that crashes between any two steps.
public protocol AtomicWriteFileSystem {
    /// Creates or truncates `path` and writes `bytes` to it.
    mutating func write(_ bytes: [UInt8], to path: String) throws
    /// Flushes `path`'s data to the disk (`fsync`).
    mutating func sync(_ path: String) throws
    /// Renames `from` to `to`, replacing `to` in one step (`rename(2)`).
    mutating func rename(_ from: String, to: String) throws
    /// Flushes the directory entry changes of `directory` (`fsync` on the directory).
    mutating func syncDirectory(_ directory: String) throws
    /// Removes `path` if it exists.
    mutating func remove(_ path: String)
}

/// Replaces a file so that a crash or a full disk at any moment leaves either the old file or
/// the new one, never a truncated mix: the bytes go to a temporary file beside it, are
/// flushed to the disk, and the temporary file is renamed over the old one.
public enum AtomicFileWriter {
    /// The temporary file's name for `path`.
    public static func temporaryPath(for path: String) -> String { path + ".tmp" }

    /// Writes `bytes` to `path` atomically.
    /// - Throws: whatever `fileSystem` throws; the temporary file is removed and `path` is
    ///   untouched.
    public static func write<F: AtomicWriteFileSystem>(_ bytes: [UInt8], to path: String, using fileSystem: inout F) throws {
        let temporary = temporaryPath(for: path)
        do {
            try fileSystem.write(bytes, to: temporary)
            try fileSystem.sync(temporary)
            try fileSystem.rename(temporary, to: path)
        } catch {
            fileSystem.remove(temporary)
            throw error
        }
        try fileSystem.syncDirectory(AssetLocator.parent(of: path))
    }
}
