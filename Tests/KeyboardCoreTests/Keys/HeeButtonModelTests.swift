import KeyboardCore
import Testing

/// Seed 000's `KeyboardViewModel`: one count per touch (the `isTouching` guard), and the
/// counter shown as `String(format: "%2d", count)`, wrapping on the two-digit display.
@Suite("HeeButtonModel (seed 000)")
struct HeeButtonModelTests {
    @Test func insertsHeeWithWaveDash() {
        // 「へぇ〜」: HIRAGANA HE, SMALL E, WAVE DASH (U+301C), as in the seed.
        #expect(HeeButtonModel.insertedText.unicodeScalars.map(\.value) == [0x3078, 0x3047, 0x301C])
    }

    @Test func startsAtZeroNotTouching() {
        let model = HeeButtonModel()
        #expect(model.count == 0)
        #expect(!model.isTouching)
        #expect(model.counterText == " 0")
    }

    @Test("a touch counts once however often touchDown repeats", arguments: [1, 2, 5, 60])
    func touchCountsOnce(touchDownCalls: Int) {
        var model = HeeButtonModel()
        var counted = 0
        for _ in 0..<touchDownCalls where model.touchDown() { counted += 1 }
        #expect(counted == 1)
        #expect(model.count == 1)
        #expect(model.isTouching)
        model.touchUp()
        #expect(!model.isTouching)
        #expect(model.count == 1)
        // The next touch counts again.
        let again = model.touchDown()
        let repeated = model.touchDown()
        #expect(again && !repeated)
        #expect(model.count == 2)
    }

    @Test func touchUpWithoutTouchDownDoesNotCount() {
        var model = HeeButtonModel()
        model.touchUp()
        model.touchUp()
        #expect(model.count == 0)
        let counted = model.touchDown()
        #expect(counted)
        #expect(model.count == 1)
    }

    @Test("1 to 9 are space-padded to two characters", arguments: 1...9)
    func singleDigitsArePadded(count: Int) {
        #expect(HeeButtonModel(count: count).counterText == " \(count)")
    }

    @Test(arguments: [(10, "10"), (42, "42"), (99, "99"), (100, " 0"), (101, " 1"), (110, "10"), (199, "99"), (12345, "45")])
    func counterShowsLastTwoDigits(count: Int, text: String) {
        #expect(HeeButtonModel(count: count).counterText == text)
    }

    @Test func ninetyNineToHundredShowsZeroButCountKeepsGoing() {
        var model = HeeButtonModel(count: 99)
        #expect(model.counterText == "99")
        let counted = model.touchDown()
        #expect(counted)
        model.touchUp()
        #expect(model.count == 100)
        #expect(model.displayedCount == 0)
        #expect(model.counterText == " 0")
    }

    @Test func counterIsAlwaysTwoCharactersAndCountNeverWraps() {
        var model = HeeButtonModel()
        for press in 1...250 {
            let counted = model.touchDown()
            #expect(counted)
            model.touchUp()
            #expect(model.count == press)
            #expect(model.counterText.count == 2)
            #expect(Int(model.counterText.trimmingPrefix(" ")) == press % 100)
        }
        #expect(model.count == 250)
        #expect(model.counterText == "50")
    }
}
