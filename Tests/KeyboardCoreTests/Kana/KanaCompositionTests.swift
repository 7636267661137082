import KeyboardCore
import Testing

/// The composition value: the reading, its candidates, the chosen one, commits.
@Suite("KanaComposition")
struct KanaCompositionTests {
    static let nihongo = [KanaCandidate(text: "日本語", readingLength: 4), KanaCandidate(text: "ニホンゴ", readingLength: 4)]

    @Test func editingTheReading() {
        var composition = KanaComposition()
        #expect(composition.isEmpty)
        #expect(composition.lastKana == nil)
        composition.append("に")
        composition.append("ほ")
        composition.replaceLast(with: "ぼ")
        #expect(composition.reading == "にぼ")
        #expect(composition.lastKana == "ぼ")
        #expect(composition.deleteBackward() == true)
        #expect(composition.deleteBackward() == true)
        #expect(composition.deleteBackward() == false)
        composition.replaceLast(with: "x")
        #expect(composition.isEmpty)
    }

    @Test func candidatesForAStaleReadingAreIgnored() {
        var composition = KanaComposition(reading: "にほんご")
        #expect(composition.setCandidates(Self.nihongo, for: "にほん") == false)
        #expect(composition.candidates.isEmpty)
        #expect(composition.setCandidates(Self.nihongo, for: "にほんご") == true)
        #expect(composition.candidates == Self.nihongo)
        composition.append("を")
        #expect(composition.candidates.isEmpty, "a changed reading drops them")
    }

    @Test func candidatesLongerThanTheReadingAreDropped() {
        var composition = KanaComposition(reading: "にほ")
        composition.setCandidates(Self.nihongo + [KanaCandidate(text: "二", readingLength: 1), KanaCandidate(text: "", readingLength: 0)], for: "にほ")
        #expect(composition.candidates == [KanaCandidate(text: "二", readingLength: 1)])
    }

    @Test func nextCandidateWrapsAndPreviousGoesBackToTheReading() {
        var composition = KanaComposition(reading: "にほんご")
        #expect(composition.selectNextCandidate() == false)
        composition.setCandidates(Self.nihongo, for: "にほんご")
        #expect(composition.displayText == "にほんご")
        #expect(composition.selectNextCandidate() == true)
        #expect(composition.displayText == "日本語")
        composition.selectNextCandidate()
        #expect(composition.displayText == "ニホンゴ")
        composition.selectNextCandidate()
        #expect(composition.selectedCandidate == 0)
        #expect(composition.selectPreviousCandidate() == true)
        #expect(composition.selectedCandidate == nil)
        #expect(composition.selectPreviousCandidate() == false)
    }

    @Test func backspaceDeselectsFirst() {
        var composition = KanaComposition(reading: "にほんご")
        composition.setCandidates(Self.nihongo, for: "にほんご")
        composition.selectNextCandidate()
        #expect(composition.deleteBackward() == true)
        #expect(composition.displayText == "にほんご")
        #expect(composition.candidates == Self.nihongo)
        composition.deleteBackward()
        #expect(composition.reading == "にほん")
    }

    @Test func commitGivesWhatIsShown() {
        var composition = KanaComposition(reading: "にほんご")
        #expect(composition.commit() == "にほんご")
        #expect(composition == KanaComposition())
        composition = KanaComposition(reading: "にほんご")
        composition.setCandidates(Self.nihongo, for: "にほんご")
        composition.selectNextCandidate()
        #expect(composition.commit() == "日本語")
        #expect(composition.isEmpty)
    }

    @Test func aFirstSegmentCandidateLeavesTheRest() {
        var composition = KanaComposition(reading: "きょうはいい")
        composition.setCandidates([KanaCandidate(text: "今日は", readingLength: 4)], for: "きょうはいい")
        composition.selectNextCandidate()
        #expect(composition.displayText == "今日はいい")
        #expect(composition.commitCandidate(at: 1) == nil)
        #expect(composition.commitCandidate(at: 0) == "今日は")
        #expect(composition.reading == "いい")
        #expect(composition.candidates.isEmpty)
        #expect(composition.selectedCandidate == nil)
    }

    /// The candidate bar built from segments: the whole sentence first, then the first
    /// segment's candidates.
    @Test func candidateListFromSegments() {
        var fake = FakeKanaKanjiConverter()
        let reading = "きょうはいいてんきですね"
        let list = KanaCandidate.list(for: reading, segments: fake.convert(reading))
        #expect(list == [
            KanaCandidate(text: "今日はいい天気ですね", readingLength: 12),
            KanaCandidate(text: "今日は", readingLength: 4),
            KanaCandidate(text: "きょうは", readingLength: 4),
            KanaCandidate(text: "京は", readingLength: 4),
        ])
        #expect(KanaCandidate.list(for: "にほんご", segments: fake.convert("にほんご")).map(\.text) == ["日本語", "にほんご", "ニホンゴ"])
        #expect(KanaCandidate.list(for: "にほんご", segments: []).isEmpty)
        // Segments that do not add up to the reading give nothing.
        #expect(KanaCandidate.list(for: "にほんご", segments: fake.convert("にほん")).isEmpty)
        // Segments are matched by length: an engine's own spelling of a segment (Anthy's ~ for
        // 〜) still stands for its part of the reading.
        let respelled = [KanaKanjiSegment(reading: "へぇ", candidates: ["へぇ"]), KanaKanjiSegment(reading: "~", candidates: [])]
        #expect(KanaCandidate.list(for: "へぇ〜", segments: respelled)
                == [KanaCandidate(text: "へぇ〜", readingLength: 3), KanaCandidate(text: "へぇ", readingLength: 2)])
        // Duplicates appear once; a segment without candidates joins as its reading.
        let odd = [KanaKanjiSegment(reading: "あ", candidates: ["亜", "亜"]), KanaKanjiSegment(reading: "い", candidates: [])]
        #expect(KanaCandidate.list(for: "あい", segments: odd)
                == [KanaCandidate(text: "亜い", readingLength: 2), KanaCandidate(text: "亜", readingLength: 1)])
    }
}
