import KeyboardCore
import Testing

/// Toggle input: repeated taps cycle the key's kana, within the timeout, unless flick only;
/// `→` ends a cycle; `↶` steps back.
@Suite("KanaPad toggle input")
struct KanaToggleTests {
    /// Every standard key's cycle by taps, twice round and one more: the kana after n taps.
    @Test func everyCycleWrapsAround() {
        for key in KanaKey.standard {
            var pad = KanaPad()
            var seen: [String] = []
            for n in 0..<(2 * key.cycle.count + 1) {
                pad.press(key.id, at: 1000 + 150 * n)
                seen.append(pad.reading)
            }
            #expect(seen == Array(repeating: key.cycle, count: 2).flatMap { $0 } + [key.cycle[0]], "\(key.id)")
        }
    }

    @Test func fiveTapsOfAIsO() {
        var pad = KanaPad()
        let effects = pad.taps("あ", 5, from: 1000)
        #expect(pad.reading == "お")
        #expect(effects.compactMap { if case .compositionChanged(let t) = $0 { t } else { nil } } == ["あ", "い", "う", "え", "お"])
        #expect(pad.toggle?.index == 4)
        #expect(pad.toggle?.isCycling == true)
    }

    /// The timeout: measured from the lift that typed the kana to the next touch-down.
    @Test("a touch-down less than 0.5 s after the last kana steps it", arguments: [1, 100, 499])
    func withinTimeoutSteps(gap: Int) {
        var pad = KanaPad()
        _ = pad.handle(.kanaKey(KanaKey.standard("た")!, .tap, touchDown: ms(1000)), at: ms(1060))
        _ = pad.handle(.kanaKey(KanaKey.standard("た")!, .tap, touchDown: ms(1060 + gap)), at: ms(1060 + gap + 300))
        #expect(pad.reading == "ち")
    }

    @Test("a touch-down 0.5 s or more after the last kana types a new one", arguments: [500, 501, 2000])
    func afterTimeoutNewKana(gap: Int) {
        var pad = KanaPad()
        _ = pad.handle(.kanaKey(KanaKey.standard("た")!, .tap, touchDown: ms(1000)), at: ms(1060))
        _ = pad.handle(.kanaKey(KanaKey.standard("た")!, .tap, touchDown: ms(1060 + gap)), at: ms(1060 + gap + 30))
        #expect(pad.reading == "たた")
    }

    @Test func timeoutRestartsAtEachStep() {
        var pad = KanaPad()
        pad.taps("か", 4, from: 1000)  // 1000, 1150, 1300, 1450: け
        #expect(pad.reading == "け")
        _ = pad.handle(.kanaKey(KanaKey.standard("か")!, .tap, touchDown: ms(1450 + 499)), at: ms(2000))
        #expect(pad.reading == "こ")
    }

    @Test func flickOnlyNeverSteps() {
        var pad = KanaPad(isFlickOnly: true)
        pad.taps("た", 3, from: 1000)
        #expect(pad.reading == "たたた")
        #expect(pad.toggle?.isCycling == false)
    }

    @Test func aKeyWithACycleOfOneTypesItAgain() {
        var pad = KanaPad()
        let key = KanaKey(tap: "ー", left: nil, up: nil, right: nil, down: nil)
        for n in 0..<3 { _ = pad.handle(.kanaKey(key, .tap, touchDown: ms(100 * n)), at: ms(100 * n + 40)) }
        #expect(pad.reading == "ーーー")
    }

    @Test func customTimeout() {
        var pad = KanaPad(toggleTimeout: .seconds(1))
        pad.press("な", at: 1000)
        pad.press("な", at: 1900)  // touch-down 1860, 0.86 s after
        #expect(pad.reading == "に")
    }

    @Test func nextEndsTheCycleSoTheSameKeyStartsANewKana() {
        var pad = KanaPad()
        pad.press("あ", at: 1000)
        #expect(pad.handle(.next, at: ms(1100)).isEmpty, "nothing shown changes")
        #expect(pad.toggle?.isCycling == false)
        pad.press("あ", at: 1200)
        pad.press("あ", at: 1350)
        #expect(pad.reading == "あい")
        // → with nothing cycling and a composition does nothing; with none it passes through.
        _ = pad.handle(.next, at: ms(1400))
        #expect(pad.handle(.next, at: ms(1500)).isEmpty)
        #expect(pad.reading == "あい")
        var empty = KanaPad()
        #expect(empty.handle(.next, at: ms(10)) == [.passThrough])
    }

