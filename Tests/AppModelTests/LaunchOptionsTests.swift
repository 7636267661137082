import AppModel
import KeyboardCore
import Testing

/// `HeeApp [--trace] [--mute] [--size WxH] [--assets DIR] [--help] [--version]`.
@Suite("LaunchOptions.parse")
struct LaunchOptionsTests {
    static func options(_ change: (inout LaunchOptions) -> Void) -> LaunchOptions.Command {
        var options = LaunchOptions()
        change(&options)
        return .run(options)
    }

    static func usageError(_ arguments: [String]) -> LaunchOptions.UsageError? {
        do {
            _ = try LaunchOptions.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaults() throws {
        let command = try LaunchOptions.parse([])
        guard case .run(let options) = command else {
            Issue.record("expected .run, got \(command)")
            return
        }
        #expect(!options.trace)
        #expect(!options.mute)
        // No overrides: the saved settings (or their defaults) decide.
        #expect(options.windowSize == nil && options.volume == nil && options.limit == nil && options.language == nil)
        #expect(options.configuration(settings: Settings(), environment: [:]).windowSize == Size(width: 480, height: 800))
        #expect(options.assetsDirectory == nil)
    }

    @Test func everyFlag() throws {
        let traced = Self.options { $0.trace = true }
        #expect(try LaunchOptions.parse(["--trace"]) == traced)
        let muted = Self.options { $0.mute = true }
        #expect(try LaunchOptions.parse(["--mute"]) == muted)
        let assets = Self.options { $0.assetsDirectory = "/opt/hee" }
        #expect(try LaunchOptions.parse(["--assets", "/opt/hee"]) == assets)
        #expect(try LaunchOptions.parse(["--assets=/opt/hee"]) == assets)
        let everything = Self.options {
            $0.mute = true
            $0.trace = true
            $0.windowSize = Size(width: 640, height: 960)
            $0.assetsDirectory = "a b"
        }
        #expect(try LaunchOptions.parse(["--mute", "--size", "640x960", "--trace", "--assets", "a b"]) == everything)
    }

    @Test(arguments: [["--size=800x600"], ["--size", "800x600"], ["--size", "800X600"]])
    func sizeBothSpellings(arguments: [String]) throws {
        let expected = Self.options { $0.windowSize = Size(width: 800, height: 600) }
        #expect(try LaunchOptions.parse(arguments) == expected)
    }

    @Test func sizeAtTheMinimumIsAccepted() throws {
        let minimum = KeyboardLayout.minimumWindowSize
        let text = "\(Int(minimum.width))x\(Int(minimum.height))"
        let expected = Self.options { $0.windowSize = minimum }
        #expect(try LaunchOptions.parse(["--size", text]) == expected)
    }

    @Test func lastSizeWins() throws {
        let expected = Self.options { $0.windowSize = Size(width: 1024, height: 1400) }
        #expect(try LaunchOptions.parse(["--size", "800x600", "--size=1024x1400"]) == expected)
    }

    @Test(arguments: [["--help"], ["-h"], ["--trace", "--help"], ["--help", "--trace"]])
    func help(arguments: [String]) throws {
        #expect(try LaunchOptions.parse(arguments) == .help)
    }

    /// A typo next to --help or --version is still reported (every argument is checked).
    @Test(arguments: [["--help", "--bogus"], ["--version", "--bogus"], ["--help", "--size", "foo"]])
    func helpDoesNotHideErrors(arguments: [String]) {
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(arguments) }
    }

    @Test(arguments: ["+480x+800", "480x 800", "-480x800", "480x800x1"])
    func sizeTakesDigitsOnly(text: String) {
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--size", text]) }
    }

    @Test(arguments: [["--version"], ["--mute", "--version"]])
    func version(arguments: [String]) throws {
        #expect(try LaunchOptions.parse(arguments) == .version)
        #expect(!LaunchOptions.version.isEmpty)
    }

    @Test func usageMentionsEveryFlag() {
        for flag in ["--trace", "--mute", "--size", "--assets", "--help", "--version"] {
            #expect(LaunchOptions.usage.contains(flag))
        }
    }

    @Test("errors are one-line UsageErrors naming the problem", arguments: [
        (["--bogus"], "--bogus"),
        (["-x"], "-x"),
        (["input.txt"], "input.txt"),
        (["--size"], "--size"),
        (["--assets"], "--assets"),
        (["--assets="], "--assets"),
        (["--trace=yes"], "--trace"),
        (["--mute=1"], "--mute"),
        (["--help=1"], "--help"),
        (["--size=480"], "480"),
        (["--size", "480by800"], "480by800"),
        (["--size", "x800"], "x800"),
        (["--size", "480x"], "480x"),
        (["--size", "480x800x2"], "480x800x2"),
        (["--size", "480.5x800"], "480.5x800"),
        (["--size", " 480x800"], "480x800"),
        (["--size", "--trace"], "--trace"),
        (["--size", "200x800"], "200x800"),
        (["--size", "480x300"], "480x300"),
        (["--size", "-480x800"], "-480x800"),
        (["--size", "20000x800"], "20000x800"),
        (["--trace", "--nope"], "--nope"),
    ])
    func usageErrors(arguments: [String], mentioned: String) throws {
        let error = try #require(Self.usageError(arguments), "\(arguments) was accepted")
        #expect(!error.message.isEmpty)
        #expect(!error.message.contains("\n"))
        #expect(error.message.contains(mentioned), "\(error.message)")
        #expect(error.description == error.message)
    }

    @Test func belowMinimumNamesTheMinimum() throws {
        let minimum = KeyboardLayout.minimumWindowSize
        let error = try #require(Self.usageError(["--size", "\(Int(minimum.width))x\(Int(minimum.height) - 1)"]))
        #expect(error.message.contains("\(Int(minimum.width))x\(Int(minimum.height))"))
        #expect(Self.usageError(["--size", "\(Int(minimum.width) - 1)x\(Int(minimum.height))"]) != nil)
    }
}

/// An argument shown in a usage error has its control characters escaped, so the error stays
/// one line and an argument cannot send the terminal an escape sequence (`HeeApp $'\e[2J'`);
/// found by the launch-options fuzz target (issue 24).
@Suite("LaunchOptions usage errors")
struct LaunchOptionsMessageTests {
    @Test(arguments: [
        (["--bogus\n--trace"], #"unknown option '--bogus\n--trace'"#),
        (["\u{1B}[2J"], #"unexpected argument '\u001b[2J': HeeApp takes only options"#),
        (["-\u{1B}[2J"], #"unknown option '-\u001b[2J'"#),
        (["--volume", "5\u{7F}\u{85}"], #"--volume expects a whole number from 0 to 100, not '5\u007f\u0085'"#),
        (["--lang", "ja\r\t\u{2028}"], #"--lang expects ja or en, not 'ja\r\t\u2028'"#),
        (["--replay", "a\nb", "--replay", "c"], #"--replay is given twice ('a\nb' and 'c'); one file only"#),
        (["--size", "へぇ\u{9B}"], #"--size expects WxH in points, e.g. 480x800, not 'へぇ\u009b'"#),
    ])
    func argumentsAreShownEscaped(arguments: [String], message: String) throws {
        let error = try #require(LaunchOptionsTests.usageError(arguments))
        #expect(error.message == message)
        #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}

/// A word that is not an option is called that, and a number out of range names the range.
@Suite("LaunchOptions messages for words and ranges")
struct LaunchOptionsWordingTests {
    @Test(arguments: [
        (["positional"], "unexpected argument 'positional': HeeApp takes only options"),
        (["--bench-presses", "0"], "--bench-presses expects a whole number from 1 to 1000000, not '0'"),
        (["--bench-presses", "5", "--bench-interval", "-1"], "--bench-interval expects a whole number from 0 to 1000000, not '-1'"),
    ])
    func messages(arguments: [String], message: String) throws {
        #expect(try #require(LaunchOptionsTests.usageError(arguments)).message == message)
    }
}
