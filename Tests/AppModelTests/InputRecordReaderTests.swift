import AppModel
import KeyboardCore
import Testing

/// `InputRecord.Reader`: a replay file read piece by piece, with a bound on a line's length,
/// so a file without line ends (`/dev/zero`) is refused instead of being loaded whole.
@Suite("InputRecord.Reader")
struct InputRecordReaderTests {
    static let file = "\u{FEFF}{\"t\":1,\"type\":\"keydown\",\"key\":\"A\"}\r\n# comment\n\n"
        + "{\"t\":2,\"type\":\"textinput\",\"text\":\"へぇ\"}\n{\"t\":3,\"type\":\"keyup\",\"key\":\"A\"}"

    /// Every split of the file into pieces (the byte order mark and a CR LF cut in two
    /// included) gives the records `parse` gives for the whole text.
    @Test func piecesOfAnySizeGiveTheSameRecords() throws {
        let whole = try InputRecord.parse(lines: Self.file)
        #expect(whole.count == 3)
        #expect(whole[1].text == "へぇ")
        let bytes = Array(Self.file.utf8)
        for size in 1...bytes.count {
            var reader = InputRecord.Reader()
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                try reader.consume(bytes[start..<end])
                start = end
            }
            #expect(try reader.finish() == whole, "pieces of \(size) bytes")
        }
    }

    /// A line longer than the limit is refused as soon as it passes the limit, naming its
    /// line, though no line end ever comes; one exactly at the limit is read.
    @Test func aLineLongerThanTheLimitIsRefusedWhileItIsRead() throws {
        let line = #"{"t":5,"type":"keydown","key":"A"}"#
        var fits = InputRecord.Reader(maximumLineLength: line.utf8.count)
        try fits.consume(Array((line + "\r\n" + line).utf8)[...])
        #expect(try fits.finish().count == 2)

        var reader = InputRecord.Reader(maximumLineLength: 100)
        try reader.consume(Array((line + "\n").utf8)[...])
        let zeros = [UInt8](repeating: 0, count: 60)
        try reader.consume(zeros[...])
        let error = #expect(throws: InputRecord.ParseError.self) { try reader.consume(zeros[...]) }
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("line is longer than") == true)
        var last = InputRecord.Reader(maximumLineLength: 10)
        #expect(throws: InputRecord.ParseError.self) { try last.consume(Array((line + "\n").utf8)[...]) }
    }

    /// The default limit is 64 MiB: far above a 10 MB paste, far below memory trouble.
    @Test func theDefaultLimitIs64MiB() {
        #expect(InputRecord.Reader().maximumLineLength == 64 * 1024 * 1024)
    }

    /// A whole-number timestamp too large for an integer is out of range, not of the wrong
    /// type; a fraction still has the wrong type.
    @Test func aHugeTimestampIsOutOfRange() {
        #expect(InputRecordTests.parseError(#"{"t":1e300,"type":"keydown","key":"A"}"#)?.message
                == "\"t\" is out of range")
        #expect(InputRecordTests.parseError(#"{"t":100000000000000000000000,"type":"keydown","key":"A"}"#)?.message
                == "\"t\" is out of range")
        #expect(InputRecordTests.parseError(#"{"t":1.5,"type":"keydown","key":"A"}"#)?.message
                == "\"t\" has the wrong type")
    }

    /// The records of `bytes` read in one piece, or the error.
    static func read(_ bytes: [UInt8]) -> Result<[InputRecord], InputRecord.ParseError> {
        Result { () throws(InputRecord.ParseError) in
            var reader = InputRecord.Reader()
            try reader.consume(bytes[...])
            return try reader.finish()
        }
    }

    /// A file of fewer than three bytes (too short for a byte order mark) is split into lines
    /// like any other: blank lines are skipped, a bad line is named by its own number. Before,
    /// such a file was taken as one line, line ends and all: "\n" was refused as not JSON
    /// (found by the replay-stream fuzz target, issue 24).
    @Test(arguments: ["", "\n", "\r\n", " \n", "\n\n", "#\n", "\t\r"])
    func aShortFileOfBlankLinesHasNoRecords(text: String) throws {
        #expect(try Self.read(Array(text.utf8)).get() == [], "\(text.debugDescription)")
    }

    @Test func aShortFileNamesItsBadLine() {
        guard case .failure(let error) = Self.read(Array("\n{".utf8)) else {
            Issue.record("\"\\n{\" was accepted")
            return
        }
        #expect(error.line == 2)
    }

    /// Only one byte order mark is dropped, before the first line; a second one is text, with
    /// or without a line end after the line (without, it was dropped too).
    @Test func aSecondByteOrderMarkIsText() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let line = Array(#"{"t":1,"type":"keydown","key":"A"}"#.utf8)
        #expect((try? Self.read(bom + line).get())?.count == 1)
        for end in [[], [UInt8(ascii: "\n")]] {
            guard case .failure(let error) = Self.read(bom + bom + line + end) else {
                Issue.record("two byte order marks accepted, line end \(end)")
                continue
            }
            #expect(error.line == 1)
        }
    }
}
