import AppModel
import KeyboardCore
import Testing

/// Behaviour added after review: recorded modifiers, coordinate bounds, record ≠ replay.
struct ReviewFixTests {
    @Test func keyRecordsKeepTheirModifiers() throws {
        let records = try InputRecord.parse(lines: #"{"t":1,"type":"keydown","key":"A","mod":64}"#)
        #expect(records.first?.mod == 64)
        let again = try InputRecord.parse(lines: records[0].jsonLine)
        #expect(again == records)
    }

    @Test(arguments: [#"{"t":1,"type":"mousedown","x":3e9,"y":5}"#, #"{"t":1,"type":"mousemotion","x":1,"y":-1e20}"#,
                      #"{"t":1,"type":"mousemotion","x":1,"y":1,"buttons":-1}"#, #"{"t":1,"type":"keydown","key":"A","mod":70000}"#])
    func outOfRangeValuesAreRefused(line: String) {
        #expect(throws: InputRecord.ParseError.self) { try InputRecord.parse(lines: line) }
    }

    @Test func recordingOverTheReplayIsRefused() {
        #expect(throws: LaunchOptions.UsageError.self) { try LaunchOptions.parse(["--record", "f.jsonl", "--replay", "f.jsonl"]) }
        #expect((try? LaunchOptions.parse(["--record", "out.jsonl", "--replay", "in.jsonl"])) != nil)
    }
}
