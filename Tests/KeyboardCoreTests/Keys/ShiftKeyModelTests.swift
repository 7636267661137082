import KeyboardCore
import Testing

/// Seed 002: the shift key of the iOS system keyboard. A tap toggles off ↔ on; a touch-down
/// strictly less than 0.25 s after the previous touch-down toggles caps lock
/// (`(state == .capsLock) ? .off : .capsLock`); a touch-down while touching is ignored.
@Suite("ShiftKeyModel (seed 002)")
struct ShiftKeyModelTests {
    /// A touch-down at `time` followed by a touch-up.
    static func tap(_ model: inout ShiftKeyModel, at time: Duration) {
        model.touchDown(at: time)
        model.touchUp()
    }

    @Test func startsOffAndNotTouching() {
        let model = ShiftKeyModel()
        #expect(model.state == .off)
        #expect(!model.isTouching)
        #expect(model.previousTouchDown == nil)
    }

    @Test func tapTogglesOffOnOff() {
        var model = ShiftKeyModel()
        Self.tap(&model, at: .seconds(1))
        #expect(model.state == .on)
        Self.tap(&model, at: .seconds(2))
        #expect(model.state == .off)
        Self.tap(&model, at: .seconds(3))
        #expect(model.state == .on)
    }

    @Test func firstTouchAtSessionStartIsATap() {
        var model = ShiftKeyModel()
        Self.tap(&model, at: .zero)
        #expect(model.state == .on)
        #expect(model.previousTouchDown == .zero)
    }

    @Test("second touch-down less than 0.25 s after the first locks caps", arguments: [1, 100, 240, 249])
    func quickSecondTouchLocksCaps(gapMilliseconds: Int) {
        var model = ShiftKeyModel()
        let first = Duration.seconds(10)
        Self.tap(&model, at: first)
        #expect(model.state == .on)
        Self.tap(&model, at: first + .milliseconds(gapMilliseconds))
        #expect(model.state == .capsLock)
    }

    @Test("second touch-down 0.25 s or more after the first is a plain tap", arguments: [250, 251, 260, 1000])
    func slowSecondTouchIsATap(gapMilliseconds: Int) {
        var model = ShiftKeyModel()
        let first = Duration.seconds(10)
        Self.tap(&model, at: first)
        Self.tap(&model, at: first + .milliseconds(gapMilliseconds))
        #expect(model.state == .off)
    }

    @Test func windowIsMeasuredBetweenTouchDownsNotFromTouchUp() {
        // Down at 10.00, up at 10.20, down at 10.26: only 0.06 s after the touch-up but
        // 0.26 s after the touch-down, so it is a tap.
        var model = ShiftKeyModel()
        model.touchDown(at: .seconds(10))
        model.touchUp()
        model.touchDown(at: .seconds(10) + .milliseconds(260))
        #expect(model.state == .off)
        model.touchUp()
        // Down at 20.00, held until 20.24, down again at 20.245: a double tap.
        model.touchDown(at: .seconds(20))
        #expect(model.state == .on)
        model.touchUp()
        model.touchDown(at: .seconds(20) + .milliseconds(245))
        #expect(model.state == .capsLock)
    }

    @Test func capsLockThenSingleTapGivesOff() {
        var model = ShiftKeyModel(state: .capsLock)
        Self.tap(&model, at: .seconds(5))
        #expect(model.state == .off)
    }

    /// Seed 002: 「すでにCapsLock状態でダブルタップをすると大文字入力になる（ダブルタップの1度目の
    /// タップ時は小文字入力になっている）」 — from caps lock, the first tap of a double tap gives
    /// lower case (off) and the second gives caps lock again.
    @Test func capsLockThenDoubleTapPassesThroughOffBackToCapsLock() {
        var model = ShiftKeyModel(state: .capsLock)
        Self.tap(&model, at: .seconds(5))
        #expect(model.state == .off)
        Self.tap(&model, at: .seconds(5) + .milliseconds(100))
        #expect(model.state == .capsLock)
    }

    /// The seed's rule for a quick touch in caps lock: `.capsLock` → `.off`. A third quick
    /// tap after the double tap that locked caps turns shift off.
    @Test func quickTouchWhileInCapsLockGivesOff() {
        var model = ShiftKeyModel()
        Self.tap(&model, at: .seconds(1))
        Self.tap(&model, at: .seconds(1) + .milliseconds(150))
        #expect(model.state == .capsLock)
        Self.tap(&model, at: .seconds(1) + .milliseconds(300))  // 0.15 s after the previous one
        #expect(model.state == .off)
    }

