#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import HeeAnthy
import KeyboardCore
import Testing

/// The real Anthy (Debian's libanthy1 and anthy-common's dictionary) behind the core's
/// protocol. Anthy's state is process-wide and not thread-safe, so the tests run one at a
/// time; those that need a fresh Anthy (a failed start, the first-use cost) run in a child
/// process.
@Suite("AnthyConverter (real Anthy)", .serialized)
struct AnthyConverterTests {
    /// A HOME for Anthy's lock file, so the tests never write into the real one (one
    /// directory for every run: it only ever holds `.anthy/lock-file_default`).
    static let home: String = {
        let path = NSTemporaryDirectory() + "hee-anthy-tests"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Warnings a converter printed.
    final class Warnings: @unchecked Sendable {
        var lines: [String] = []
    }

    static func converter(_ warnings: Warnings = Warnings()) -> AnthyConverter {
        AnthyConverter(overrides: [("HOME", home)]) { warnings.lines.append($0) }
    }

    /// Types `reading` on a pad through `converter`, one kana key per character (the keys'
    /// own rules are the core's tests).
    static func type(_ reading: String, on pad: inout KanaPad, _ converter: inout AnthyConverter) {
        for (index, kana) in reading.enumerated() {
            let key = KanaKey(tap: String(kana), left: nil, up: nil, right: nil, down: nil)
            _ = pad.handle(.kanaKey(key, .tap, touchDown: .milliseconds(200 * index)),
                           at: .milliseconds(200 * index + 40), converter: &converter)
        }
    }

    @Test func nihongoConvertsTo日本語() {
        let warnings = Warnings()
        let converter = Self.converter(warnings)
        let segments = converter.convert("にほんご")
        #expect(segments.map(\.reading) == ["にほんご"])
        #expect(segments.first?.candidates.first == "日本語")
        #expect(converter.state == .ready)
        #expect(converter.version == "0.4")
        #expect(warnings.lines.isEmpty)
    }

    /// にほんご typed on the pad with its own keys (な←, は↓, わ↑, か↓ and ゛), then 日本語
    /// tapped in the candidate bar.
    @Test func nihongoTypedOnThePadAndCommittedByTappingIt() throws {
        var converter = Self.converter()
        var pad = KanaPad()
        let strokes: [(String, FlickRelease)] = [("な", .flick(.left)), ("は", .flick(.down)), ("わ", .flick(.up)), ("か", .flick(.down))]
        for (index, (id, release)) in strokes.enumerated() {
            _ = pad.handle(.kanaKey(try #require(KanaKey.standard(id)), release, touchDown: .milliseconds(200 * index)),
                           at: .milliseconds(200 * index + 60), converter: &converter)
        }
        _ = pad.handle(.modifierKey(.center), at: .seconds(1), converter: &converter)
        #expect(pad.composition.reading == "にほんご")
        let index = try #require(pad.composition.candidates.firstIndex { $0.text == "日本語" })
        let effects = pad.handle(.candidate(index), at: .seconds(2), converter: &converter)
        #expect(effects.first == .commit("日本語"))
        #expect(pad.composition.isEmpty)
    }

    @Test func aSentenceConvertsAsThreeSegments() {
        var converter = Self.converter()
        let segments = converter.convert("きょうはいいてんきですね")
        #expect(segments.count >= 3)
        #expect(segments.map(\.reading).joined() == "きょうはいいてんきですね")
        #expect(segments.map { $0.candidates.first ?? "" } == ["今日は", "いい", "天気ですね"])
        var pad = KanaPad()
        Self.type("きょうはいいてんきですね", on: &pad, &converter)
        #expect(pad.composition.candidates.first?.text == "今日はいい天気ですね")
        #expect(pad.composition.candidates.dropFirst().first == KanaCandidate(text: "今日は", readingLength: 4))
    }

    @Test func punctuationAndLongVowels() {
        let converter = Self.converter()
        #expect(converter.convert("、").first?.candidates.contains("、") == true)
        #expect(converter.convert("へぇ").first?.candidates.first == "へぇ")
        #expect(converter.convert("らーめん").first?.candidates.first == "ラーメン")
        #expect(converter.convert("").isEmpty)
        // Anthy spells 〜 (U+301C) as ~ in its segments; the bar still gets candidates.
        let wave = converter.convert("へぇ〜")
        #expect(wave.map(\.reading) == ["へぇ", "~"])
        #expect(KanaCandidate.list(for: "へぇ〜", segments: wave).first == KanaCandidate(text: "へぇ〜", readingLength: 3))
    }

    /// A library that cannot be loaded: one warning naming it, then kana without candidates.
    @Test func missingLibraryIsOneWarning() {
        let warnings = Warnings()
        var converter = AnthyConverter(soname: "libanthy-not-here.so.1") { warnings.lines.append($0) }
        #expect(converter.convert("にほんご").isEmpty)
        #expect(converter.convert("にほんご").isEmpty)
        #expect(converter.prepare() == false)
        #expect(warnings.lines.count == 1)
        #expect(warnings.lines.first?.hasPrefix("no kana-kanji conversion (the kana pad types kana without candidates): cannot load libanthy-not-here.so.1: ") == true)
        var pad = KanaPad()
        Self.type("にほんご", on: &pad, &converter)
        #expect(pad.composition.reading == "にほんご")
        #expect(pad.composition.candidates.isEmpty)
        #expect(pad.handle(.returnKey, at: .seconds(5), converter: &converter).first == .commit("にほんご"))
    }

    /// The end of a child process of these tests: status 0 and "ok" on stdout when `failure`
    /// is `nil`, else status 1 and `failure` (Swift Testing 6.3.1 hands the parent garbage for
    /// an empty stdout, so there is always a line). `_exit`: a sanitizer build's at-exit leak
    /// check has no business in the child (and cannot run after `setuid`).
    static func finish(_ failure: String?) -> Never {
        print(failure ?? "ok")
        fflush(nil)  // every stream: stdout here
        _exit(failure == nil ? 0 : 1)
    }

    /// What a child process printed, as text.
    static func output(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    }

    /// A dictionary that cannot be read (anthy-common missing): the one warning names it, and
    /// Anthy prints nothing of its own. In a child process: a failed start stays in Anthy's
    /// process-wide state.
    @Test func missingDictionaryIsOneWarning() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            // Anthy's own stderr lines would land in this file.
            let stderrFile = AnthyConverterTests.home + "/stderr-\(getpid())"
            let fd = open(stderrFile, O_RDWR | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0, dup2(fd, 2) == 2 else { AnthyConverterTests.finish("cannot redirect stderr") }
            var lines: [String] = []
            let converter = AnthyConverter(overrides: [("HOME", AnthyConverterTests.home), ("DIC_FILE", "/nonexistent/anthy.dic")]) {
                lines.append($0)
            }
            let empty = converter.convert("にほんご").isEmpty && converter.convert("か").isEmpty
            let printed = lseek(fd, 0, SEEK_END)
            unlink(stderrFile)
            let reason = "no kana-kanji conversion (the kana pad types kana without candidates): "
                + "Anthy cannot read its dictionary /nonexistent/anthy.dic (Debian package anthy-common): No such file or directory"
            AnthyConverterTests.finish(empty && lines == [reason] && converter.state != .ready && printed == 0 ? nil
                                       : "empty \(empty), warnings \(lines), state \(converter.state), \(printed) bytes on stderr")
        }
        #expect(Self.output(result) == "ok\n")
    }

    /// Anthy reads the password database and would crash on a uid without an entry: the
    /// converter checks first. (Root only: the child process takes an unknown uid.)
    @Test(.enabled(if: getuid() == 0)) func uidWithoutPasswordEntryIsOneWarning() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var uid: uid_t = 54_321
            while getpwuid(uid) != nil { uid += 1 }
            guard setgid(uid) == 0, setuid(uid) == 0 else { AnthyConverterTests.finish("cannot become uid \(uid)") }
            var lines: [String] = []
            let converter = AnthyConverter(overrides: [("HOME", "/nonexistent")]) { lines.append($0) }
            let empty = converter.convert("にほんご").isEmpty
            let reason = "no kana-kanji conversion (the kana pad types kana without candidates): "
                + "Anthy needs a password database entry for uid \(uid)"
            AnthyConverterTests.finish(empty && lines == [reason] ? nil : "empty \(empty), warnings \(lines)")
        }
        #expect(Self.output(result) == "ok\n")
    }

    /// What Anthy costs (figures for the benchmark and the report; nothing is asserted on
    /// time): the first use in a fresh process (library, dictionary, context, first
    /// conversion) and then per conversion, 20 rounds over the readings typed kana by kana.
    @Test func measuredCosts() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let clock = ContinuousClock()
            let converter = AnthyConverter(overrides: [("HOME", AnthyConverterTests.home)]) { print($0) }
            let start = clock.now
            guard converter.prepare() else { AnthyConverterTests.finish("Anthy did not load") }
            let load = clock.now - start
            let first = clock.measure { _ = converter.convert("にほんご") }
            let sentences = ["にほんご", "きょうはいいてんきですね", "わたしのなまえはなかのです", "へぇ"]
            let prefixes = sentences.flatMap { sentence in (1...sentence.count).map { String(sentence.prefix($0)) } }
            var costs: [Duration] = []
            for _ in 0..<20 {
                for reading in prefixes { costs.append(clock.measure { _ = converter.convert(reading) }) }
            }
            costs.sort()
            func ms(_ d: Duration) -> String { String(format: "%.3f", d.seconds * 1000) }
            let long = String(repeating: "きょうはいいてんきですね", count: 10)
            let longCost = clock.measure { _ = converter.convert(long) }
            print("anthy load \(ms(load)) ms; first conversion \(ms(first)) ms; per conversion over \(costs.count) "
                  + "(prefixes of 4 readings): p50 \(ms(costs[costs.count / 2])) p99 \(ms(costs[costs.count * 99 / 100])) "
                  + "max \(ms(costs[costs.count - 1])) ms; a \(long.count)-kana reading \(ms(longCost)) ms")
            AnthyConverterTests.finish(nil)
        }
        let lines = Self.output(result)
        #expect(lines.hasPrefix("anthy load ") && lines.hasSuffix("\nok\n"))
        // The figures, for the report and `make bench` later (stderr: unbuffered).
        FileHandle.standardError.write(Data(("# " + (lines.split(separator: "\n").first ?? "") + "\n").utf8))
    }
}
