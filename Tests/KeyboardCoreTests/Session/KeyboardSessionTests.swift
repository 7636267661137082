import KeyboardCore
import Testing

/// The whole app's behaviour, driven by inputs at explicit times (milliseconds since the
/// session started). Launch is at 0 ms.
@Suite("KeyboardSession")
struct KeyboardSessionTests {
    // MARK: Launch

    @Test func launchShowsKeyboardAndStartsEverything() {
        var session = KeyboardSession(windowSize: Size(width: 480, height: 800))
        #expect(session.hostScreen.monitor.keyboardStatus == .hide)
        let effects = session.send(.launched, at: 0)
        let layout = session.layout
        #expect(layout == KeyboardLayout(windowSize: Size(width: 480, height: 800)))
        #expect(effects.withoutDisplay == [
            .layoutChanged,
            .startAudioEngine,
            .startTextInput(layout.textField),
            .keyboardFrameChanged(.show, layout.keyboardFrame),
        ])
        #expect(effects.contains(.needsDisplay))
        #expect(session.hostScreen.monitor.keyboardStatus == .show)
        #expect(session.hostScreen.monitor.keyboardRect == layout.keyboardFrame)
        #expect(session.hostScreen.monitor.sizeText == "(480.0, \(layout.keyboardFrame.height))")
        #expect(session.hostScreen.isTextFieldFocused)
        #expect(session.keyboardOffset(at: .zero) == 0)
        #expect(!session.isAnimating(at: .zero))
        #expect(session.nextAnimationDeadline(after: .zero) == nil)
        #expect(session.document.textField.text.isEmpty)
    }

    // MARK: The へぇ button (seed 000)

    @Test func pressingHeeCountsInsertsAtCaretAndPlays() throws {
        var session = KeyboardSession.launched()
        session.send(.textInput("ab"), at: 500)
        session.send(.editing(.move(.characterLeft)), at: 600)
        let effects = session.send(.pointerDown(.mouse, try session.center(of: .hee)), at: 1000)
        #expect(effects.withoutDisplay == [
            .keyTouched(.hee, down: true),
            .heeCounted(1),
            .textChanged("aへぇ〜b", caret: 4),
            .playSound(.hee),
        ])
        #expect(session.hee.model.count == 1)
        #expect(session.hee.model.isTouching)
        #expect(session.pressedKeys == [.hee])
        #expect(session.document.textField.text == "aへぇ〜b")
        #expect(session.document.textField.caret == 4)

        let up = session.send(.pointerUp(.mouse, try session.center(of: .hee)), at: 1200)
        #expect(up.withoutDisplay == [.keyTouched(.hee, down: false)])
        #expect(!session.hee.model.isTouching)
        #expect(session.hee.model.count == 1)
    }

    @Test func movingWhileHeldNeverCountsAgain() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        session.send(.pointerDown(.mouse, hee), at: 1000)
        let path = [
            Point(x: hee.x + 5, y: hee.y + 5),
            try session.center(of: .letter("q")),
            session.layout.textField.center,
            Point(x: -50, y: -50),
            hee,
        ]
        var time = 1010
        for point in path {
            let effects = session.send(.pointerMoved(.mouse, point), at: time)
            #expect(effects.heeCounts.isEmpty)
            #expect(effects.texts.isEmpty)
            #expect(!effects.contains(.playSound(.hee)))
            #expect(!effects.contains { if case .keyTouched = $0 { true } else { false } })
            #expect(session.pressedKeys == [.hee])
            time += 10
        }
        #expect(session.hee.model.count == 1)
        #expect(session.document.textField.text == "へぇ〜")
        // Released far from the key: the press ends; the next press counts again.
        #expect(session.send(.pointerUp(.mouse, Point(x: -50, y: -50)), at: 1100).withoutDisplay
                == [.keyTouched(.hee, down: false)])
        #expect(session.send(.pointerDown(.mouse, hee), at: 1500).heeCounts == [2])
    }

    @Test func secondFingerOnHeeWhileMouseHoldsDoesNotCount() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        session.send(.pointerDown(.mouse, hee), at: 1000)
        let second = session.send(.pointerDown(.finger(7), hee), at: 1050)
        #expect(second.heeCounts.isEmpty)
        #expect(second.texts.isEmpty)
        #expect(!second.contains(.playSound(.hee)))
        #expect(session.hee.model.count == 1)
        // The button stays down while either pointer holds it.
        let mouseUp = session.send(.pointerUp(.mouse, hee), at: 1100)
        #expect(!mouseUp.contains(.keyTouched(.hee, down: false)))
        #expect(session.pressedKeys == [.hee])
        #expect(session.hee.model.isTouching)
        let fingerUp = session.send(.pointerUp(.finger(7), hee), at: 1150)
        #expect(fingerUp.contains(.keyTouched(.hee, down: false)))
        #expect(session.pressedKeys.isEmpty)
        #expect(session.send(.pointerDown(.finger(8), hee), at: 1300).heeCounts == [2])
        #expect(session.document.textField.text == "へぇ〜へぇ〜")
    }

    @Test func capSinksOverATenthOfASecondAndRisesOnRelease() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        #expect(session.capPress(at: ms(999)) == 0)
        session.send(.pointerDown(.mouse, hee), at: 1000)
        #expect(session.capPress(at: ms(1000)) == 0)
        #expect(session.isAnimating(at: ms(1000)))
        #expect(session.nextAnimationDeadline(after: ms(1000)) == ms(1100))
        var previous = -1.0
        for t in 1000...1100 {
            let value = session.capPress(at: ms(t))
            #expect(value >= previous)
            previous = value
        }
        #expect(session.capPress(at: ms(1050)) > 0 && session.capPress(at: ms(1050)) < 1)
        #expect(session.capPress(at: ms(1100)) == 1)
        #expect(!session.isAnimating(at: ms(1100)))
        #expect(session.nextAnimationDeadline(after: ms(1100)) == nil)
        #expect(session.capPress(at: ms(1500)) == 1)

        session.send(.pointerUp(.mouse, hee), at: 2000)
        #expect(session.capPress(at: ms(2000)) == 1)
        #expect(session.nextAnimationDeadline(after: ms(2000)) == ms(2100))
        previous = 2
        for t in 2000...2100 {
            let value = session.capPress(at: ms(t))
            #expect(value <= previous)
            previous = value
        }
        #expect(session.capPress(at: ms(2100)) == 0)
        #expect(!session.isAnimating(at: ms(2100)))
    }

    @Test func quickReleaseComesBackInTheTimeItWentDown() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        session.send(.pointerDown(.mouse, hee), at: 1000)
        session.send(.pointerUp(.mouse, hee), at: 1050)  // half-way down
        #expect(isClose(session.capPress(at: ms(1050)), 0.5))
        #expect(session.nextAnimationDeadline(after: ms(1050)) == ms(1100))
        #expect(session.capPress(at: ms(1100)) == 0)
    }

    // MARK: Shift (seed 002) through pointer events

    @Test(arguments: [(249, ShiftState.capsLock), (250, .off), (251, .off)])
    func shiftDoubleTapThroughPointers(gap: Int, expected: ShiftState) throws {
        var session = KeyboardSession.launched()
        let first = try session.tap(.shift, at: 3000, hold: 50)
        #expect(first.shiftStates == [.on])
        let second = try session.tap(.shift, at: 3000 + gap, hold: 50)
        #expect(second.shiftStates == [expected])
        #expect(session.modifiers.shift.state == expected)
    }

    @Test func shiftActsOnPressAndMovingDoesNotRetrigger() throws {
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift)
        #expect(session.send(.pointerDown(.mouse, shift), at: 1000).shiftStates == [.on])
        #expect(session.send(.pointerMoved(.mouse, try session.center(of: .letter("z"))), at: 1050).shiftStates.isEmpty)
        #expect(session.send(.pointerMoved(.mouse, shift), at: 1100).shiftStates.isEmpty)
        #expect(session.send(.pointerUp(.mouse, shift), at: 1150).shiftStates.isEmpty)
        #expect(session.modifiers.shift.state == .on)
    }

    // MARK: Letters

    @Test func lettersTypeOnRelease() throws {
        var session = KeyboardSession.launched()
        let h = try session.center(of: .letter("h"))
        let down = session.send(.pointerDown(.mouse, h), at: 1000)
        #expect(down.withoutDisplay == [.keyTouched(.letter("h"), down: true)])
        #expect(session.document.textField.text.isEmpty)
        let up = session.send(.pointerUp(.mouse, h), at: 1080)
        #expect(up.withoutDisplay == [.textChanged("h", caret: 1), .keyTouched(.letter("h"), down: false)])
        try session.tap(.space, at: 1200)
        try session.tap(.letter("i"), at: 1400)
        #expect(session.document.textField.text == "h i")
    }

    @Test func oneShotShiftTypesOneCapitalThenTurnsOff() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 1000)
        let h = try session.tap(.letter("h"), at: 2000)
        #expect(h.texts == ["H"])
        #expect(h.shiftStates == [.off])
        #expect(session.modifiers.shift.state == .off)
        try session.tap(.letter("i"), at: 3000)
        #expect(session.document.textField.text == "Hi")
    }

    @Test func capsLockTypesCapitalsAndStays() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 1000)
        try session.tap(.shift, at: 1100)
        #expect(session.modifiers.shift.state == .capsLock)
        for (i, letter) in "hey".enumerated() {
            let effects = try session.tap(.letter(letter), at: 2000 + 500 * i)
            #expect(effects.shiftStates.isEmpty)
        }
        #expect(session.document.textField.text == "HEY")
        #expect(session.modifiers.shift.state == .capsLock)
    }

    @Test func slidingToAnotherLetterTypesTheLetterAtRelease() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), s = try session.center(of: .letter("s"))
        session.send(.pointerDown(.mouse, a), at: 1000)
        let moved = session.send(.pointerMoved(.mouse, s), at: 1050)
        #expect(moved.withoutDisplay == [.keyTouched(.letter("a"), down: false), .keyTouched(.letter("s"), down: true)])
        #expect(session.pressedKeys == [.letter("s")])
        let up = session.send(.pointerUp(.mouse, s), at: 1100)
        #expect(up.texts == ["s"])
        #expect(session.document.textField.text == "s")
    }

    @Test func releasePointDecidesTheLetterEvenWithoutAMotionEvent() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.mouse, try session.center(of: .letter("a"))), at: 1000)
        session.send(.pointerUp(.mouse, try session.center(of: .letter("s"))), at: 1100)
        #expect(session.document.textField.text == "s")
        #expect(session.pressedKeys.isEmpty)
    }

    @Test func slidingOffTheKeyboardCancelsTheLetter() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.mouse, try session.center(of: .letter("a"))), at: 1000)
        let off = session.layout.textField.center
        let moved = session.send(.pointerMoved(.mouse, off), at: 1050)
        #expect(moved.withoutDisplay == [.keyTouched(.letter("a"), down: false)])
        #expect(session.pressedKeys.isEmpty)
        let up = session.send(.pointerUp(.mouse, off), at: 1100)
        #expect(up.texts.isEmpty)
        #expect(session.document.textField.text.isEmpty)
        #expect(session.hostScreen.isTextFieldFocused)
    }

    @Test func slidingALetterOntoHeeOrShiftDoesNotPressThem() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.mouse, try session.center(of: .letter("q"))), at: 1000)
        let onHee = session.send(.pointerMoved(.mouse, try session.center(of: .hee)), at: 1050)
        #expect(onHee.heeCounts.isEmpty)
        #expect(!onHee.contains(.playSound(.hee)))
        let onShift = session.send(.pointerMoved(.mouse, try session.center(of: .shift)), at: 1100)
        #expect(onShift.shiftStates.isEmpty)
        session.send(.pointerUp(.mouse, try session.center(of: .shift)), at: 1150)
        #expect(session.hee.model.count == 0)
        #expect(session.modifiers.shift.state == .off)
        #expect(session.document.textField.text.isEmpty)
    }

    @Test func backspaceDeletesOnPress() throws {
        var session = KeyboardSession.launched()
        session.send(.textInput("ab👍🏽"), at: 500)
        let point = try session.center(of: .backspace)
        let down = session.send(.pointerDown(.mouse, point), at: 1000)
        #expect(down.withoutDisplay == [.keyTouched(.backspace, down: true), .textChanged("ab", caret: 2)])
        let up = session.send(.pointerUp(.mouse, point), at: 1100)
        #expect(up.texts.isEmpty)
        #expect(session.document.textField.text == "ab")
    }

    // MARK: Closing and opening the keyboard (seed 001)

    @Test func closeButtonHidesOnReleaseAndReportsAtEndOfSlide() {
        var session = KeyboardSession.launched()
        let close = session.layout.closeKeyboard.center
        let down = session.send(.pointerDown(.mouse, close), at: 1000)
        #expect(!down.contains(.stopAudioEngine))
        #expect(session.pressedHostControl == .closeKeyboard)
        #expect(session.hostScreen.visibility.target == .show)

        let up = session.send(.pointerUp(.mouse, close), at: 1100)
        #expect(up.contains(.stopAudioEngine))
        #expect(up.contains(.stopTextInput))
        #expect(up.frameChanges.isEmpty)
        #expect(!session.hostScreen.isTextFieldFocused)
        #expect(session.pressedHostControl == nil)
        #expect(session.hostScreen.monitor.keyboardStatus == .show)
        #expect(session.isAnimating(at: ms(1100)))
        #expect(session.nextAnimationDeadline(after: ms(1100)) == ms(1350))
        #expect(session.keyboardOffset(at: ms(1100)) == 0)

        #expect(session.send(.tick, at: 1225).frameChanges.isEmpty)
        let half = session.keyboardOffset(at: ms(1225))
        #expect(half > 0 && half < session.layout.keyboardFrame.height)
        #expect(session.send(.tick, at: 1349).frameChanges.isEmpty)
        #expect(session.hostScreen.monitor.keyboardStatus == .show)

        let end = session.send(.tick, at: 1350)
        #expect(end.frameChanges == [.keyboardFrameChanged(.hide, .zero)])
        #expect(!end.contains(.stopAudioEngine))
        #expect(session.hostScreen.monitor.keyboardStatus == .hide)
        #expect(session.hostScreen.monitor.sizeText == "(0.0, 0.0)")
        #expect(session.keyboardOffset(at: ms(1350)) == session.layout.keyboardFrame.height)
        #expect(!session.isAnimating(at: ms(1350)))
        #expect(session.nextAnimationDeadline(after: ms(1350)) == nil)
        // Reported once.
        #expect(session.send(.tick, at: 2000).frameChanges.isEmpty)
    }

    @Test func closeButtonReleasedOutsideDoesNothing() {
        var session = KeyboardSession.launched()
        let close = session.layout.closeKeyboard
        session.send(.pointerDown(.mouse, close.center), at: 1000)
        session.send(.pointerMoved(.mouse, session.layout.sizeRow.center), at: 1050)
        let up = session.send(.pointerUp(.mouse, session.layout.sizeRow.center), at: 1100)
        #expect(!up.contains(.stopAudioEngine))
        #expect(session.hostScreen.visibility.target == .show)
        #expect(session.hostScreen.isTextFieldFocused)
        #expect(session.send(.tick, at: 2000).frameChanges.isEmpty)
        #expect(session.hostScreen.monitor.keyboardStatus == .show)
    }

    @Test func keysDoNotReactWhileHidingOrHidden() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee), q = try session.center(of: .letter("q"))
        let shift = try session.center(of: .shift), backspace = try session.center(of: .backspace)
        session.send(.textInput("x"), at: 500)
        session.click(.closeKeyboard, at: 1000)  // released at 1040: slide ends at 1290
        for time in [1100, 2000] {  // while sliding, then hidden
            for point in [hee, q, shift, backspace] {
                let effects = session.send(.pointerDown(.mouse, point), at: time)
                    + session.send(.pointerUp(.mouse, point), at: time + 20)
                #expect(!effects.contains { if case .keyTouched = $0 { true } else { false } })
                #expect(effects.texts.isEmpty)
                #expect(effects.heeCounts.isEmpty)
                #expect(!effects.contains(.playSound(.hee)))
            }
        }
        #expect(session.hee.model.count == 0)
        #expect(session.modifiers.shift.state == .off)
        #expect(session.document.textField.text == "x")
        #expect(session.pressedKeys.isEmpty)
    }

    @Test func closingReleasesHeldKeys() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(1), try session.center(of: .hee)), at: 1000)
        let effects = session.click(.closeKeyboard, at: 1200)
        #expect(effects.contains(.keyTouched(.hee, down: false)))
        #expect(session.pressedKeys.isEmpty)
        #expect(!session.hee.model.isTouching)
        // The finger lifting later types and counts nothing.
        let up = session.send(.pointerUp(.finger(1), try session.center(of: .hee)), at: 1300)
        #expect(up.texts.isEmpty && up.heeCounts.isEmpty)
    }

    @Test func clickingTextFieldShowsKeyboardAgain() throws {
        var session = KeyboardSession.launched()
        session.click(.closeKeyboard, at: 1000)
        session.send(.tick, at: 1290)
        #expect(session.hostScreen.monitor.keyboardStatus == .hide)

        let field = session.layout.textField.center
        let down = session.send(.pointerDown(.mouse, field), at: 3000)
        #expect(down.contains(.startAudioEngine))
        #expect(down.contains(.startTextInput(session.layout.textField)))
        #expect(down.frameChanges.isEmpty)
        #expect(session.hostScreen.isTextFieldFocused)
        #expect(session.keyboardOffset(at: ms(3000)) == session.layout.keyboardFrame.height)
        #expect(session.nextAnimationDeadline(after: ms(3000)) == ms(3250))
        let up = session.send(.pointerUp(.mouse, field), at: 3050)
        #expect(!up.contains(.startAudioEngine))
        // Keys stay inert during the slide in.
        #expect(session.send(.pointerDown(.finger(2), try session.center(of: .hee)), at: 3100).heeCounts.isEmpty)
        session.send(.pointerUp(.finger(2), try session.center(of: .hee)), at: 3120)
        #expect(session.send(.tick, at: 3249).frameChanges.isEmpty)

        let end = session.send(.tick, at: 3250)
        #expect(end.frameChanges == [.keyboardFrameChanged(.show, session.layout.keyboardFrame)])
        #expect(session.hostScreen.monitor.keyboardStatus == .show)
        #expect(session.keyboardOffset(at: ms(3250)) == 0)
        #expect(session.send(.pointerDown(.mouse, try session.center(of: .hee)), at: 4000).heeCounts == [1])
    }

    @Test func audioEngineStartsAndStopsOncePerShowAndHide() {
        var session = KeyboardSession.launched()
        var all: [KeyboardEffect] = []
        all += session.click(.closeKeyboard, at: 1000)
        all += session.click(.closeKeyboard, at: 1100)  // already hiding
        all += session.send(.tick, at: 2000)
        all += session.click(.closeKeyboard, at: 2100)  // already hidden
        all += session.click(.textField, at: 3000)
        all += session.click(.textField, at: 3100)  // already showing
        all += session.send(.tick, at: 4000)
        #expect(all.filter { $0 == .stopAudioEngine }.count == 1)
        #expect(all.filter { $0 == .startAudioEngine }.count == 1)
        #expect(all.frameChanges.count == 2)
    }

    @Test func reopeningHalfWayThroughTheSlideTakesHalfTheTime() {
        var session = KeyboardSession.launched()
        let close = session.layout.closeKeyboard.center
        session.send(.pointerDown(.mouse, close), at: 1000)
        session.send(.pointerUp(.mouse, close), at: 1000)
        let field = session.layout.textField.center
        let effects = session.send(.pointerDown(.mouse, field), at: 1125)
        #expect(effects.contains(.startAudioEngine))
        #expect(isClose(session.keyboardOffset(at: ms(1125)), session.layout.keyboardFrame.height / 2))
        #expect(session.nextAnimationDeadline(after: ms(1125)) == ms(1250))
        // The keyboard never reported hidden: it comes back to where it was.
        let end = session.send(.tick, at: 1250)
        #expect(end.frameChanges.isEmpty)
        #expect(session.hostScreen.monitor.keyboardStatus == .show)
        #expect(session.keyboardOffset(at: ms(1250)) == 0)
    }

    // MARK: Window size

    @Test func resizeWhileShownReportsNewLayoutAndFrame() throws {
        var session = KeyboardSession.launched()
        let newSize = Size(width: 800, height: 600)
        let expected = KeyboardLayout(windowSize: newSize)
        try #require(expected.keyboardFrame != session.layout.keyboardFrame)
        let effects = session.send(.windowResized(newSize), at: 1000)
        #expect(effects.contains(.layoutChanged))
        #expect(effects.contains(.startTextInput(expected.textField)))
        #expect(effects.frameChanges == [.keyboardFrameChanged(.show, expected.keyboardFrame)])
        #expect(session.layout == expected)
        #expect(session.hostScreen.monitor.sizeText == "(800.0, \(expected.keyboardFrame.height))")
        // Keys hit-test in the new layout.
        #expect(session.send(.pointerDown(.mouse, expected.heeFrame.center), at: 1100).heeCounts == [1])
        // Same size again: nothing new to report.
        let again = session.send(.windowResized(newSize), at: 1200)
        #expect(!again.contains(.layoutChanged))
        #expect(again.frameChanges.isEmpty)
    }

    @Test func resizeWhileHiddenReportsFrameOnlyWhenShownAgain() {
        var session = KeyboardSession.launched()
        session.click(.closeKeyboard, at: 1000)
        session.send(.tick, at: 2000)
        let newSize = Size(width: 1024, height: 1400)
        let expected = KeyboardLayout(windowSize: newSize)
        let effects = session.send(.windowResized(newSize), at: 2500)
        #expect(effects.contains(.layoutChanged))
        #expect(effects.frameChanges.isEmpty)
        #expect(!effects.contains { if case .startTextInput = $0 { true } else { false } })
        #expect(session.hostScreen.monitor.keyboardStatus == .hide)
        session.click(.textField, at: 3000)
        #expect(session.send(.tick, at: 3250).frameChanges == [.keyboardFrameChanged(.show, expected.keyboardFrame)])
    }

    // MARK: Physical keyboard

    @Test func physicalTypingOnlyWhileFocused() {
        var session = KeyboardSession.launched()
        #expect(session.send(.textInput("héllo"), at: 100).withoutDisplay == [.textChanged("héllo", caret: 5)])
        session.send(.editing(.move(.start)), at: 200)
        session.send(.editing(.move(.characterRight)), at: 210)
        session.send(.textInput("X"), at: 220)
        #expect(session.document.textField.text == "hXéllo")
        session.send(.editing(.move(.end)), at: 230)
        session.send(.editing(.deleteBackward), at: 240)
        session.send(.editing(.move(.characterLeft)), at: 250)
        #expect(session.document.textField.text == "hXéll")
        #expect(session.document.textField.caret == 4)

        session.click(.closeKeyboard, at: 1000)
        let before = session.document.textField
        #expect(session.send(.textInput("zz"), at: 1500).texts.isEmpty)
        for command in [EditingCommand.deleteBackward, .move(.characterLeft), .move(.characterRight), .move(.start), .move(.end)] {
            #expect(session.send(.editing(command), at: 1600).texts.isEmpty)
        }
        #expect(session.document.textField == before)

        session.click(.textField, at: 2000)
        #expect(session.send(.textInput("!"), at: 2100).texts == ["hXél!l"])
    }

    @Test func caretMovesAreReported() {
        var session = KeyboardSession.launched()
        session.send(.textInput("ab"), at: 100)
        #expect(session.send(.editing(.move(.characterLeft)), at: 200).withoutDisplay == [.textChanged("ab", caret: 1)])
        #expect(session.send(.editing(.move(.start)), at: 300).withoutDisplay == [.textChanged("ab", caret: 0)])
        #expect(session.send(.editing(.move(.characterLeft)), at: 400).withoutDisplay.isEmpty)  // already at start
    }

    // MARK: Cancellation

    @Test func pointersCancelledReleasesEverythingWithoutTyping() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(1), try session.center(of: .hee)), at: 1000)
        // After the へぇ button, so no later touch on a key commits it (iOS rollover); a
        // touch on a host control is not a key touch and commits nothing.
        session.send(.pointerDown(.mouse, try session.center(of: .letter("a"))), at: 1010)
        session.send(.pointerDown(.finger(2), session.layout.closeKeyboard.center), at: 1020)
        #expect(session.hee.model.count == 1)
        let text = session.document.textField

        let effects = session.send(.pointersCancelled, at: 1050)
        #expect(Set(effects.withoutDisplay) == [.keyTouched(.letter("a"), down: false), .keyTouched(.hee, down: false)])
        #expect(session.pressedKeys.isEmpty)
        #expect(session.pressedHostControl == nil)
        #expect(session.pointers.targets.isEmpty)
        #expect(!session.hee.model.isTouching)
        #expect(session.document.textField == text)
        #expect(session.hee.model.count == 1)

        // Releases that arrive afterwards do nothing.
        var late = session.send(.pointerUp(.mouse, try session.center(of: .letter("a"))), at: 1100)
        late += session.send(.pointerUp(.finger(2), session.layout.closeKeyboard.center), at: 1100)
        #expect(late.texts.isEmpty)
        #expect(!late.contains(.stopAudioEngine))
        #expect(session.hostScreen.visibility.target == .show)
        // The cap rises and the button counts again.
        #expect(session.capPress(at: ms(1200)) == 0)
        #expect(session.send(.pointerDown(.mouse, try session.center(of: .hee)), at: 1300).heeCounts == [2])
    }

    // MARK: Deadlines

    @Test func nextDeadlineAndIsAnimatingAgree() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        let close = session.layout.closeKeyboard.center, field = session.layout.textField.center
        // Press at 1000; a finger closes the keyboard at 1050 (the press ends, the cap
        // rises, the keyboard slides out); released at 2000; reopened at 2500.
        let inputs: [(Int, KeyboardInput)] = [
            (1000, .pointerDown(.mouse, hee)),
            (1050, .pointerDown(.finger(3), close)),
            (1050, .pointerUp(.finger(3), close)),
            (2000, .pointerUp(.mouse, hee)),
            (2500, .pointerDown(.mouse, field)),
            (2520, .pointerUp(.mouse, field)),
        ]
        var index = 0
        var sawAnimation = 0
        for t in stride(from: 900, through: 3000, by: 5) {
            while index < inputs.count, inputs[index].0 <= t {
                session.send(inputs[index].1, at: inputs[index].0)
                index += 1
            }
            let now = ms(t)
            let deadline = session.nextAnimationDeadline(after: now)
            #expect(session.isAnimating(at: now) == (deadline != nil), "at \(t) ms")
            if let deadline {
                sawAnimation += 1
                #expect(deadline > now)
                // The deadline is when one of the running animations ends.
                #expect(deadline == session.hee.cap.end || deadline == session.hostScreen.visibility.deadline(after: now))
            }
            // Nothing runs for long without input.
            #expect(!session.isAnimating(at: now + .seconds(1)))
        }
        #expect(sawAnimation > 0)
    }

    @Test func deadlineIsTheEarlierOfTwoAnimations() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.mouse, try session.center(of: .hee)), at: 1000)  // cap sinks until 1100
        let close = session.layout.closeKeyboard.center
        session.send(.pointerDown(.finger(1), close), at: 1040)
        session.send(.pointerUp(.finger(1), close), at: 1040)  // slide until 1290; cap rises from 40 %
        let capEnd = session.hee.cap.end
        #expect(capEnd > ms(1040) && capEnd < ms(1100))
        #expect(session.nextAnimationDeadline(after: ms(1040)) == capEnd)
        #expect(session.capPress(at: capEnd) == 0)
        #expect(session.nextAnimationDeadline(after: capEnd) == ms(1290))
        #expect(session.isAnimating(at: ms(1200)))
        #expect(!session.isAnimating(at: ms(1290)))
        #expect(session.nextAnimationDeadline(after: ms(1290)) == nil)
    }
}
