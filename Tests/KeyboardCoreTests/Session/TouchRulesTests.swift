import KeyboardCore
import Testing

/// Issue 3's touch rules on `KeyboardSession`, with a manual clock (milliseconds since the
/// session started; launch is at 0 ms).
@Suite("Touch rules (issue 3)")
struct TouchRulesTests {
    // MARK: Every pointer on its own

    @Test func mouseAndTwoFingersHoldKeysAndANewTouchCommitsTheHeldLetter() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        let q = try session.center(of: .letter("q")), p = try session.center(of: .letter("p"))

        #expect(session.send(.pointerDown(.mouse, hee), at: 1000).heeCounts == [1])
        let qDown = session.send(.pointerDown(.finger(1), q), at: 1010)
        #expect(qDown.withoutDisplay == [.keyTouched(.letter("q"), down: true)])
        // A second finger lands on 'p' while 'q' is held: 'q' types now (iOS rollover), its
        // key goes up, then 'p' goes down. The へぇ button, which acts on touch-down, stays.
        let pDown = session.send(.pointerDown(.finger(2), p), at: 1020)
        #expect(pDown.withoutDisplay == [
            .textChanged("へぇ〜q", caret: 4),
            .keyTouched(.letter("q"), down: false),
            .keyTouched(.letter("p"), down: true),
        ])
        #expect(session.pressedKeys == [.hee, .letter("p")])
        #expect(session.pointers.targets == [.mouse: .key(.hee), .finger(1): .none, .finger(2): .key(.letter("p"))])

        // Lifting the first finger does nothing more.
        let qUp = session.send(.pointerUp(.finger(1), q), at: 1100)
        #expect(qUp.withoutDisplay.isEmpty)
        #expect(session.pressedKeys == [.hee, .letter("p")])
        #expect(session.hee.model.isTouching)

        let mouseUp = session.send(.pointerUp(.mouse, hee), at: 1150)
        #expect(mouseUp.withoutDisplay == [.keyTouched(.hee, down: false)])
        #expect(session.pressedKeys == [.letter("p")])

        let pUp = session.send(.pointerUp(.finger(2), p), at: 1200)
        #expect(pUp.texts == ["へぇ〜qp"])
        #expect(session.pressedKeys.isEmpty)
        #expect(session.pointers.targets.isEmpty)
        #expect(session.hee.model.count == 1)
    }

    @Test func twoFingersOnHeeCountOnceAndReleaseWithTheLastFinger() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)

        let first = session.send(.pointerDown(.finger(1), hee), at: 1000)
        #expect(first.withoutDisplay == [
            .keyTouched(.hee, down: true),
            .heeCounted(1),
            .textChanged("へぇ〜", caret: 3),
            .playSound(.hee),
        ])
        // The second finger lands on a key that is already down: nothing happens.
        let second = session.send(.pointerDown(.finger(2), Point(x: hee.x + 20, y: hee.y - 10)), at: 1030)
        #expect(second.withoutDisplay.isEmpty)
        #expect(session.pressedKeys == [.hee])

        // The first finger lifts: the key stays down for the second.
        let firstUp = session.send(.pointerUp(.finger(1), hee), at: 1100)
        #expect(firstUp.withoutDisplay.isEmpty)
        #expect(session.pressedKeys == [.hee])
        #expect(session.hee.model.isTouching)
        #expect(session.capPress(at: ms(1200)) == 1)

        // The first finger comes back while the second still holds: the same press.
        let again = session.send(.pointerDown(.finger(1), hee), at: 1150)
        #expect(again.withoutDisplay.isEmpty)
        _ = session.send(.pointerUp(.finger(1), hee), at: 1180)

        let lastUp = session.send(.pointerUp(.finger(2), hee), at: 1250)
        #expect(lastUp.withoutDisplay == [.keyTouched(.hee, down: false)])
        #expect(session.pressedKeys.isEmpty)
        #expect(!session.hee.model.isTouching)
        #expect(session.hee.model.count == 1)
        #expect(session.document.textField.text == "へぇ〜")
        #expect(session.capPress(at: ms(1350)) == 0)
    }

    @Test func mouseAndFingerOnHeeCountOnce() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        var effects = session.send(.pointerDown(.finger(4), hee), at: 1000)
        effects += session.send(.pointerDown(.mouse, hee), at: 1010)
        effects += session.send(.pointerUp(.finger(4), hee), at: 1020)
        effects += session.send(.pointerUp(.mouse, hee), at: 1030)
        #expect(effects.heeCounts == [1])
        #expect(effects.filter { $0 == .playSound(.hee) }.count == 1)
        #expect(effects.filter { $0 == .keyTouched(.hee, down: true) }.count == 1)
        #expect(effects.filter { $0 == .keyTouched(.hee, down: false) }.count == 1)
    }

    @Test func shiftActsOncePerPressHoweverManyFingers() throws {
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift)

        #expect(session.send(.pointerDown(.finger(1), shift), at: 1000).shiftStates == [.on])
        #expect(session.modifiers.shift.isTouching)
        // More fingers on the held key, 10 ms apart (inside the double-tap window): no change.
        #expect(session.send(.pointerDown(.finger(2), shift), at: 1010).withoutDisplay.isEmpty)
        #expect(session.send(.pointerUp(.finger(1), shift), at: 1020).withoutDisplay.isEmpty)
        #expect(session.send(.pointerDown(.finger(1), shift), at: 1030).withoutDisplay.isEmpty)
        #expect(session.send(.pointerUp(.finger(1), shift), at: 1040).withoutDisplay.isEmpty)
        #expect(session.modifiers.shift.state == .on)
        #expect(session.modifiers.shift.isTouching)

        let last = session.send(.pointerUp(.finger(2), shift), at: 1100)
        #expect(last.withoutDisplay == [.keyTouched(.shift, down: false)])
        #expect(!session.modifiers.shift.isTouching)
        // A plain tap: shift stays on and types one capital.
        #expect(session.modifiers.shift.state == .on)
        let typed = try session.tap(.letter("x"), at: 1500)
        #expect(typed.texts == ["X"])
        #expect(typed.shiftStates == [.off])
    }

    // MARK: Letters commit on release

    @Test func letterTypesTheKeyUnderTheFingerWhenItLifts() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), s = try session.center(of: .letter("s"))
        let d = try session.center(of: .letter("d"))

        let down = session.send(.pointerDown(.finger(1), a), at: 1000)
        #expect(down.withoutDisplay == [.keyTouched(.letter("a"), down: true)])
        #expect(session.document.textField.text.isEmpty)

        let slide = session.send(.pointerMoved(.finger(1), s), at: 1050)
        #expect(slide.withoutDisplay == [
            .keyTouched(.letter("a"), down: false),
            .keyTouched(.letter("s"), down: true),
        ])
        #expect(session.send(.pointerMoved(.finger(1), d), at: 1060).texts.isEmpty)

        let up = session.send(.pointerUp(.finger(1), d), at: 1100)
        #expect(up.withoutDisplay == [
            .textChanged("d", caret: 1),
            .keyTouched(.letter("d"), down: false),
        ])
        #expect(session.pointers.targets.isEmpty)
    }

    @Test func slidingOffEveryKeyCancelsAndSlidingBackReArms() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), g = try session.center(of: .letter("g"))
        let offKeys = session.layout.sizeRow.center  // host screen, no key there

        session.send(.pointerDown(.finger(3), a), at: 1000)
        let off = session.send(.pointerMoved(.finger(3), offKeys), at: 1050)
        #expect(off.withoutDisplay == [.keyTouched(.letter("a"), down: false)])
        #expect(session.pointers[.finger(3)] == .key(nil))
        #expect(session.pressedKeys.isEmpty)

        // Lifted off the keys: cancelled.
        let cancelled = session.send(.pointerUp(.finger(3), offKeys), at: 1100)
        #expect(cancelled.withoutDisplay.isEmpty)
        #expect(session.document.textField.text.isEmpty)
        #expect(session.pointers.targets.isEmpty)

        // Off, then back onto a letter: the letter under the finger types.
        session.send(.pointerDown(.finger(3), a), at: 2000)
        session.send(.pointerMoved(.finger(3), offKeys), at: 2050)
        let back = session.send(.pointerMoved(.finger(3), g), at: 2100)
        #expect(back.withoutDisplay == [.keyTouched(.letter("g"), down: true)])
        let up = session.send(.pointerUp(.finger(3), g), at: 2150)
        #expect(up.texts == ["g"])
        #expect(session.document.textField.text == "g")
    }

    @Test func slidingALetterOntoBackspaceCancelsIt() throws {
        var session = KeyboardSession.launched()
        session.send(.textInput("xy"), at: 500)
        let m = try session.center(of: .letter("m")), backspace = try session.center(of: .backspace)
        session.send(.pointerDown(.mouse, m), at: 1000)
        let onto = session.send(.pointerMoved(.mouse, backspace), at: 1050)
        #expect(onto.withoutDisplay == [.keyTouched(.letter("m"), down: false)])
        let up = session.send(.pointerUp(.mouse, backspace), at: 1100)
        #expect(up.texts.isEmpty)
        #expect(session.document.textField.text == "xy")
        #expect(session.pointers.keyRepeat == nil)
    }

    // MARK: Shift held as a modifier

    @Test func shiftHeldAsModifierTypesCapitalsAndTurnsOffOnLift() throws {
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift)

        // Finger A holds shift: on at touch-down (seed 002).
        let down = session.send(.pointerDown(.finger(1), shift), at: 1000)
        #expect(down.withoutDisplay == [.keyTouched(.shift, down: true), .shiftChanged(.on)])

        // Finger B types two letters while shift is held: both upper case, shift stays on
        // (the one-shot is not consumed while held).
        let a = try session.tap(.letter("a"), at: 1020, hold: 20, pointer: .finger(2))
        #expect(a.texts == ["A"])
        #expect(a.shiftStates.isEmpty)
        #expect(session.modifiers.shift.state == .on)
        let b = try session.tap(.letter("b"), at: 1050, hold: 20, pointer: .finger(2))
        #expect(b.texts == ["AB"])
        #expect(b.shiftStates.isEmpty)
        #expect(session.modifiers.shift.state == .on)
        #expect(session.modifiers.shift.isChording)

        // Lifting shift after the chord leaves it off.
        let up = session.send(.pointerUp(.finger(1), shift), at: 1100)
        #expect(up.withoutDisplay == [.keyTouched(.shift, down: false), .shiftChanged(.off)])
        #expect(session.modifiers.shift.state == .off)
        #expect(!session.modifiers.shift.isTouching)

        // A tap 100 ms later (200 ms after the chord's touch-down) is a single tap, not the
        // second half of a double tap.
        let tap = try session.tap(.shift, at: 1200)
        #expect(tap.shiftStates == [.on])
        #expect(session.modifiers.shift.state == .on)
        let c = try session.tap(.letter("c"), at: 1600)
        #expect(c.texts == ["ABC"])
        #expect(c.shiftStates == [.off])
    }

    @Test func chordFromCapsLockAlsoEndsOff() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 1000)
        try session.tap(.shift, at: 1100)
        #expect(session.modifiers.shift.state == .capsLock)
        // Held again much later: a single touch-down from caps lock turns it off, but the
        // held key still types capitals, and the chord ends off.
        let shift = try session.center(of: .shift)
        session.send(.pointerDown(.finger(1), shift), at: 2000)
        let typed = try session.tap(.letter("k"), at: 2050, pointer: .finger(2))
        #expect(typed.texts == ["K"])
        session.send(.pointerUp(.finger(1), shift), at: 2200)
        #expect(session.modifiers.shift.state == .off)
        #expect(try session.tap(.letter("k"), at: 2400).texts == ["Kk"])
    }

    @Test func shiftHeldWithoutTypingIsATap() throws {
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift)
        session.send(.pointerDown(.finger(1), shift), at: 1000)
        let up = session.send(.pointerUp(.finger(1), shift), at: 3000)
        #expect(up.withoutDisplay == [.keyTouched(.shift, down: false)])
        #expect(session.modifiers.shift.state == .on)
        #expect(!session.modifiers.shift.isChording)
        let typed = try session.tap(.letter("z"), at: 3500)
        #expect(typed.texts == ["Z"])
        #expect(typed.shiftStates == [.off])
        #expect(try session.tap(.letter("z"), at: 3600).texts == ["Zz"])
    }

    // MARK: Lost releases

    @Test func mouseHoverWhileDownEndsALetterPressWithoutTyping() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a"))
        session.send(.pointerDown(.mouse, a), at: 1000)
        let hover = session.send(.pointerHover(.mouse, a), at: 1500)
        #expect(hover.withoutDisplay == [.keyTouched(.letter("a"), down: false)])
        #expect(session.pointers.targets.isEmpty)
        #expect(session.pressedKeys.isEmpty)
        #expect(session.document.textField.text.isEmpty)
        // A stray release afterwards does nothing either.
        #expect(session.send(.pointerUp(.mouse, a), at: 1600).withoutDisplay.isEmpty)
        #expect(session.document.textField.text.isEmpty)
        // Hovering while up is just hovering.
        #expect(session.send(.pointerHover(.mouse, a), at: 1700).withoutDisplay.isEmpty)
    }

    @Test func mouseHoverWhileDownEndsAHeePressWithoutCounting() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        session.send(.pointerDown(.mouse, hee), at: 1000)
        #expect(session.capPress(at: ms(1100)) == 1)
        let hover = session.send(.pointerHover(.mouse, Point(x: 10, y: 10)), at: 1200)
        #expect(hover.withoutDisplay == [.keyTouched(.hee, down: false)])
        #expect(hover.contains(.needsDisplay))
        #expect(!session.hee.model.isTouching)
        #expect(session.hee.model.count == 1)
        #expect(session.document.textField.text == "へぇ〜")
        // The cap rises back over 0.1 s.
        let animating = session.isAnimating(at: ms(1200))
        #expect(animating)
        #expect(session.nextAnimationDeadline(after: ms(1200)) == ms(1300))
        let halfWay = session.capPress(at: ms(1250))
        #expect(halfWay > 0 && halfWay < 1)
        #expect(session.capPress(at: ms(1300)) == 0)
        // The next press counts.
        #expect(session.send(.pointerDown(.mouse, hee), at: 1400).heeCounts == [2])
    }

    @Test func fingerDownAgainReleasesTheStalePressWithoutTyping() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), b = try session.center(of: .letter("b"))
        session.send(.pointerDown(.finger(7), a), at: 1000)
        let again = session.send(.pointerDown(.finger(7), b), at: 1100)
        #expect(again.withoutDisplay == [
            .keyTouched(.letter("a"), down: false),
            .keyTouched(.letter("b"), down: true),
        ])
        #expect(session.document.textField.text.isEmpty)
        #expect(session.pointers.targets == [.finger(7): .key(.letter("b"))])
        let up = session.send(.pointerUp(.finger(7), b), at: 1150)
        #expect(up.texts == ["b"])
        #expect(session.pressedKeys.isEmpty)
    }

    @Test func fingerDownAgainOnHeeReleasesTheStalePressAndCountsTheNewOne() throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        session.send(.pointerDown(.finger(7), hee), at: 1000)
        let again = session.send(.pointerDown(.finger(7), hee), at: 1300)
        #expect(again.withoutDisplay == [
            .keyTouched(.hee, down: false),
            .keyTouched(.hee, down: true),
            .heeCounted(2),
            .textChanged("へぇ〜へぇ〜", caret: 6),
            .playSound(.hee),
        ])
        session.send(.pointerUp(.finger(7), hee), at: 1350)
        #expect(session.pressedKeys.isEmpty)
        #expect(session.hee.model.count == 2)
    }

    @Test func focusLossWithSeveralPointersDownActsOnNothing() throws {
        var session = KeyboardSession.launched()
        session.send(.textInput("hello"), at: 500)
        session.send(.pointerDown(.mouse, try session.center(of: .hee)), at: 1000)
        session.send(.pointerDown(.finger(2), try session.center(of: .shift)), at: 1010)
        session.send(.pointerDown(.finger(3), try session.center(of: .backspace)), at: 1020)
        // Last, so no later touch commits it (iOS rollover).
        session.send(.pointerDown(.finger(1), try session.center(of: .letter("a"))), at: 1030)
        #expect(session.pressedKeys == [.hee, .letter("a"), .shift, .backspace])
        #expect(session.hee.model.count == 1)
        #expect(session.document.textField.text == "helloへぇ")
        #expect(session.modifiers.shift.isTouching)
        #expect(session.pointers.keyRepeat != nil)
        let field = session.document.textField

        let cancelled = session.send(.pointersCancelled, at: 1100)
        #expect(Set(cancelled.withoutDisplay) == [
            .keyTouched(.hee, down: false), .keyTouched(.letter("a"), down: false),
            .keyTouched(.shift, down: false), .keyTouched(.backspace, down: false),
        ])
        #expect(session.pointers.targets.isEmpty)
        #expect(session.pressedKeys.isEmpty)
        #expect(session.document.textField == field)
        #expect(session.hee.model.count == 1)
        #expect(!session.hee.model.isTouching)
        #expect(!session.modifiers.shift.isTouching)
        #expect(session.modifiers.shift.state == .on)  // a touch-down without a chord, like a tap
        #expect(session.pointers.keyRepeat == nil)

        // No repeat fires later, and stray releases do nothing.
        #expect(session.nextAnimationDeadline(after: ms(1300)) == nil)
        var later = session.send(.tick, at: 5000)
        later += session.send(.pointerUp(.finger(1), try session.center(of: .letter("a"))), at: 5100)
        later += session.send(.pointerUp(.finger(3), try session.center(of: .backspace)), at: 5100)
        #expect(later.texts.isEmpty)
        #expect(session.document.textField == field)
    }

    @Test func closingWhileOtherPointersHoldKeysReleasesEachOnce() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(2), try session.center(of: .hee)), at: 1000)
        session.send(.pointerDown(.finger(3), try session.center(of: .backspace)), at: 1010)
        // Last, so no later touch commits it (iOS rollover).
        session.send(.pointerDown(.finger(1), try session.center(of: .letter("w"))), at: 1020)
        let effects = session.click(.closeKeyboard, at: 1100)
        for key in [KeyID.letter("w"), .hee, .backspace] {
            #expect(effects.filter { $0 == .keyTouched(key, down: false) }.count == 1, "\(key)")
        }
        #expect(effects.texts.isEmpty)
        #expect(effects.contains(.stopAudioEngine))
        #expect(session.pressedKeys.isEmpty)
        #expect(session.pointers.keyRepeat == nil)
        #expect(session.pointers.targets.count == 3)  // the fingers are still down, holding nothing
        var late = session.send(.pointerUp(.finger(1), try session.center(of: .letter("w"))), at: 1200)
        late += session.send(.pointerUp(.finger(2), try session.center(of: .hee)), at: 1200)
        late += session.send(.pointerUp(.finger(3), try session.center(of: .backspace)), at: 1200)
        #expect(late.withoutDisplay.isEmpty)
        #expect(session.hee.model.count == 1)
    }

    // MARK: Backspace repeat

    static let alphabet = "abcdefghijklmnopqrstuvwxyz"

    /// A session whose text field holds `text`, caret at the end.
    static func session(with text: String) -> KeyboardSession {
        var session = KeyboardSession.launched()
        session.send(.textInput(text), at: 100)
        return session
    }

    @Test func keyRepeatsAfterHalfASecondThenEveryTenth() throws {
        var session = Self.session(with: Self.alphabet)
        let down = session.send(.pointerDown(.finger(1), try session.center(of: .backspace)), at: 1000)
        #expect(down.texts == ["abcdefghijklmnopqrstuvwxy"])
        #expect(session.nextAnimationDeadline(after: ms(1000)) == ms(1500))

        #expect(session.send(.tick, at: 1499).texts.isEmpty)
        #expect(session.send(.tick, at: 1500).texts == ["abcdefghijklmnopqrstuvwx"])
        #expect(session.nextAnimationDeadline(after: ms(1500)) == ms(1600))
        #expect(session.send(.tick, at: 1599).texts.isEmpty)
        #expect(session.send(.tick, at: 1600).texts == ["abcdefghijklmnopqrstuvw"])
        #expect(session.send(.tick, at: 1650).texts.isEmpty)
        #expect(session.nextAnimationDeadline(after: ms(1650)) == ms(1700))
        #expect(session.send(.tick, at: 1700).texts == ["abcdefghijklmnopqrstuv"])
    }

    @Test func repeatsComeFromTimestampsNotFromHowOftenTimeIsReported() throws {
        let text = (0..<30).map { i in String(repeating: String(Array(Self.alphabet)[i % 26]), count: 3) }
            .joined(separator: " ")
        var fine = Self.session(with: text)
        var coarse = fine
        let backspace = try fine.center(of: .backspace)
        fine.send(.pointerDown(.mouse, backspace), at: 1000)
        coarse.send(.pointerDown(.mouse, backspace), at: 1000)

        var fineTexts: [String] = []
        for t in stride(from: 1007, through: 4000, by: 7) {
            fineTexts += fine.send(.tick, at: t).texts
        }
        fineTexts += fine.send(.tick, at: 4000).texts
        let coarseTexts = coarse.send(.tick, at: 4000).texts

        // Repeats at 1500, 1600, ..., 4000: 26 of them, each its own edit.
        #expect(coarseTexts.count == 26)
        #expect(fineTexts.count == coarseTexts.count)
        let firstDifference = zip(fineTexts, coarseTexts).enumerated().first { $1.0 != $1.1 }?.offset
        #expect(firstDifference == nil)
        #expect(coarse.document.textField == fine.document.textField)
        #expect(coarse.pointers.keyRepeat == fine.pointers.keyRepeat)
        #expect(coarse.pointers.keyRepeat?.nextFire == ms(4100))
        let sameSession = coarse == fine
        #expect(sameSession, "the whole session state is the same either way")
    }

    @Test func fromTwoSecondsEachRepeatDeletesAWord() throws {
        var session = Self.session(with: "aaa bbb ccc ddd eee fff ggg hhh iii jjj")  // 39 characters
        let backspace = try session.center(of: .backspace)
        session.send(.pointerDown(.finger(1), backspace), at: 1000)  // 1 character
        // Repeats at 1500 ... 2900 delete one character each: 15 more.
        session.send(.tick, at: 2999)
        #expect(session.document.textField.text == "aaa bbb ccc ddd eee fff")
        // From 2 s after the press, whole words (and the spaces before the caret).
        #expect(session.send(.tick, at: 3000).texts == ["aaa bbb ccc ddd eee "])
        #expect(session.send(.tick, at: 3100).texts == ["aaa bbb ccc ddd "])
        #expect(session.send(.tick, at: 3250).texts == ["aaa bbb ccc "])
        #expect(session.document.textField.caret == 12)
        // Several words at once when time jumps.
        #expect(session.send(.tick, at: 3500).texts == ["aaa bbb ", "aaa ", ""])
        #expect(session.send(.tick, at: 3600).texts.isEmpty)
        #expect(!session.document.textField.hasText)
        // Still held, but with nothing to delete the repeat waits (issue 11: an empty field
        // stops repeating), with no deadline, until there is something to delete again.
        #expect(session.pressedKeys == [.backspace])
        #expect(session.pointers.keyRepeat?.isIdle == true)
        #expect(session.nextAnimationDeadline(after: ms(3600)) == nil)
    }

    @Test func releasingBackspaceStopsTheRepeat() throws {
        var session = Self.session(with: Self.alphabet)
        let backspace = try session.center(of: .backspace)
        session.send(.pointerDown(.mouse, backspace), at: 1000)
        session.send(.tick, at: 1600)
        #expect(session.document.textField.count == 23)
        let up = session.send(.pointerUp(.mouse, backspace), at: 1650)
        #expect(up.withoutDisplay == [.keyTouched(.backspace, down: false)])
        #expect(session.pointers.keyRepeat == nil)
        #expect(session.nextAnimationDeadline(after: ms(1650)) == nil)
        #expect(session.send(.tick, at: 5000).texts.isEmpty)
        #expect(session.document.textField.count == 23)
    }

    @Test func releaseAtTheInstantARepeatIsDueWinsTheTie() throws {
        var session = Self.session(with: Self.alphabet)
        let backspace = try session.center(of: .backspace)
        session.send(.pointerDown(.mouse, backspace), at: 1000)
        #expect(session.document.textField.count == 25)
        // The first repeat is due at 1500 ms, exactly when backspace comes up: no repeat.
        let up = session.send(.pointerUp(.mouse, backspace), at: 1500)
        #expect(up.withoutDisplay == [.keyTouched(.backspace, down: false)])
        #expect(session.document.textField.count == 25)
        #expect(session.send(.tick, at: 1500).texts.isEmpty)
        #expect(session.document.textField.count == 25)

        // The same with a later repeat (due at 1700 ms) and a finger.
        session.send(.pointerDown(.finger(4), backspace), at: 3000)
        #expect(session.send(.tick, at: 3600).texts.count == 2)  // 3500, 3600
        #expect(session.document.textField.count == 22)
        #expect(session.send(.pointerUp(.finger(4), backspace), at: 3700).texts.isEmpty)
        #expect(session.document.textField.count == 22)
    }

    @Test func releaseOneMillisecondAfterARepeatIsDueComesAfterIt() throws {
        var session = Self.session(with: Self.alphabet)
        let backspace = try session.center(of: .backspace)
        session.send(.pointerDown(.mouse, backspace), at: 1000)
        let up = session.send(.pointerUp(.mouse, backspace), at: 1501)
        #expect(up.texts.count == 1)
        #expect(session.document.textField.count == 24)
    }

    @Test func aRepeatDueWithAnotherInputWaitsForTheTickAtThatInstant() throws {
        var session = Self.session(with: "ab")
        let backspace = try session.center(of: .backspace)
        session.send(.pointerDown(.mouse, backspace), at: 1000)
        #expect(session.document.textField.text == "a")
        // Typing at the instant the repeat is due goes first; the repeat then fires on the
        // tick at that same instant (the app ticks after every input of an instant).
        let typed = session.send(.textInput("x"), at: 1500)
        #expect(typed.texts == ["ax"])
        #expect(session.nextAnimationDeadline(after: ms(1500)) == ms(1500))
        #expect(session.send(.tick, at: 1500).texts == ["a"])
        #expect(session.nextAnimationDeadline(after: ms(1500)) == ms(1600))
    }

    @Test func fingerJitterDoesNotStopTheRepeat() throws {
        var session = Self.session(with: Self.alphabet)
        let rect = try #require(session.layout.keys[.backspace])
        let c = rect.center
        session.send(.pointerDown(.finger(2), c), at: 1000)
        // Jitter on the key and a few points past its edges, between repeats.
        let jitter = [
            Point(x: c.x + 3, y: c.y - 2), Point(x: rect.maxX + 2, y: c.y), Point(x: c.x, y: rect.maxY + 3),
            Point(x: rect.minX - 4, y: rect.minY - 2), Point(x: c.x - 1, y: c.y + 1),
        ]
        var texts: [String] = []
        var t = 1030
        for round in 0..<4 {
            for point in jitter {
                let effects = session.send(.pointerMoved(.finger(2), point), at: t)
                #expect(!effects.contains(.keyTouched(.backspace, down: false)), "round \(round) at \(t) ms")
                texts += effects.texts
                t += 37
            }
        }
        // 1030 + 20 × 37 = 1770: moves up to 1733 ms; repeats at 1500, 1600, 1700.
        #expect(texts.count == 3)
        #expect(session.pressedKeys == [.backspace])
        #expect(session.nextAnimationDeadline(after: ms(1733)) == ms(1800))
        #expect(session.document.textField.count == 22)
    }

    @Test func nextDeadlineFollowsTheRepeatWhileHeld() throws {
        var session = Self.session(with: String(repeating: "x", count: 100))
        session.send(.pointerDown(.mouse, try session.center(of: .backspace)), at: 2000)
        #expect(session.nextAnimationDeadline(after: ms(2000)) == ms(2500))
        let animating = session.isAnimating(at: ms(2000))
        #expect(!animating)  // a repeat is not an animation
        var expected = 2500
        for t in [2100, 2499, 2500, 2550, 2600, 2601, 2999, 3333] {
            session.send(.tick, at: t)
            while expected <= t { expected += 100 }
            #expect(session.nextAnimationDeadline(after: ms(t)) == ms(expected), "at \(t) ms")
            #expect(session.pointers.keyRepeat?.nextFire == ms(expected))
        }
    }

    // MARK: Rapid presses

    @Test(arguments: ["mouse", "alternating fingers"])
    func tenRapidHeePressesGiveTenCountsInsertionsAndSounds(_ by: String) throws {
        var session = KeyboardSession.launched()
        let hee = try session.center(of: .hee)
        var effects: [KeyboardEffect] = []
        for i in 0..<10 {
            let pointer: PointerID = by == "mouse" ? .mouse : .finger(Int64(1 + i % 2))
            let down = 1000 + 100 * i
            effects += session.send(.pointerDown(pointer, hee), at: down)
            effects += session.send(.pointerUp(pointer, hee), at: down + 50)
        }
        #expect(effects.heeCounts == Array(1...10))
        #expect(effects.filter { $0 == .playSound(.hee) }.count == 10)
        #expect(effects.texts.count == 10)
        #expect(effects.texts.last == String(repeating: "へぇ〜", count: 10))
        #expect(session.hee.model.count == 10)
        #expect(session.document.textField.count == 30)
        #expect(session.pressedKeys.isEmpty)
    }
}

/// Redraw only when something visible changed (STYLE: "Redraw only when state changed").
struct RedrawTests {
    @Test func hoverAndIdleTicksDoNotAskForAFrame() throws {
        var session = KeyboardSession.launched()
        let p = try session.center(of: .letter("g"))
        #expect(!session.send(.pointerHover(.mouse, p), at: 5_000).contains(.needsDisplay))
        #expect(!session.send(.tick, at: 6_000).contains(.needsDisplay))
        #expect(session.send(.pointerDown(.mouse, p), at: 7_000).contains(.needsDisplay))
    }
}
