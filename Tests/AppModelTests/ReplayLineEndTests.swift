import AppModel
import KeyboardCore
import Testing

/// Issue 11, item 7: replay files written on Windows (CR LF line ends, perhaps a byte order
/// mark) read exactly like the same file with LF line ends.
@Suite("Replay files with CR LF line ends")
struct ReplayLineEndTests {
    static let lines = [
        "# a comment",
        #"{"t":100,"type":"mousedown","x":240,"y":100}"#,
        "",
        #"{"t":150,"type":"mouseup","x":240,"y":100}"#,
        "   ",
        #"{"t":200,"type":"textinput","text":"a\r\nb"}"#,
        #"{"t":300,"type":"keydown","key":"Backspace","mod":64}"#,
    ]

    @Test func crlfReadsLikeLF() throws {
        let lf = try InputRecord.parse(lines: Self.lines.joined(separator: "\n") + "\n")
        let crlf = try InputRecord.parse(lines: Self.lines.joined(separator: "\r\n") + "\r\n")
        #expect(lf.count == 4)
        #expect(crlf == lf)
        // An escaped CR LF inside a string stays text.
        #expect(crlf[2].text == "a\r\nb")
    }

    @Test func mixedLineEndsAndNoFinalLineEnd() throws {
        let lf = try InputRecord.parse(lines: Self.lines.joined(separator: "\n"))
        let mixed = Self.lines.enumerated().map { $0.offset % 2 == 0 ? $0.element + "\r\n" : $0.element + "\n" }.joined()
        // The last line ends with CR LF, one Character in Swift: drop it to end without a line end.
        #expect(try InputRecord.parse(lines: String(mixed.dropLast())) == lf)
    }

    @Test func aByteOrderMarkBeforeTheFirstLineIsDropped() throws {
        let lf = try InputRecord.parse(lines: Self.lines.joined(separator: "\n"))
        #expect(try InputRecord.parse(lines: "\u{FEFF}" + Self.lines.joined(separator: "\r\n")) == lf)
    }

    @Test func errorsNameTheSameLineAsWithLF() {
        let broken = [#"{"t":100,"type":"mousedown","x":240,"y":100}"#, "", #"{"t":90,"type":"mouseup","x":1,"y":1}"#]
        for separator in ["\n", "\r\n"] {
            #expect(throws: InputRecord.ParseError.self) { try InputRecord.parse(lines: broken.joined(separator: separator)) }
            do {
                _ = try InputRecord.parse(lines: broken.joined(separator: separator))
            } catch {
                #expect(error.line == 3, "separator \(separator.debugDescription)")
            }
        }
    }
}
