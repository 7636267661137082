import KeyboardCore
import Testing

/// The `Modifiers` part alone: seed 002's rules for shift, Ctrl and Alt, the effects that
/// report them, what goes with the next key, and the revision that says what is drawn.
@Suite("Modifiers (part)")
struct ModifiersTests {
    @Test func aTapLatchesAndATapAgainTurnsOff() {
        var modifiers = Modifiers()
        #expect(modifiers.touched(.shift, down: true, at: ms(0)) == [.shiftChanged(.on)])
        #expect(modifiers.touched(.shift, down: false, at: ms(40)).isEmpty)
        #expect(modifiers.shift.state == .on)
        #expect(modifiers.touched(.shift, down: true, at: ms(1_000)) == [.shiftChanged(.off)])
    }

    @Test func aDoubleTapWithinTheIntervalLocks() {
        var modifiers = Modifiers()
        _ = modifiers.touched(.desktop(.ctrl), down: true, at: ms(0))
        _ = modifiers.touched(.desktop(.ctrl), down: false, at: ms(40))
        #expect(modifiers.touched(.desktop(.ctrl), down: true, at: ms(249)) == [.modifierChanged(.ctrl, .capsLock)])
        #expect(modifiers.ctrl.state == .capsLock)
        #expect(modifiers.alt.state == .off && modifiers.shift.state == .off)
    }

    @Test func activeHoldsCtrlAndAltLatchedLockedOrHeld() {
        var modifiers = Modifiers()
        #expect(modifiers.active.isEmpty)
        _ = modifiers.touched(.desktop(.ctrl), down: true, at: ms(0))
        _ = modifiers.touched(.desktop(.ctrl), down: false, at: ms(40))
        _ = modifiers.touched(.desktop(.alt), down: true, at: ms(500))
        #expect(modifiers.active == [.control, .alt])
        _ = modifiers.touched(.shift, down: true, at: ms(600))
        #expect(modifiers.active == [.control, .alt], "shift is not one of them")
    }

    @Test func aKeyActingUsesUpLatchedCtrlAndAltButNotHeldOnes() {
        var modifiers = Modifiers()
        _ = modifiers.touched(.desktop(.ctrl), down: true, at: ms(0))
        _ = modifiers.touched(.desktop(.ctrl), down: false, at: ms(40))
        _ = modifiers.touched(.desktop(.alt), down: true, at: ms(500))
        #expect(modifiers.keyActed() == [.modifierChanged(.ctrl, .off)])
        #expect(modifiers.active == [.alt], "Alt is held: a chord")
        #expect(modifiers.keyActed().isEmpty)
        #expect(modifiers.touched(.desktop(.alt), down: false, at: ms(900)) == [.modifierChanged(.alt, .off)])
    }

    @Test func aLetterUsesUpAOneShotShiftTextWithoutCaseDoesNot() {
        var modifiers = Modifiers()
        _ = modifiers.touched(.shift, down: true, at: ms(0))
        _ = modifiers.touched(.shift, down: false, at: ms(40))
        #expect(modifiers.letterTyped("1").isEmpty)
        #expect(modifiers.letterTyped("?").isEmpty)
        #expect(modifiers.shift.state == .on)
        #expect(modifiers.letterTyped("é") == [.shiftChanged(.off)])
        #expect(modifiers.letterTyped("a").isEmpty)
    }

    @Test func casedFollowsShiftAndKeepsLongerUpperCases() {
        var modifiers = Modifiers()
        #expect(modifiers.cased("A") == "a")
        _ = modifiers.touched(.shift, down: true, at: ms(0))
        #expect(modifiers.cased("a") == "A")
        #expect(modifiers.cased("ß") == "ß", "SS is longer: the letter keeps its form")
        #expect(modifiers.cased("1") == "1")
        #expect(Modifiers.hasCase("é") && !Modifiers.hasCase("7"))
    }

    @Test func theRevisionCountsWhatIsDrawn() {
        var modifiers = Modifiers()
        let start = modifiers.revision
        _ = modifiers.touched(.shift, down: true, at: ms(0))
        let held = modifiers.revision
        #expect(held != start, "shift on and held: labels go upper case")
        _ = modifiers.letterTyped("a")
        #expect(modifiers.revision == held, "a chord begins: nothing drawn changes")
        _ = modifiers.touched(.shift, down: false, at: ms(100))
        #expect(modifiers.revision != held, "the chord ends: shift off")
        let off = modifiers.revision
        #expect(modifiers.keyActed().isEmpty)
        #expect(modifiers.revision == off)
    }
}
