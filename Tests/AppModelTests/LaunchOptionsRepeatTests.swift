import AppModel
import KeyboardCore
import Testing

/// Flags that would be silently ignored are refused: a second replay or record file (only
/// one is used), and a benchmark interval without a benchmark. A value flag's last use still
/// wins, as before.
@Suite("LaunchOptions: repeated files, lone --bench-interval")
struct LaunchOptionsRepeatTests {
    @Test(arguments: [["--replay", "a", "--replay", "b"], ["--replay=a", "--replay=a"],
                      ["--record", "a", "--record", "b"], ["--record", "a", "--replay", "b", "--record", "c"]])
    func aSecondFileIsRefused(_ arguments: [String]) throws {
        let error = try #require(LaunchOptionsTouchTests.usageError(arguments))
        #expect(error.message.contains("given twice"))
        #expect(!error.message.contains("\n"))
    }

    @Test func aLoneBenchIntervalIsRefused() throws {
        let error = try #require(LaunchOptionsTouchTests.usageError(["--bench-interval", "5"]))
        #expect(error.message == "--bench-interval 5 needs --bench-presses N")
        let options = try LaunchOptionsTouchTests.run(["--bench-interval", "5", "--bench-presses", "10"])
        #expect(options.benchInterval == 5 && options.benchPresses == 10)
    }

    @Test func aValueFlagsLastUseStillWins() throws {
        #expect(try LaunchOptionsTouchTests.run(["--volume", "5", "--volume", "6"]).volume == 6)
        #expect(try LaunchOptionsTouchTests.run(["--replay", "a", "--record", "b"]).replayPath == "a")
    }
}
