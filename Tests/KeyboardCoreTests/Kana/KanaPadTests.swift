import KeyboardCore
import Testing

/// The pad's effects: composition, candidates, commit paths, the converter, へぇ.
@Suite("KanaPad composition and commits")
struct KanaPadTests {
    /// Types にほんご with flicks and taps through `converter`: に (な left), ほ (は down),
    /// ん (わ up), ご (か down, then ゛).
    static func typeNihongo(_ pad: inout KanaPad, _ converter: inout FakeKanaKanjiConverter) -> [KanaPadEffect] {
        var effects: [KanaPadEffect] = []
        for (index, (key, direction)) in [("な", FlickDirection.left), ("は", .down), ("わ", .up), ("か", .down)].enumerated() {
            effects += pad.handle(.kanaKey(KanaKey.standard(key)!, .flick(direction), touchDown: ms(1000 + 200 * index)),
                                  at: ms(1060 + 200 * index), converter: &converter)
        }
        effects += pad.handle(.modifierKey(.center), at: ms(2000), converter: &converter)
        return effects
    }

    @Test func typingAsksForCandidatesAndShowsThem() {
        var pad = KanaPad()
        var converter = FakeKanaKanjiConverter()
        let effects = Self.typeNihongo(&pad, &converter)
        #expect(converter.asked == ["に", "にほ", "にほん", "にほんこ", "にほんご"])
        #expect(pad.reading == "にほんご")
        #expect(effects.last == .candidatesChanged([
            KanaCandidate(text: "日本語", readingLength: 4), KanaCandidate(text: "にほんご", readingLength: 4),
            KanaCandidate(text: "ニホンゴ", readingLength: 4),
        ], selected: nil))
        #expect(!effects.contains { if case .convert = $0 { true } else { false } }, "answered in place")
    }

    @Test func effectsWithoutAConverter() {
        var pad = KanaPad()
        #expect(pad.press("か", at: 1000) == [.compositionChanged("か"), .convert("か")])
        #expect(pad.handle(.conversion(reading: "か", segments: [KanaKanjiSegment(reading: "か", candidates: ["蚊", "か"])]), at: ms(1010))
                == [.candidatesChanged([KanaCandidate(text: "蚊", readingLength: 1), KanaCandidate(text: "か", readingLength: 1)], selected: nil)])
        #expect(pad.press("か", at: 1150) == [.compositionChanged("き"), .candidatesChanged([], selected: nil), .convert("き")])
        #expect(pad.handle(.conversion(reading: "か", segments: [KanaKanjiSegment(reading: "か", candidates: ["蚊"])]), at: ms(1200)).isEmpty,
                "a stale answer is ignored")
    }

    @Test func spaceSelectsTheNextCandidateAndReturnCommitsIt() {
        var pad = KanaPad()
        var converter = FakeKanaKanjiConverter()
        _ = Self.typeNihongo(&pad, &converter)
        let candidates = pad.composition.candidates
        #expect(pad.handle(.space, at: ms(3000)) == [.compositionChanged("日本語"), .candidatesChanged(candidates, selected: 0)])
        #expect(pad.handle(.space, at: ms(3100)) == [.compositionChanged("にほんご"), .candidatesChanged(candidates, selected: 1)])
        #expect(pad.handle(.undo, at: ms(3200)) == [.compositionChanged("日本語"), .candidatesChanged(candidates, selected: 0)])
        #expect(pad.handle(.returnKey, at: ms(3300)) == [.commit("日本語"), .compositionChanged(""), .candidatesChanged([], selected: nil)])
        #expect(pad.composition.isEmpty)
        #expect(pad.toggle == nil)
    }

    @Test func returnCommitsTheReadingWhenNothingIsChosen() {
        var pad = KanaPad()
        pad.taps("あ", 2, from: 1000)
        #expect(pad.handle(.returnKey, at: ms(2000)) == [.commit("い"), .compositionChanged("")])
        #expect(pad.handle(.returnKey, at: ms(2100)) == [.passThrough])
    }

    @Test func tappingACandidateCommitsIt() {
        var pad = KanaPad()
        var converter = FakeKanaKanjiConverter()
        _ = Self.typeNihongo(&pad, &converter)
        #expect(pad.handle(.candidate(0), at: ms(3000), converter: &converter)
                == [.commit("日本語"), .compositionChanged(""), .candidatesChanged([], selected: nil)])
        #expect(pad.handle(.candidate(0), at: ms(3100), converter: &converter).isEmpty)
    }

    /// A three-segment reading: the whole sentence first; a first-segment candidate commits
    /// 今日は and leaves いいてんきですね composing, converted again.
    @Test func segments() {
        var pad = KanaPad()
        var converter = FakeKanaKanjiConverter()
        for kana in "きょうはいいてんきですね" {  // typed as the composition; the pad's keys are tested elsewhere
            _ = pad.handle(.kanaKey(KanaKey(tap: String(kana), left: nil, up: nil, right: nil, down: nil), .tap, touchDown: ms(0)),
                           at: ms(0), converter: &converter)
        }
        #expect(pad.reading == "きょうはいいてんきですね")
        #expect(pad.composition.candidates.map(\.text) == ["今日はいい天気ですね", "今日は", "きょうは", "京は"])
        let effects = pad.handle(.candidate(1), at: ms(100), converter: &converter)
        #expect(effects.first == .commit("今日は"))
        #expect(effects.contains(.compositionChanged("いいてんきですね")))
        #expect(converter.asked.last == "いいてんきですね")
        #expect(pad.composition.candidates.first?.text == "いい天気ですね")
        #expect(pad.handle(.candidate(0), at: ms(200), converter: &converter).first == .commit("いい天気ですね"))
        #expect(pad.composition.isEmpty)
    }

    @Test func aKanaAfterAChosenCandidateCommitsItFirst() {
        var pad = KanaPad()
        var converter = FakeKanaKanjiConverter()
        _ = Self.typeNihongo(&pad, &converter)
        _ = pad.handle(.space, at: ms(3000))
        let effects = pad.handle(.kanaKey(KanaKey.standard("は")!, .tap, touchDown: ms(3100)), at: ms(3150), converter: &converter)
        #expect(effects.first == .commit("日本語"))
        #expect(effects.contains(.compositionChanged("は")))
        #expect(pad.reading == "は")
    }

    @Test func backspaceEditsTheCompositionFirst() {
        var pad = KanaPad()
        var converter = FakeKanaKanjiConverter()
        _ = Self.typeNihongo(&pad, &converter)
        _ = pad.handle(.space, at: ms(3000))
        #expect(pad.handle(.backspace, at: ms(3100)).first == .compositionChanged("にほんご"))
        _ = pad.handle(.backspace, at: ms(3200))
        #expect(pad.reading == "にほん")
        for n in 0..<3 { _ = pad.handle(.backspace, at: ms(3300 + n)) }
        #expect(pad.composition.isEmpty)
        #expect(pad.handle(.backspace, at: ms(3400)) == [.passThrough])
    }

    @Test func backspaceEndsTheCycle() {
        var pad = KanaPad()
        pad.taps("さ", 2, from: 1000)  // し
        _ = pad.handle(.backspace, at: ms(1200))
        pad.press("さ", at: 1250)
        #expect(pad.reading == "さ")
    }

    @Test func spaceWithoutCandidatesCommitsTheReadingThenPassesThrough() {
        var pad = KanaPad()
        var broken = FakeKanaKanjiConverter(isBroken: true)
        _ = pad.handle(.kanaKey(KanaKey.standard("な")!, .tap, touchDown: ms(0)), at: ms(40), converter: &broken)
        #expect(pad.composition.candidates.isEmpty)
        #expect(pad.handle(.space, at: ms(100)) == [.commit("な"), .compositionChanged(""), .passThrough])
        #expect(pad.handle(.space, at: ms(200)) == [.passThrough])
    }

    /// The へぇ button: the session commits the composition, then types 「へぇ〜」.
    @Test func commitAllCommitsWhatIsShown() {
        var pad = KanaPad()
        var converter = FakeKanaKanjiConverter()
        _ = Self.typeNihongo(&pad, &converter)
        _ = pad.handle(.space, at: ms(3000))
        #expect(pad.handle(.commitAll, at: ms(3100)) == [.commit("日本語"), .compositionChanged(""), .candidatesChanged([], selected: nil)])
        #expect(pad.handle(.commitAll, at: ms(3200)).isEmpty)
    }

    @Test func modifierKey() {
        var pad = KanaPad()
        pad.press("は", at: 1000)
        #expect(pad.handle(.modifierKey(.center), at: ms(1100)) == [.compositionChanged("ば"), .convert("ば")])
        _ = pad.handle(.modifierKey(.center), at: ms(1200))
        #expect(pad.reading == "ぱ")
        _ = pad.handle(.modifierKey(.left), at: ms(1300))
        #expect(pad.reading == "ば")
        #expect(pad.handle(.modifierKey(.up), at: ms(1400)).isEmpty, "は has no small form")
        pad.press("は", at: 1500)  // a new kana: the modifier ended the cycle
        #expect(pad.reading == "ばは")
        var empty = KanaPad()
        #expect(empty.handle(.modifierKey(.center), at: ms(10)) == [.passThrough])
    }

    @Test func modifierGuideShowsTheLastKanasForms() {
        var pad = KanaPad()
        let gesture = FlickGesture(touchDownAt: Point(x: 0, y: 0))
        #expect(pad.modifierGuide(gesture).neighbours.isEmpty)
        pad.press("た", .flick(.up), at: 1000)  // つ
        let guide = pad.modifierGuide(gesture)
        #expect(guide.targets.center == "っ")
        #expect(guide.neighbours.map(\.text) == ["づ", "っ"])
    }
}
