import KeyboardCore
import Testing

/// The show's rules (issue 6): `--limit N` stops the counter at N (the show's 20, 「満へぇ」),
/// the reset button starts it again; without a limit the seed's behaviour stands. Also the
/// host screen's volume buttons and the quit keys.
@Suite("Show rules")
struct ShowRulesTests {
    static func launched(limit: Int? = nil, volume: Int = 100) -> KeyboardSession {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, limit: limit, volume: volume)
        _ = session.handle(.launched, at: .zero)
        return session
    }

    static func sounds(_ effects: [KeyboardEffect]) -> Int { effects.filter { $0 == .playSound(.hee) }.count }

    static func text(_ presses: Int) -> String { String(repeating: HeeButtonModel.insertedText, count: presses) }

    /// Taps the へぇ button `n` times, 100 ms apart from `start` ms; returns every effect.
    static func pressHee(_ session: inout KeyboardSession, times n: Int, from start: Int) throws -> [KeyboardEffect] {
        var effects: [KeyboardEffect] = []
        for i in 0..<n { effects += try session.tap(.hee, at: start + i * 100, hold: 40) }
        return effects
    }

    // MARK: The limit

    @Test func twentyPressesCountThenTheCounterIsFull() throws {
        var session = Self.launched(limit: 20)
        for i in 1...20 {
            let effects = try session.tap(.hee, at: 1000 + i * 100)
            #expect(effects.heeCounts == [i])
            #expect(effects.texts == [Self.text(i)])
            #expect(Self.sounds(effects) == 1)
            #expect(session.hee.model.isFull == (i == 20), "isFull after \(i)")
        }
        #expect(session.hee.model.count == 20)
        #expect(session.document.textField.text == Self.text(20))
    }

    @Test func the21stPressInsertsNothingAndPlaysNothing() throws {
        var session = Self.launched(limit: 20)
        _ = try Self.pressHee(&session, times: 20, from: 1000)
        let before = session.document.textField
        let effects = try Self.pressHee(&session, times: 5, from: 5000)
        #expect(effects.heeCounts.isEmpty)
        #expect(effects.texts.isEmpty)
        #expect(Self.sounds(effects) == 0)
        #expect(session.hee.model.count == 20 && session.hee.model.isFull)
        #expect(session.document.textField == before)
        #expect(session.hee.model.counterText == "20")
        // The key still goes down and up each time.
        let touches = effects.filter { if case .keyTouched(.hee, _) = $0 { true } else { false } }
        #expect(touches.count == 10)
    }

    @Test func theCapStillAnimatesWhenFull() throws {
        var session = Self.launched(limit: 20)
        _ = try Self.pressHee(&session, times: 20, from: 1000)
        let point = try session.center(of: .hee)
        let down = session.send(.pointerDown(.mouse, point), at: 5000)
        #expect(down.contains(.keyTouched(.hee, down: true)))
        #expect(down.contains(.needsDisplay))
        #expect(session.isAnimating(at: ms(5050)))
        #expect(isClose(session.capPress(at: ms(5100)), 1), "cap down while held")
        _ = session.send(.pointerUp(.mouse, point), at: 5200)
        #expect(isClose(session.capPress(at: ms(5300)), 0), "cap back up")
    }

    @Test func limitOfOne() throws {
        var session = Self.launched(limit: 1)
        #expect(try session.tap(.hee, at: 1000).heeCounts == [1])
        #expect(session.hee.model.isFull)
        #expect(try session.tap(.hee, at: 1200).heeCounts.isEmpty)
    }

    @Test func resetStartsTheCountAgain() throws {
        var session = Self.launched(limit: 20)
        _ = try Self.pressHee(&session, times: 21, from: 1000)
        #expect(session.hee.model.isFull)
        let reset = session.click(.resetCount, at: 5000)
        #expect(reset.contains(.countReset))
        #expect(reset.heeCounts.isEmpty && reset.texts.isEmpty, "reset does not touch the text")
        #expect(session.hee.model.count == 0 && !session.hee.model.isFull)
        #expect(session.hee.model.counterText == " 0")
        #expect(session.document.textField.text == Self.text(20))
        let again = try session.tap(.hee, at: 6000)
        #expect(again.heeCounts == [1])
        #expect(again.texts == [Self.text(21)])
        #expect(Self.sounds(again) == 1)
        let more = try Self.pressHee(&session, times: 25, from: 7000)
        #expect(more.heeCounts == Array(2...20), "full again at 20")
        #expect(session.hee.model.isFull)
    }

    @Test func resetActsOnReleaseOverTheButton() throws {
        var session = Self.launched(limit: 5)
        _ = try Self.pressHee(&session, times: 3, from: 1000)
        let button = session.layout.resetCount
        let down = session.send(.pointerDown(.mouse, button.center), at: 2000)
        #expect(!down.contains(.countReset) && session.hee.model.count == 3, "nothing on press")
        let offButton = Point(x: button.center.x, y: button.maxY + 30)
        let up = session.send(.pointerUp(.mouse, offButton), at: 2100)
        #expect(!up.contains(.countReset) && session.hee.model.count == 3, "released elsewhere: no reset")
        #expect(session.click(.resetCount, at: 3000).contains(.countReset))
        #expect(session.hee.model.count == 0)
        #expect(!session.click(.resetCount, at: 4000).contains(.countReset), "nothing to reset at 0")
    }

    @Test func resetWhileAFingerHoldsTheFullButton() throws {
        var session = Self.launched(limit: 3)
        _ = try Self.pressHee(&session, times: 3, from: 1000)
        let hee = try session.center(of: .hee)
        _ = session.send(.pointerDown(.finger(1), hee), at: 2000)
        let reset = session.layout.resetCount.center
        _ = session.send(.pointerDown(.finger(2), reset), at: 2100)
        #expect(session.send(.pointerUp(.finger(2), reset), at: 2150).contains(.countReset))
        let lifted = session.send(.pointerUp(.finger(1), hee), at: 2200)
        #expect(lifted.heeCounts.isEmpty, "the press made while full does not count later")
        #expect(try session.tap(.hee, at: 2500).heeCounts == [1])
    }

    @Test func resetWorksWithoutALimit() throws {
        var session = Self.launched()
        _ = try Self.pressHee(&session, times: 4, from: 1000)
        #expect(session.click(.resetCount, at: 2000).contains(.countReset))
        #expect(try session.tap(.hee, at: 3000).heeCounts == [1])
    }

    @Test func withoutALimitTheCountPasses99AndTheDisplayWraps() throws {
        var session = Self.launched()
        let effects = try Self.pressHee(&session, times: 101, from: 1000)
        #expect(effects.heeCounts == Array(1...101))
        #expect(Self.sounds(effects) == 101)
        #expect(!session.hee.model.isFull)
        #expect(session.hee.model.count == 101)
        #expect(session.hee.model.displayedCount == 1 && session.hee.model.counterText == " 1")
        var model = HeeButtonModel(count: 99)
        #expect(model.counterText == "99")
        let counted = model.touchDown()
        #expect(counted)
        #expect(model.count == 100 && model.counterText == " 0" && !model.isFull)
    }

    // MARK: Volume

    static func volumes(_ effects: [KeyboardEffect]) -> [Int] {
        effects.compactMap { if case .setVolume(let v) = $0 { v } else { nil } }
    }

    @Test func volumeButtonsStepByTenWithin0To100() {
        var session = Self.launched()
        #expect(session.hee.volume == 100)
        #expect(Self.volumes(session.click(.volumeUp, at: 1000)).isEmpty, "no change at 100")
        #expect(session.hee.volume == 100)
        var seen: [Int] = []
        for i in 0..<12 { seen += Self.volumes(session.click(.volumeDown, at: 2000 + i * 100)) }
        #expect(seen == [90, 80, 70, 60, 50, 40, 30, 20, 10, 0], "no change at 0")
        #expect(session.hee.volume == 0)
        #expect(Self.volumes(session.click(.volumeUp, at: 4000)) == [10])
        #expect(session.hee.volume == 10)
    }

    @Test func volumeStepsClampAtTheEnds() {
        var session = Self.launched(volume: 35)
        #expect(session.hee.volume == 35)
        var seen: [Int] = []
        for i in 0..<5 { seen += Self.volumes(session.click(.volumeDown, at: 1000 + i * 100)) }
        #expect(seen == [25, 15, 5, 0])
        var up = Self.launched(volume: 95)
        #expect(Self.volumes(up.click(.volumeUp, at: 1000)) == [100])
        #expect(Self.volumes(up.click(.volumeUp, at: 1100)).isEmpty)
        #expect(KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, volume: 150).hee.volume == 100)
        #expect(KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, volume: -5).hee.volume == 0)
    }

    @Test func volumeButtonsWorkWithTheKeyboardHidden() {
        var session = Self.launched()
        _ = session.click(.closeKeyboard, at: 1000)
        _ = session.send(.tick, at: 2000)
        #expect(session.hostScreen.monitor.keyboardStatus == .hide)
        #expect(Self.volumes(session.click(.volumeDown, at: 3000)) == [90])
    }

    // MARK: Quitting

    @Test func escapeClosesTheShownKeyboard() {
        var session = Self.launched()
        let effects = session.send(.escape, at: 1000)
        #expect(!effects.contains(.quit))
        #expect(effects.contains(.stopTextInput) && effects.contains(.stopAudioEngine))
        let settled = session.send(.tick, at: 1500)
        #expect(settled.frameChanges == [.keyboardFrameChanged(.hide, .zero)])
        #expect(session.send(.escape, at: 2000).withoutDisplay == [.quit], "hidden: Escape quits")
    }

    @Test func escapeAfterTheCloseButtonQuits() {
        var session = Self.launched()
        _ = session.click(.closeKeyboard, at: 1000)
        _ = session.send(.tick, at: 1500)
        #expect(session.send(.escape, at: 2000).withoutDisplay == [.quit])
    }

    @Test func escapeAfterTheKeyboardCameBackClosesItAgain() {
        var session = Self.launched()
        _ = session.send(.escape, at: 1000)
        _ = session.click(.textField, at: 2000)
        _ = session.send(.tick, at: 3000)
        #expect(session.hostScreen.monitor.keyboardStatus == .show)
        #expect(!session.send(.escape, at: 4000).contains(.quit))
    }

    @Test func ctrlQQuitsShownOrHidden() {
        var session = Self.launched()
        #expect(session.send(.quitShortcut, at: 1000).withoutDisplay == [.quit])
        _ = session.send(.escape, at: 1100)
        _ = session.send(.tick, at: 2000)
        #expect(session.send(.quitShortcut, at: 3000).withoutDisplay == [.quit])
    }
}
