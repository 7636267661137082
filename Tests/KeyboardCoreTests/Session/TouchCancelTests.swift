import KeyboardCore
import Testing

/// Issue 19: touches the compositor takes back (`wl_touch.cancel`), and touches the session
/// never saw begin (a finger that was down before the window existed).
@Suite("Cancelled and stray touches (issue 19)")
struct TouchCancelTests {
    @Test func touchesCancelledEndsEveryFingerWithoutTyping() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(1), try session.center(of: .hee)), at: 1000)
        // After the へぇ button, so nothing commits it (iOS rollover).
        session.send(.pointerDown(.finger(2), try session.center(of: .letter("a"))), at: 1010)
        session.send(.pointerDown(.finger(3), session.layout.closeKeyboard.center), at: 1020)
        #expect(session.pressedKeys == [.hee, .letter("a")])
        let field = session.document.textField

        let effects = session.send(.touchesCancelled, at: 1050)
        #expect(Set(effects.withoutDisplay) == [.keyTouched(.hee, down: false), .keyTouched(.letter("a"), down: false)])
        #expect(session.pointers.targets.isEmpty)
        #expect(session.pressedKeys.isEmpty)
        #expect(session.document.textField == field)
        #expect(session.hee.model.count == 1)
        #expect(!session.hee.model.isTouching)

        // The fingers' later releases (a compositor sends none; SDL makes one when the id
        // goes down again) act on nothing: the close button stays, no letter types.
        var late = session.send(.pointerUp(.finger(2), try session.center(of: .letter("a"))), at: 1100)
        late += session.send(.pointerUp(.finger(3), session.layout.closeKeyboard.center), at: 1100)
        #expect(late.withoutDisplay.isEmpty)
        #expect(session.hostScreen.visibility.target == .show)
        // The same finger id types again once it goes down anew.
        let again = try session.tap(.letter("b"), at: 1200, pointer: .finger(2))
        #expect(again.texts == ["へぇ〜b"])
    }

    /// A finger holding a key past the hold delay has its alternates bubble open when the
    /// compositor takes it back: the bubble closes and nothing types (found when issue 19's
    /// touch tests met issue 20's alternates: the cancel never arrived, then never closed it).
    @Test func touchesCancelledClosesAnOpenBubbleWithoutTyping() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(1), try session.center(of: .letter("a"))), at: 1000)
        session.send(.tick, at: 1000 + 500)
        #expect(session.pointers.bubble?.key == .letter("a"))
        let effects = session.send(.touchesCancelled, at: 1600)
        #expect(effects.withoutDisplay == [.keyTouched(.letter("a"), down: false)])
        #expect(session.pointers.bubble == nil && session.pointers.hold == nil && session.pointers.targets.isEmpty)
        #expect(session.document.textField.text.isEmpty)
    }

    @Test func touchesCancelledLeavesTheMousePress() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.mouse, try session.center(of: .hee)), at: 1000)
        session.send(.pointerDown(.finger(4), try session.center(of: .letter("s"))), at: 1010)
        let effects = session.send(.touchesCancelled, at: 1020)
        #expect(effects.withoutDisplay == [.keyTouched(.letter("s"), down: false)])
        #expect(session.pressedKeys == [.hee])
        #expect(session.pointers.targets.keys.sorted { $0.description < $1.description } == [.mouse])
        let up = session.send(.pointerUp(.mouse, try session.center(of: .hee)), at: 1100)
        #expect(up.withoutDisplay == [.keyTouched(.hee, down: false)])
        #expect(session.document.textField.text == "へぇ〜")
    }

    @Test func touchesCancelledWithNoFingerDownChangesNothing() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.mouse, try session.center(of: .letter("m"))), at: 1000)
        #expect(session.send(.touchesCancelled, at: 1010).withoutDisplay.isEmpty)
        #expect(session.send(.pointerUp(.mouse, try session.center(of: .letter("m"))), at: 1050).texts == ["m"])
    }

    @Test func aFingerThatWentDownBeforeTheWindowExistedDoesNothing() throws {
        // Its down went elsewhere: the session sees it move over the keys and lift.
        var session = KeyboardSession.launched()
        var effects = session.send(.pointerMoved(.finger(5), try session.center(of: .letter("a"))), at: 1000)
        effects += session.send(.pointerMoved(.finger(5), try session.center(of: .hee)), at: 1010)
        effects += session.send(.pointerUp(.finger(5), try session.center(of: .hee)), at: 1020)
        #expect(effects.withoutDisplay.isEmpty)
        #expect(session.pointers.targets.isEmpty)
        #expect(session.hee.model.count == 0)
        #expect(session.document.textField.text.isEmpty)
        // It does not hold up the next touch either.
        #expect(try session.tap(.letter("a"), at: 1100, pointer: .finger(5)).texts == ["a"])
    }
}