    @Test func touchDownWhileTouchingChangesStateOnce() {
        var model = ShiftKeyModel()
        let first = model.touchDown(at: .seconds(1))
        #expect(first)
        #expect(model.state == .on)
        #expect(model.isTouching)
        let repeated1 = model.touchDown(at: .seconds(1) + .milliseconds(50))
        let repeated2 = model.touchDown(at: .seconds(1) + .milliseconds(100))
        #expect(!repeated1 && !repeated2)
        #expect(model.state == .on)
        #expect(model.previousTouchDown == .seconds(1))
        model.touchUp()
        #expect(!model.isTouching)
        // Ignored touch-downs do not move the double-tap window: 0.4 s after the counted
        // one (0.2 s after an ignored one) is a tap.
        let next = model.touchDown(at: .seconds(1) + .milliseconds(400))
        #expect(next)
        #expect(model.state == .off)
    }

    @Test(arguments: [
        (ShiftState.off, ShiftState.off, false),
        (.on, .off, true),
        (.capsLock, .capsLock, false),
    ])
    func letterTypedEndsOneShotShiftOnly(before: ShiftState, after: ShiftState, changed: Bool) {
        var model = ShiftKeyModel(state: before)
        let changedNow = model.letterTyped()
        #expect(changedNow == changed)
        #expect(model.state == after)
    }

    @Test(arguments: [
        (ShiftState.off, "shift", "a"),
        (.on, "shift.fill", "A"),
        (.capsLock, "capslock.fill", "A"),
    ])
    func symbolAndCasePerState(state: ShiftState, symbol: String, typed: String) {
        #expect(state.systemName == symbol)
        #expect(state.apply(to: "a") == typed)
        #expect(state.apply(to: "A") == typed)
    }

    // MARK: Transition table

    /// A model in `state` whose previous touch-down was at `time` (touch lifted).
    static func model(in state: ShiftState, lastTouchDownAt time: Duration) -> ShiftKeyModel {
        var model: ShiftKeyModel
        switch state {
        case .on:
            model = ShiftKeyModel(state: .off)
            tap(&model, at: time)
        case .off:
            model = ShiftKeyModel(state: .on)
            tap(&model, at: time)
        case .capsLock:
            model = ShiftKeyModel(state: .off)
            tap(&model, at: time - .milliseconds(100))
            tap(&model, at: time)
        }
        return model
    }

    /// The table, computed by driving the model: for each state at rest, a single tap, a
    /// double tap (two touch-downs 0.1 s apart, showing the state after each) and one quick
    /// touch (0.1 s after the touch-down that led to the state).
    static func transitionTable() -> String {
        func name(_ s: ShiftState) -> String { s.rawValue }
        var lines = ["from     | tap | double tap       | quick touch"]
        for state in ShiftState.allCases {
            var single = ShiftKeyModel(state: state)
            tap(&single, at: .seconds(100))

            var double = ShiftKeyModel(state: state)
            tap(&double, at: .seconds(100))
            let afterFirst = double.state
            tap(&double, at: .seconds(100) + .milliseconds(100))

            var quick = model(in: state, lastTouchDownAt: .seconds(100))
            let reached = quick.state
            tap(&quick, at: .seconds(100) + .milliseconds(100))

            func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
            lines.append(pad(name(state), 8) + " | " + pad(name(single.state), 3) + " | "
                         + pad(name(afterFirst) + " → " + name(double.state), 16) + " | "
                         + (reached == state ? name(quick.state) : "unreachable"))
        }
        return lines.joined(separator: "\n")
    }

    @Test func transitionTableMatchesSeedRules() {
        // Written by hand from seed 002: tap: off → on, otherwise → off. Quick touch:
        // capsLock → off, otherwise → capsLock. A double tap is a tap then a quick touch.
        let expected = """
            from     | tap | double tap       | quick touch
            off      | on  | on → capsLock    | capsLock
            on       | off | off → capsLock   | capsLock
            capsLock | off | off → capsLock   | off
            """
        #expect(Self.transitionTable() == expected)
    }
}
