import KeyboardCore
/// Finds the directory that holds `fonts/` and `sounds/`.
///
/// Looked for, in order: the `--assets` directory (only that one, when given); the
/// executable's directory and each of its parents (so `.build/release/HeeApp` finds the
/// source tree it was built from); `share/hee-keyboard` beside the executable's `bin`
/// directory (an installed copy); the working directory. File-system access is injected so
/// the rules are testable.
public struct AssetLocator: Sendable {
    /// Files that must exist below the assets directory.
    public static let requiredFiles = [
        "fonts/MPLUS1-Regular.otf", "fonts/MPLUS1-Bold.otf", "fonts/MPLUS1Code-Medium.otf",
        "fonts/HeeLaurel.ttf", "sounds/hee.wav",
    ]

    /// A missing asset: `path` is the file that was looked for.
    public struct MissingAsset: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var description: String { "missing asset: \(path)" }
    }

    let fileExists: @Sendable (String) -> Bool

    /// - Parameter fileExists: whether a regular file exists at a path.
    public init(fileExists: @escaping @Sendable (String) -> Bool) {
        self.fileExists = fileExists
    }

    /// The assets directory.
    /// - Parameters:
    ///   - explicit: the `--assets` value, if given.
    ///   - executablePath: absolute path of the running binary.
    ///   - workingDirectory: the current directory.
    /// - Throws: `MissingAsset` naming the first required file that is missing (below
    ///   `explicit` when given, otherwise below the best candidate).
    public func locate(explicit: String?, executablePath: String, workingDirectory: String) throws(MissingAsset) -> String {
        if let explicit {
            try check(explicit)
            return explicit
        }
        let candidates = Self.candidates(executablePath: executablePath, workingDirectory: workingDirectory)
        if let found = candidates.first(where: { dir in Self.requiredFiles.allSatisfy { fileExists(Self.join(dir, $0)) } }) {
            return found
        }
        // Name the missing file in the first candidate that has any of them, else the cwd.
        let best = candidates.first { dir in Self.requiredFiles.contains { fileExists(Self.join(dir, $0)) } } ?? workingDirectory
        try check(best)
        return best
    }

    private func check(_ dir: String) throws(MissingAsset) {
        for file in Self.requiredFiles where !fileExists(Self.join(dir, file)) {
            throw MissingAsset(path: Self.join(dir, file))
        }
    }

    static func candidates(executablePath: String, workingDirectory: String) -> [String] {
        var result: [String] = []
        var dir = parent(of: executablePath)
        while !dir.isEmpty {
            result.append(dir)
            if dir == "/" { break }
            dir = parent(of: dir)
        }
        let binParent = parent(of: parent(of: executablePath))
        if !binParent.isEmpty { result.append(join(binParent, "share/hee-keyboard")) }
        result.append(workingDirectory)
        return result
    }

    /// The directory part of `path` (`/a/b` → `/a`; `/a` → `/`).
    public static func parentDirectory(of path: String) -> String { parent(of: path) }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return path == "/" ? "" : "/" }
        return String(path[..<slash])
    }

    /// `dir` + `/` + `file`.
    public static func join(_ dir: String, _ file: String) -> String {
        dir.hasSuffix("/") ? dir + file : dir + "/" + file
    }
}