    @Test func anotherKeyEndsTheCycle() {
        var pad = KanaPad()
        pad.press("は", at: 1000)
        pad.press("か", at: 1150)
        pad.press("は", at: 1300)
        #expect(pad.reading == "はかは")
    }

    @Test func aFlickTypesANewKanaAndStartsNoCycle() {
        var pad = KanaPad()
        pad.press("あ", at: 1000)
        pad.press("あ", .flick(.left), at: 1150)  // い, new
        #expect(pad.reading == "あい")
        pad.press("あ", at: 1300)  // a tap after a flick: new あ
        #expect(pad.reading == "あいあ")
    }

    /// iOS users type ああ fast by flicking away and back: a new kana, no toggle step.
    @Test func awayAndBackIsANewKana() {
        var pad = KanaPad()
        pad.press("あ", at: 1000)
        pad.press("あ", .flick(.center), at: 1150)
        #expect(pad.reading == "ああ")
        pad.press("あ", .flick(.center), at: 1300)
        #expect(pad.reading == "あああ")
    }

    @Test func flickWhereTheKeyHasNothingTypesNothing() {
        var pad = KanaPad()
        pad.press("わ", at: 1000)
        #expect(pad.press("わ", .flick(.down), at: 1150).isEmpty)
        #expect(pad.reading == "わ")
        #expect(pad.toggle?.isCycling == true, "the cancelled touch changes nothing")
    }

    /// ↶ steps back one kana of the cycle and wraps: the iPhone's reverse order from あ is
    /// ぉぇぅぃぁおえういあ.
    @Test func undoStepsBackAndWraps() {
        var pad = KanaPad()
        pad.press("あ", at: 1000)
        var seen: [String] = []
        for n in 0..<10 {
            _ = pad.handle(.undo, at: ms(1100 + 10 * n))
            seen.append(pad.reading)
        }
        #expect(seen.joined() == "ぉぇぅぃぁおえういあ")
    }

    @Test func undoAfterTapsThenTapsContinue() {
        var pad = KanaPad()
        pad.taps("あ", 3, from: 1000)  // う
        _ = pad.handle(.undo, at: ms(1400))
        #expect(pad.reading == "い")
        _ = pad.handle(.kanaKey(KanaKey.standard("あ")!, .tap, touchDown: ms(1500)), at: ms(1540))
        #expect(pad.reading == "う")
    }

    /// A flicked kana steps back too, and taps then continue its cycle (iPhone OS 2: 「フリック
    /// 入力した文字も…戻すことができます…一度戻したあとはその段の連打入力モードになる」).
    @Test func undoOnAFlickedKana() {
        var pad = KanaPad()
        pad.press("か", .flick(.right), at: 1000)  // け
        _ = pad.handle(.undo, at: ms(1100))
        #expect(pad.reading == "く")
        pad.press("か", at: 1200)
        #expect(pad.reading == "け")
    }

    @Test func undoCannotStepAKanaOutsideTheCycleOrAfterAnotherKey() {
        var pad = KanaPad()
        pad.press("や", .flick(.left), at: 1000)  // 「
        #expect(pad.handle(.undo, at: ms(1100)).isEmpty)
        #expect(pad.reading == "「")
        pad.press("は", at: 1200)
        _ = pad.handle(.modifierKey(.center), at: ms(1300))  // ば
        #expect(pad.handle(.undo, at: ms(1400)).isEmpty)
        #expect(pad.reading == "「ば")
        var empty = KanaPad()
        #expect(empty.handle(.undo, at: ms(10)) == [.passThrough])
    }

    @Test func undoInFlickOnlyModeStepsButTapsDoNotContinue() {
        var pad = KanaPad(isFlickOnly: true)
        pad.press("さ", .flick(.up), at: 1000)  // す
        _ = pad.handle(.undo, at: ms(1100))
        #expect(pad.reading == "し")
        pad.press("さ", at: 1200)
        #expect(pad.reading == "しさ")
    }

    @Test func undoAfterTimeoutStillSteps() {
        var pad = KanaPad()
        pad.press("ま", at: 1000)
        _ = pad.handle(.undo, at: ms(5000))
        #expect(pad.reading == "も")
    }
}
