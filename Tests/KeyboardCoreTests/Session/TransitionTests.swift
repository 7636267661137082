import KeyboardCore
import Testing

/// Animated values with time as an input.
@Suite("Transition")
struct TransitionTests {
    static let press = Transition(from: 0, to: 1, start: ms(1000), duration: ms(100))

    @Test func valueAtStartAndEnd() {
        let t = Self.press
        #expect(t.value(at: ms(0)) == 0)
        #expect(t.value(at: ms(1000)) == 0)
        #expect(t.value(at: ms(1100)) == 1)
        #expect(t.value(at: ms(5000)) == 1)
        #expect(t.end == ms(1100))
    }

    @Test(arguments: [(0.0, 1.0), (1.0, 0.0), (0.25, 0.75), (10, -10)])
    func monotonicAndWithinBounds(from: Double, to: Double) {
        let t = Transition(from: from, to: to, start: ms(500), duration: ms(250))
        var previous = t.value(at: ms(500))
        #expect(previous == from)
        for step in 501...760 {
            let value = t.value(at: ms(step))
            if to > from { #expect(value >= previous) } else { #expect(value <= previous) }
            #expect(value >= min(from, to) && value <= max(from, to))
            previous = value
        }
        #expect(previous == to)
    }

    @Test func easesInAndOut() {
        let t = Self.press
        let first = t.value(at: ms(1010)) - t.value(at: ms(1000))
        let middle = t.value(at: ms(1055)) - t.value(at: ms(1045))
        let last = t.value(at: ms(1100)) - t.value(at: ms(1090))
        #expect(first < middle)
        #expect(last < middle)
    }

    @Test func runningOnlyBetweenStartAndEnd() {
        let t = Self.press
        #expect(t.isRunning(at: ms(1000)))
        #expect(t.isRunning(at: ms(1099)))
        #expect(!t.isRunning(at: ms(1100)))
        #expect(!Transition.resting(at: 1).isRunning(at: .zero))
        #expect(Transition.resting(at: 0.3).value(at: ms(123)) == 0.3)
        #expect(!Transition(from: 1, to: 1, start: .zero, duration: ms(100)).isRunning(at: ms(50)))
    }

    @Test func retargetingHalfWayTakesHalfTheTime() {
        let t = Self.press
        let halfway = t.value(at: ms(1050))
        #expect(isClose(halfway, 0.5))
        let back = t.retargeted(to: 0, at: ms(1050), fullDuration: ms(100))
        #expect(back.start == ms(1050))
        #expect(back.end == ms(1100))
        #expect(back.value(at: ms(1050)) == halfway)  // no jump
        #expect(back.value(at: ms(1100)) == 0)
    }

    @Test func retargetingFromRestTakesTheFullTime() {
        let t = Self.press
        let back = t.retargeted(to: 0, at: ms(2000), fullDuration: ms(100))
        #expect(back.from == 1)
        #expect(back.end == ms(2100))
        let same = t.retargeted(to: 1, at: ms(2000), fullDuration: ms(100))
        #expect(!same.isRunning(at: ms(2000)))
        #expect(same.value(at: ms(2000)) == 1)
    }

    @Test func slideRetargetedHalfWay() {
        var visibility = KeyboardVisibility(resting: .show)
        #expect(visibility.hiddenFraction(at: .zero) == 0)
        let hid = visibility.hide(at: ms(1000))
        let hidAgain = visibility.hide(at: ms(1010))
        #expect(hid && !hidAgain)
        #expect(visibility.deadline(after: ms(1000)) == ms(1250))
        #expect(isClose(visibility.hiddenFraction(at: ms(1125)), 0.5))
        let showed = visibility.show(at: ms(1125))
        #expect(showed)
        #expect(visibility.deadline(after: ms(1125)) == ms(1250))
        #expect(visibility.hiddenFraction(at: ms(1250)) == 0)
        #expect(visibility.isSettled(at: ms(1250)))
        let showedAgain = visibility.show(at: ms(1300))
        #expect(!showedAgain)
    }
}
