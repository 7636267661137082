import KeyboardCore
import Testing

/// The `HeeButton` part alone (seed 000): a touch counts once, the cap sinks and rises over
/// 0.1 s, the host screen's buttons reset the count and step the volume.
@Suite("HeeButton (part)")
struct HeeButtonTests {
    @Test func aTouchCountsOnceAndTheCapFollowsIt() {
        var button = HeeButton()
        let counted = button.touchDown(at: ms(1_000))
        #expect(counted && button.model.count == 1)
        #expect(isClose(button.capPress(at: ms(1_000)), 0))
        #expect(isClose(button.capPress(at: ms(1_100)), 1))
        #expect(button.cap.isRunning(at: ms(1_050)) && !button.cap.isRunning(at: ms(1_100)))
        let again = button.touchDown(at: ms(1_100))
        #expect(!again, "still touched: seed 000's isTouching guard")
        #expect(button.model.count == 1)
        button.touchUp(at: ms(1_200))
        #expect(!button.model.isTouching)
        #expect(isClose(button.capPress(at: ms(1_300)), 0))
        let next = button.touchDown(at: ms(1_400))
        #expect(next && button.model.count == 2)
    }

    @Test func aFullCounterSinksTheCapButCountsNothing() {
        var button = HeeButton(limit: 1)
        let first = button.touchDown(at: ms(0))
        button.touchUp(at: ms(50))
        let second = button.touchDown(at: ms(500))
        #expect(first && !second)
        #expect(button.model.count == 1 && button.model.isFull)
        #expect(isClose(button.capPress(at: ms(600)), 1))
    }

    @Test func resetCountsOnlyWhenThereIsACount() {
        var button = HeeButton()
        #expect(button.resetCount().isEmpty)
        _ = button.touchDown(at: ms(0))
        #expect(button.resetCount() == [.countReset])
        #expect(button.model.count == 0)
    }

    @Test func theVolumeStepsByTenWithin0To100() {
        var button = HeeButton(volume: 95)
        #expect(button.stepVolume(up: true) == [.setVolume(100)])
        #expect(button.stepVolume(up: true).isEmpty)
        #expect(HeeButton(volume: 150).volume == 100 && HeeButton(volume: -5).volume == 0)
        var low = HeeButton(volume: 5)
        #expect(low.stepVolume(up: false) == [.setVolume(0)])
        #expect(low.stepVolume(up: false).isEmpty)
    }

    @Test func theRevisionCountsWhatIsDrawn() {
        var button = HeeButton(volume: 100)
        let start = button.revision
        #expect(button.stepVolume(up: true).isEmpty)
        #expect(button.resetCount().isEmpty)
        #expect(button.revision == start, "nothing changed")
        _ = button.touchDown(at: ms(0))
        #expect(button.revision != start)
    }
}
