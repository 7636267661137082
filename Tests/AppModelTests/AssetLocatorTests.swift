import AppModel
import KeyboardCore
import Testing

/// Finding `fonts/` and `sounds/`, against an injected fake file system.
@Suite("AssetLocator")
struct AssetLocatorTests {
    /// The files the app needs, written out (fonts/ and sounds/ from scripts/make_assets.sh).
    static let required = [
        "fonts/MPLUS1-Regular.otf", "fonts/MPLUS1-Bold.otf", "fonts/MPLUS1Code-Medium.otf",
        "fonts/HeeLaurel.ttf", "sounds/hee.wav",
    ]

    /// Every required file below `dir`.
    static func complete(_ dir: String) -> Set<String> {
        Set(required.map { dir + "/" + $0 })
    }

    static func locator(_ files: Set<String>) -> AssetLocator {
        AssetLocator(fileExists: { files.contains($0) })
    }

    static func locate(_ files: Set<String>, explicit: String? = nil, executable: String,
                       cwd: String = "/home/u") -> Result<String, AssetLocator.MissingAsset> {
        Result { () throws(AssetLocator.MissingAsset) -> String in
            try locator(files).locate(explicit: explicit, executablePath: executable, workingDirectory: cwd)
        }
    }

    /// The path a failed look-up names, or `nil` if it succeeded.
    static func missingPath(_ result: Result<String, AssetLocator.MissingAsset>) -> String? {
        if case .failure(let error) = result { error.path } else { nil }
    }

    @Test func requiredFilesAreTheOnesTheAppLoads() {
        #expect(Set(AssetLocator.requiredFiles) == Set(Self.required))
    }

    @Test func explicitDirectoryWins() {
        let files = Self.complete("/opt/assets").union(Self.complete("/src/hee")).union(Self.complete("/home/u"))
        let result = Self.locate(files, explicit: "/opt/assets", executable: "/src/hee/.build/release/HeeApp")
        #expect(result == .success("/opt/assets"))
    }

    @Test(arguments: Self.required)
    func explicitDirectoryMissingFileIsReportedByFullPath(missing: String) {
        // Complete elsewhere: the explicit directory is the only one looked at.
        var files = Self.complete("/opt/assets").union(Self.complete("/src/hee")).union(Self.complete("/home/u"))
        files.remove("/opt/assets/" + missing)
        for explicit in ["/opt/assets", "/opt/assets/"] {
            let result = Self.locate(files, explicit: explicit, executable: "/src/hee/.build/release/HeeApp")
            #expect(Self.missingPath(result) == "/opt/assets/" + missing)
            if case .failure(let error) = result {
                #expect(error.description.contains("/opt/assets/" + missing))
            }
        }
    }

    @Test(arguments: [
        "/home/u/src/hee/.build/x86_64-unknown-linux-gnu/release/HeeApp",
        "/home/u/src/hee/.build/x86_64-unknown-linux-gnu/debug/HeeApp",
        "/home/u/src/hee/.build/release/HeeApp",
    ])
    func buildTreeFindsTheRepository(executable: String) {
        let files = Self.complete("/home/u/src/hee")
        #expect(Self.locate(files, executable: executable, cwd: "/tmp") == .success("/home/u/src/hee"))
    }

    @Test func buildTreeIsPreferredOverWorkingDirectory() {
        let files = Self.complete("/home/u/src/hee").union(Self.complete("/tmp/other"))
        let result = Self.locate(files, executable: "/home/u/src/hee/.build/x86_64-unknown-linux-gnu/release/HeeApp",
                                 cwd: "/tmp/other")
        #expect(result == .success("/home/u/src/hee"))
    }

    @Test(arguments: ["/usr/local", "/usr", "/opt/hee"])
    func installedCopyFindsShare(prefix: String) {
        let files = Self.complete(prefix + "/share/hee-keyboard")
        #expect(Self.locate(files, executable: prefix + "/bin/HeeApp", cwd: "/tmp")
                == .success(prefix + "/share/hee-keyboard"))
    }

    @Test func workingDirectoryIsTheLastResort() {
        let files = Self.complete("/home/u/checkout")
        #expect(Self.locate(files, executable: "/usr/bin/HeeApp", cwd: "/home/u/checkout") == .success("/home/u/checkout"))
    }

    @Test func nothingFoundNamesAFileInTheWorkingDirectory() {
        let result = Self.locate([], executable: "/usr/bin/HeeApp", cwd: "/home/u/x")
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(Self.required.map { "/home/u/x/" + $0 }.contains(error.path))
    }

    @Test func incompleteCandidateNamesItsMissingFile() {
        // The build tree has the fonts but not the clip: say which file is missing there.
        let files = Self.complete("/src/hee").subtracting(["/src/hee/sounds/hee.wav"])
        let result = Self.locate(files, executable: "/src/hee/.build/release/HeeApp", cwd: "/tmp")
        #expect(Self.missingPath(result) == "/src/hee/sounds/hee.wav")
    }
}
