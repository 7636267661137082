import AppModel
import KeyboardCore
import Testing

/// A disk with a page cache, for `AtomicFileWriter`: file data reaches the disk only when the
/// file is synced, directory changes (create, rename, unlink) only when the directory is
/// synced; a crash may have persisted any prefix of the unsynced directory changes, and any
/// file's unsynced data may or may not have reached the disk.
///
/// It can be told to crash at step k (the k-th call throws and nothing after it happens; a
/// crashing write leaves half its bytes in the cache), to fail a call with an errno at step
/// k (the writer goes on), or to run out of space after some bytes of a write.
struct SimulatedDisk: AtomicWriteFileSystem {
    struct Inode {
        var cached: [UInt8]
        var durable: [UInt8]
    }

    enum DirectoryChange {
        case link(String, Int)
        case rename(String, String)
        case unlink(String)
    }

    /// The process died at this call.
    struct Crash: Error {}
    /// A call failed with `errno`.
    struct Failure: Error, Equatable {
        var call: String
        var code: Int32
    }

    static let ENOSPC: Int32 = 28
    static let EIO: Int32 = 5
    static let ENOENT: Int32 = 2

    /// The one directory every file lives in.
    let directory: String
    var inodes: [Int: Inode] = [:]
    /// Names as the running system sees them, and as they are on the disk.
    var entries: [String: Int] = [:]
    var durableEntries: [String: Int] = [:]
    /// Directory changes not yet synced, oldest first.
    var pending: [DirectoryChange] = []
    /// Every call, as "write PATH", "sync PATH", "rename FROM TO", "syncDirectory DIR", "remove PATH".
    var log: [String] = []

    var crashAtStep: Int?
    var failAtStep: (step: Int, code: Int32)?
    /// A write stores at most this many bytes, then fails with ENOSPC.
    var spaceLeft: Int?
    private(set) var crashed = false
    private var step = 0

    init(directory: String, files: [String: [UInt8]] = [:]) {
        self.directory = directory
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let id = inodes.count
            inodes[id] = Inode(cached: bytes, durable: bytes)
            entries[name] = id
            durableEntries[name] = id
        }
    }

    /// Counts a call. Returns `false` when the process dies at this call (the caller does the
    /// part of it that happens, then throws `Crash`); throws when it is the one to fail.
    private mutating func begin(_ entry: String) throws -> Bool {
        guard !crashed else { throw Crash() }
        defer { step += 1 }
        if step == crashAtStep {
            crashed = true
            return false
        }
        log.append(entry)
        if let f = failAtStep, f.step == step { throw Failure(call: String(entry.prefix { $0 != " " }), code: f.code) }
        return true
    }

    mutating func write(_ bytes: [UInt8], to path: String) throws {
        func open() -> Int {
            if let id = entries[path] {
                inodes[id]!.cached = []
                return id
            }
            let id = (inodes.keys.max() ?? -1) + 1
            inodes[id] = Inode(cached: [], durable: [])
            entries[path] = id
            pending.append(.link(path, id))
            return id
        }
        guard try begin("write \(path)") else {
            let id = open()
            inodes[id]!.cached = Array(bytes.prefix(bytes.count / 2))
            throw Crash()
        }
        let id = open()
        if let space = spaceLeft, bytes.count > space {
            inodes[id]!.cached = Array(bytes.prefix(space))
            throw Failure(call: "write", code: Self.ENOSPC)
        }
        inodes[id]!.cached = bytes
    }

    mutating func sync(_ path: String) throws {
        guard try begin("sync \(path)") else { throw Crash() }
        guard let id = entries[path] else { throw Failure(call: "sync", code: Self.ENOENT) }
        inodes[id]!.durable = inodes[id]!.cached
    }

    mutating func rename(_ from: String, to: String) throws {
        guard try begin("rename \(from) \(to)") else { throw Crash() }
        guard let id = entries.removeValue(forKey: from) else { throw Failure(call: "rename", code: Self.ENOENT) }
        entries[to] = id
        pending.append(.rename(from, to))
    }

    mutating func syncDirectory(_ directory: String) throws {
        guard try begin("syncDirectory \(directory)") else { throw Crash() }
        if directory == self.directory {
            durableEntries = entries
            pending = []
        }
    }

    mutating func remove(_ path: String) {
        guard (try? begin("remove \(path)")) == true else { return }
        if entries.removeValue(forKey: path) != nil { pending.append(.unlink(path)) }
    }

    /// What `path` may hold after a power loss now: for every prefix of the unsynced
    /// directory changes that may have reached the disk, the file's synced data or (if the
    /// cache was written back) its cached data; `nil` when there is no such file.
    func possibleContentsAfterPowerLoss(of path: String) -> Set<[UInt8]?> {
        var result = Set<[UInt8]?>()
        for n in 0...pending.count {
            var names = durableEntries
            for change in pending.prefix(n) {
                switch change {
                case .link(let name, let id): names[name] = id
                case .rename(let from, let to): names[to] = names.removeValue(forKey: from)
                case .unlink(let name): names[name] = nil
                }
            }
            if let id = names[path], let inode = inodes[id] {
                result.insert(inode.durable)
                result.insert(inode.cached)
            } else {
                result.insert(nil)
            }
        }
        return result
    }

    /// What the running system sees at `path`.
    func contents(of path: String) -> [UInt8]? { entries[path].flatMap { inodes[$0]?.cached } }
}

@Suite("AtomicFileWriter")
struct AtomicFileWriterTests {
    static let directory = "/home/user/.config/hee-keyboard"
    static let path = directory + "/settings.json"
    static let temporary = path + ".tmp"
    static let old: [UInt8] = Array(#"{"volume": 80}"#.utf8) + [10]
    static let new: [UInt8] = Array(#"{"mute": true, "volume": 30, "limit": 20}"#.utf8) + [10]

    static func disk(existing: [UInt8]? = old) -> SimulatedDisk {
        SimulatedDisk(directory: directory, files: existing.map { [path: $0] } ?? [:])
    }

    static func describe(_ set: Set<[UInt8]?>) -> String {
        set.map { $0.map { "\($0.count) bytes \"\(String(decoding: $0, as: UTF8.self).prefix(20))\"" } ?? "no file" }
            .sorted().joined(separator: ", ")
    }

    @Test func temporaryFileIsBesideTheTarget() {
        #expect(AtomicFileWriter.temporaryPath(for: Self.path) == Self.path + ".tmp")
    }

    @Test func writesTheTemporaryFileSyncsItRenamesItAndSyncsTheDirectory() throws {
        var disk = Self.disk()
        try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk)
        #expect(disk.log == ["write \(Self.temporary)", "sync \(Self.temporary)",
                             "rename \(Self.temporary) \(Self.path)", "syncDirectory \(Self.directory)"])
        #expect(disk.contents(of: Self.path) == Self.new)
        #expect(disk.contents(of: Self.temporary) == nil)
        #expect(disk.possibleContentsAfterPowerLoss(of: Self.path) == [Self.new], "durable once written")
        #expect(disk.possibleContentsAfterPowerLoss(of: Self.temporary) == [nil])
    }

    @Test func firstSaveCreatesTheFile() throws {
        var disk = Self.disk(existing: nil)
        try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk)
        #expect(disk.contents(of: Self.path) == Self.new)
        #expect(disk.possibleContentsAfterPowerLoss(of: Self.path) == [Self.new])
    }

    @Test func aStaleTemporaryFileIsReplaced() throws {
        var disk = SimulatedDisk(directory: Self.directory,
                                 files: [Self.path: Self.old, Self.temporary: Array("garbage from a crash, longer than new".utf8)])
        try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk)
        #expect(disk.contents(of: Self.path) == Self.new)
        #expect(disk.contents(of: Self.temporary) == nil)
    }

    /// Steps of an undisturbed write (write, sync, rename, syncDirectory).
    static let steps = 4

    @Test("a crash at any step leaves the old file or the new one, whole", arguments: 0...steps)
    func crashAtStep(k: Int) throws {
        for existing in [Self.old, nil] as [[UInt8]?] {
            var disk = Self.disk(existing: existing)
            disk.crashAtStep = k
            do {
                try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk)
                #expect(k == Self.steps, "no crash at step \(k)")
            } catch is SimulatedDisk.Crash {
                #expect(k < Self.steps)
            }
            let possible = disk.possibleContentsAfterPowerLoss(of: Self.path)
            let allowed: Set<[UInt8]?> = [existing, Self.new]
            #expect(possible.isSubset(of: allowed), "crash at \(k): \(Self.describe(possible))")
            if k < 2 { #expect(possible == [existing], "crash at \(k) before the rename: \(Self.describe(possible))") }
            if k == Self.steps { #expect(possible == [Self.new], "after return: \(Self.describe(possible))") }
        }
    }

    @Test func diskFullLeavesTheOldFileAndRemovesTheTemporaryFile() throws {
        for space in [0, 1, Self.new.count / 2, Self.new.count - 1] {
            var disk = Self.disk()
            disk.spaceLeft = space
            #expect(throws: SimulatedDisk.Failure(call: "write", code: SimulatedDisk.ENOSPC)) {
                try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk)
            }
            #expect(disk.contents(of: Self.path) == Self.old, "space \(space)")
            #expect(disk.contents(of: Self.temporary) == nil, "temporary file left with space \(space)")
            #expect(disk.log.last == "remove \(Self.temporary)")
            #expect(!disk.log.contains { $0.hasPrefix("rename") }, "renamed a partial file")
            let possible = disk.possibleContentsAfterPowerLoss(of: Self.path)
            #expect(possible == [Self.old], "space \(space): \(Self.describe(possible))")
        }
    }

    @Test("a failing write, sync or rename leaves the old file and no temporary file", arguments: 0...2)
    func failureBeforeTheRenameCompletes(step: Int) throws {
        var disk = Self.disk()
        disk.failAtStep = (step, SimulatedDisk.EIO)
        #expect(throws: SimulatedDisk.Failure.self) { try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk) }
        #expect(disk.contents(of: Self.path) == Self.old)
        #expect(disk.contents(of: Self.temporary) == nil)
        #expect(disk.log.last == "remove \(Self.temporary)")
        #expect(disk.possibleContentsAfterPowerLoss(of: Self.path) == [Self.old])
    }

    @Test func failingDirectorySyncStillLeavesAWholeFile() throws {
        var disk = Self.disk()
        disk.failAtStep = (3, SimulatedDisk.EIO)
        #expect(throws: SimulatedDisk.Failure.self) { try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk) }
        #expect(disk.contents(of: Self.path) == Self.new)
        #expect(disk.contents(of: Self.temporary) == nil)
        let possible = disk.possibleContentsAfterPowerLoss(of: Self.path)
        #expect(possible.isSubset(of: [Self.old, Self.new]), "\(Self.describe(possible))")
    }

    /// A crash during the clean-up after a full disk: still the old file.
    @Test func crashWhileCleaningUpAfterAFullDisk() throws {
        var disk = Self.disk()
        disk.spaceLeft = 3
        disk.crashAtStep = 1  // the remove
        #expect(throws: SimulatedDisk.Failure.self) { try AtomicFileWriter.write(Self.new, to: Self.path, using: &disk) }
        #expect(disk.possibleContentsAfterPowerLoss(of: Self.path) == [Self.old])
        #expect(disk.contents(of: Self.path) == Self.old)
    }

    // MARK: The model catches unsafe writers (so the tests above can fail)

    /// Renames without syncing the data first.
    static func writeWithoutSync(_ bytes: [UInt8], to path: String, using fs: inout SimulatedDisk) throws {
        try fs.write(bytes, to: path + ".tmp")
        try fs.rename(path + ".tmp", to: path)
        try fs.syncDirectory(directory)
    }

    /// Overwrites the file in place.
    static func writeInPlace(_ bytes: [UInt8], to path: String, using fs: inout SimulatedDisk) throws {
        try fs.write(bytes, to: path)
        try fs.sync(path)
    }

    @Test func modelFlagsAWriterThatDoesNotSync() throws {
        var disk = Self.disk()
        try Self.writeWithoutSync(Self.new, to: Self.path, using: &disk)
        #expect(!disk.possibleContentsAfterPowerLoss(of: Self.path).isSubset(of: [Self.old, Self.new]))
    }

    @Test func modelFlagsAWriterThatWritesInPlace() throws {
        var disk = Self.disk()
        disk.crashAtStep = 0
        #expect(throws: SimulatedDisk.Crash.self) { try Self.writeInPlace(Self.new, to: Self.path, using: &disk) }
        #expect(!disk.possibleContentsAfterPowerLoss(of: Self.path).isSubset(of: [Self.old, Self.new]))
    }
}
