import KeyboardCore
import Testing

/// Issue 12's iOS rollover: when a touch begins on a key while a letter is held, that letter
/// commits at that moment (with the shift state of that moment) and its later release does
/// nothing more, so overlapping presses type in the order they were pressed.
///
/// The generated tests play every ordering of two and three overlapping letter presses (each
/// press goes down before it comes up; the mouse and fingers mixed), starting with shift off,
/// on and caps lock, and compare the session with the rule stated on its own terms below
/// (`Expectation`), not with the session's code.
@Suite("iOS rollover (issue 12)")
struct RolloverTests {
    /// One step of an ordering: press `index` goes down or comes up.
    struct Step: Hashable, CustomStringConvertible {
        var index: Int
        var down: Bool
        var description: String { "\(down ? "d" : "u")\(index)" }
    }

    /// Every ordering of the downs and ups of `count` presses in which each press goes down
    /// before it comes up: 6 for two presses, 90 for three.
    static func orderings(of count: Int) -> [[Step]] {
        var result: [[Step]] = []
        func extend(_ prefix: [Step], downs: Set<Int>, ups: Set<Int>) {
            if ups.count == count {
                result.append(prefix)
                return
            }
            for i in 0..<count {
                if !downs.contains(i) {
                    extend(prefix + [Step(index: i, down: true)], downs: downs.union([i]), ups: ups)
                } else if !ups.contains(i) {
                    extend(prefix + [Step(index: i, down: false)], downs: downs, ups: ups.union([i]))
                }
            }
        }
        extend([], downs: [], ups: [])
        return result
    }

    /// The rule, stated independently of the session: press `i` commits at the first of two
    /// moments — its own release, or the next touch-down after it went down. Letters are
    /// typed in that order; shift `off` types lower case, `capsLock` upper case, `on` the
    /// first letter committed upper case and the rest lower case, then turns off.
    struct Expectation {
        /// After each step: the text, the keys held, and the shift state.
        var texts: [String] = []
        var held: [Set<Int>] = []
        var shifts: [ShiftState] = []

        init(_ steps: [Step], letters: [Character], shift initial: ShiftState) {
            let downAt = Dictionary(uniqueKeysWithValues: steps.enumerated().filter { $0.element.down }.map { ($0.element.index, $0.offset) })
            let upAt = Dictionary(uniqueKeysWithValues: steps.enumerated().filter { !$0.element.down }.map { ($0.element.index, $0.offset) })
            var commitAt: [Int: Int] = [:]
            for (i, down) in downAt {
                let nextDown = steps.indices.first { $0 > down && steps[$0].down }
                commitAt[i] = min(upAt[i]!, nextDown ?? Int.max)
            }
            for step in steps.indices {
                let committed = commitAt.filter { $0.value <= step }.sorted { $0.value < $1.value }.map(\.key)
                var text = ""
                for (n, i) in committed.enumerated() {
                    let upper = initial == .capsLock || (initial == .on && n == 0)
                    text += upper ? String(letters[i]).uppercased() : String(letters[i])
                }
                texts.append(text)
                held.append(Set(downAt.filter { $0.value <= step && commitAt[$0.key]! > step }.map(\.key)))
                shifts.append(initial == .on && !committed.isEmpty ? .off : initial)
            }
        }
    }

    /// A session with shift set to `state` by tapping it (long before the presses).
    static func session(shift state: ShiftState) throws -> KeyboardSession {
        var session = KeyboardSession.launched()
        switch state {
        case .off: break
        case .on: try session.tap(.shift, at: 100)
        case .capsLock:
            try session.tap(.shift, at: 100)
            try session.tap(.shift, at: 200)
        }
        #expect(session.modifiers.shift.state == state)
        return session
    }

    static let pointerSets: [[PointerID]] = [
        [.finger(1), .finger(2), .finger(3)],
        [.mouse, .finger(1), .finger(2)],
        [.finger(5), .mouse, .finger(2)],
        [.finger(9), .finger(4), .mouse],
    ]

    /// Plays `steps` (50 ms apart) and checks the session after each against `Expectation`.
    static func check(_ steps: [Step], letters: [Character], pointers: [PointerID], shift: ShiftState) throws {
        var session = try session(shift: shift)
        let expected = Expectation(steps, letters: letters, shift: shift)
        let label = "\(steps) letters \(String(letters)) pointers \(pointers) shift \(shift)"
        var time = 2000
        for (n, step) in steps.enumerated() {
            let point = try session.center(of: .letter(letters[step.index]))
            let id = pointers[step.index]
            let effects = session.send(step.down ? .pointerDown(id, point) : .pointerUp(id, point), at: time)
            time += 50
            #expect(session.document.textField.text == expected.texts[n], "after \(step) of \(label)")
            #expect(session.document.textField.caret == expected.texts[n].count, "caret after \(step) of \(label)")
            #expect(session.modifiers.shift.state == expected.shifts[n], "shift after \(step) of \(label)")
            // Only the letter waiting to be typed is drawn pressed (with its callout).
            #expect(session.pressedKeys == Set(expected.held[n].map { KeyID.letter(letters[$0]) }),
                    "keys held after \(step) of \(label)")
            // Each step types at most one letter, and reports it.
            let before = n == 0 ? "" : expected.texts[n - 1]
            #expect(effects.texts == (before == expected.texts[n] ? [] : [expected.texts[n]]), "text effects of \(step) of \(label)")
        }
        #expect(session.pointers.targets.isEmpty)
    }

    @Test func orderingsAreAllTheInterleavings() {
        #expect(Self.orderings(of: 2).count == 6)
        #expect(Self.orderings(of: 3).count == 90)
        #expect(Set(Self.orderings(of: 3)).count == 90)
        for ordering in Self.orderings(of: 3) {
            for i in 0..<3 {
                let down = ordering.firstIndex(of: Step(index: i, down: true))!
                let up = ordering.firstIndex(of: Step(index: i, down: false))!
                #expect(down < up)
            }
        }
    }

    @Test(arguments: ShiftState.allCases)
    func everyOrderingOfTwoOverlappingPresses(shift: ShiftState) throws {
        for steps in Self.orderings(of: 2) {
            for pointers in Self.pointerSets {
                try Self.check(steps, letters: ["h", "e"], pointers: pointers, shift: shift)
            }
        }
    }

    @Test(arguments: ShiftState.allCases)
    func everyOrderingOfThreeOverlappingPresses(shift: ShiftState) throws {
        for steps in Self.orderings(of: 3) {
            for pointers in Self.pointerSets {
                try Self.check(steps, letters: ["t", "h", "e"], pointers: pointers, shift: shift)
            }
        }
    }

    @Test func theExpectationItselfForTheIssuesCase() {
        // Shift on; finger 1 down on h; finger 2 down on e; finger 2 up; finger 1 up.
        let steps = [Step(index: 0, down: true), Step(index: 1, down: true), Step(index: 1, down: false),
                     Step(index: 0, down: false)]
        let expected = Expectation(steps, letters: ["h", "e"], shift: .on)
        #expect(expected.texts == ["", "H", "He", "He"])
        #expect(expected.shifts == [.on, .off, .off, .off])
        #expect(expected.held == [[0], [1], [], []])
    }

    // MARK: The issue's case, step by step

    @Test func shiftTapThenHAndEOverlappingTypesHe() throws {
        var session = try Self.session(shift: .on)
        let h = try session.center(of: .letter("h")), e = try session.center(of: .letter("e"))
        #expect(session.send(.pointerDown(.finger(1), h), at: 1000).withoutDisplay == [.keyTouched(.letter("h"), down: true)])
        let eDown = session.send(.pointerDown(.finger(2), e), at: 1080)
        #expect(eDown.withoutDisplay == [
            .textChanged("H", caret: 1),
            .shiftChanged(.off),
            .keyTouched(.letter("h"), down: false),
            .keyTouched(.letter("e"), down: true),
        ])
        #expect(session.send(.pointerUp(.finger(2), e), at: 1150).withoutDisplay == [
            .textChanged("He", caret: 2),
            .keyTouched(.letter("e"), down: false),
        ])
        #expect(session.send(.pointerUp(.finger(1), h), at: 1200).withoutDisplay.isEmpty)
        #expect(session.document.textField.text == "He")
        #expect(session.modifiers.shift.state == .off)
    }

    // MARK: Other keys, the same key, host controls

    @Test func touchingTheHeeButtonCommitsTheHeldLetterFirst() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(1), try session.center(of: .letter("a"))), at: 1000)
        let heeDown = session.send(.pointerDown(.mouse, try session.center(of: .hee)), at: 1050)
        #expect(heeDown.texts == ["a", "aへぇ〜"])
        #expect(heeDown.heeCounts == [1])
        #expect(session.pressedKeys == [.hee])
        #expect(session.send(.pointerUp(.finger(1), try session.center(of: .letter("a"))), at: 1100).texts.isEmpty)
        #expect(session.document.textField.text == "aへぇ〜")
    }

    @Test func touchingBackspaceCommitsTheHeldLetterThenDeletesIt() throws {
        var session = KeyboardSession.launched()
        session.send(.textInput("x"), at: 500)
        session.send(.pointerDown(.finger(1), try session.center(of: .letter("a"))), at: 1000)
        let backspaceDown = session.send(.pointerDown(.finger(2), try session.center(of: .backspace)), at: 1050)
        #expect(backspaceDown.texts == ["xa", "x"])
        #expect(session.send(.pointerUp(.finger(1), try session.center(of: .letter("a"))), at: 1100).texts.isEmpty)
        #expect(session.document.textField.text == "x")
    }

    @Test func spaceRollsOverLikeALetter() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), space = try session.center(of: .space)
        let b = try session.center(of: .letter("b"))
        session.send(.pointerDown(.finger(1), a), at: 1000)
        #expect(session.send(.pointerDown(.finger(2), space), at: 1040).texts == ["a"])
        #expect(session.send(.pointerDown(.finger(3), b), at: 1080).texts == ["a "])
        session.send(.pointerUp(.finger(2), space), at: 1100)
        session.send(.pointerUp(.finger(1), a), at: 1110)
        session.send(.pointerUp(.finger(3), b), at: 1120)
        #expect(session.document.textField.text == "a b")
    }

    @Test func twoFingersOnTheSameLetterTypeItTwice() throws {
        var session = KeyboardSession.launched()
        let h = try session.center(of: .letter("h"))
        session.send(.pointerDown(.finger(1), h), at: 1000)
        let second = session.send(.pointerDown(.finger(2), Point(x: h.x + 3, y: h.y)), at: 1040)
        #expect(second.withoutDisplay == [
            .textChanged("h", caret: 1),
            .keyTouched(.letter("h"), down: false),
            .keyTouched(.letter("h"), down: true),
        ])
        session.send(.pointerUp(.finger(1), h), at: 1060)
        #expect(session.pressedKeys == [.letter("h")])
        #expect(session.send(.pointerUp(.finger(2), h), at: 1080).texts == ["hh"])
    }

    @Test func aTouchOnAHostControlOrBetweenKeysCommitsNothing() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a"))
        session.send(.pointerDown(.finger(1), a), at: 1000)
        #expect(session.send(.pointerDown(.finger(2), session.layout.textField.center), at: 1040).texts.isEmpty)
        #expect(session.send(.pointerDown(.finger(3), session.layout.closeKeyboard.center), at: 1050).texts.isEmpty)
        let keyboard = session.layout.keyboardFrame
        let gap = Point(x: keyboard.minX + 1, y: keyboard.minY + 1)
        #expect(session.layout.key(at: gap) == nil)
        #expect(session.send(.pointerDown(.finger(4), gap), at: 1060).texts.isEmpty)
        #expect(session.pressedKeys == [.letter("a")])
        #expect(session.send(.pointerUp(.finger(1), a), at: 1100).texts == ["a"])
    }

    // MARK: What keeps working

    @Test func aCommittedTouchNoLongerSlidesToOtherLetters() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), s = try session.center(of: .letter("s"))
        let k = try session.center(of: .letter("k"))
        session.send(.pointerDown(.finger(1), a), at: 1000)
        session.send(.pointerDown(.finger(2), k), at: 1040)  // commits 'a'
        #expect(session.send(.pointerMoved(.finger(1), s), at: 1060).withoutDisplay.isEmpty)
        #expect(session.send(.pointerUp(.finger(1), s), at: 1080).withoutDisplay.isEmpty)
        #expect(session.send(.pointerUp(.finger(2), k), at: 1100).texts == ["ak"])
        #expect(session.document.textField.text == "ak")
    }

    @Test func aSingleTouchStillSlidesToTheLetterItIsReleasedOn() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), s = try session.center(of: .letter("s"))
        let d = try session.center(of: .letter("d"))
        session.send(.pointerDown(.finger(1), a), at: 1000)
        session.send(.pointerMoved(.finger(1), s), at: 1040)
        // A second touch commits the letter under the first one now: 's'.
        #expect(session.send(.pointerDown(.finger(2), d), at: 1080).texts == ["s"])
        session.send(.pointerUp(.finger(2), d), at: 1100)
        #expect(session.document.textField.text == "sd")
    }

    @Test func aPressThatSlidOffEndsWhenAnotherTouchBegins() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: .letter("a")), k = try session.center(of: .letter("k"))
        session.send(.pointerDown(.finger(1), a), at: 1000)
        session.send(.pointerMoved(.finger(1), session.layout.closeKeyboard.center), at: 1020)  // off the letters
        #expect(session.pointers[.finger(1)] == .key(nil))
        #expect(session.send(.pointerDown(.finger(2), k), at: 1040).texts.isEmpty)
        #expect(session.pointers[.finger(1)] == Pointers.Target.none)
        // Coming back onto a letter does not start a press again.
        #expect(session.send(.pointerMoved(.finger(1), a), at: 1060).withoutDisplay.isEmpty)
        session.send(.pointerUp(.finger(1), a), at: 1080)
        #expect(session.send(.pointerUp(.finger(2), k), at: 1100).texts == ["k"])
    }

    @Test func shiftHeldAsAModifierTypesCapitalsThroughARollover() throws {
        // shift down; h down; e down (commits "H": shift held); shift up (a chord: off); e up → "e".
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift)
        let h = try session.center(of: .letter("h")), e = try session.center(of: .letter("e"))
        #expect(session.send(.pointerDown(.finger(1), shift), at: 1000).shiftStates == [.on])
        session.send(.pointerDown(.finger(2), h), at: 1100)
        #expect(session.send(.pointerDown(.finger(3), e), at: 1150).texts == ["H"])
        #expect(session.modifiers.shift.isChording)
        #expect(session.send(.pointerUp(.finger(1), shift), at: 1200).shiftStates == [.off])
        #expect(session.send(.pointerUp(.finger(3), e), at: 1250).texts == ["He"])
        session.send(.pointerUp(.finger(2), h), at: 1300)
        #expect(session.document.textField.text == "He")
        #expect(session.modifiers.shift.state == .off)
    }

    @Test func lettersTypedWhileShiftIsHeldAllComeOutUpperCase() throws {
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift)
        session.send(.pointerDown(.mouse, shift), at: 1000)
        for (n, letter) in "abc".enumerated() {
            let point = try session.center(of: .letter(letter))
            session.send(.pointerDown(.finger(Int64(n)), point), at: 1100 + 50 * n)
        }
        session.send(.pointerUp(.finger(2), try session.center(of: .letter("c"))), at: 1300)
        #expect(session.document.textField.text == "ABC")
        #expect(session.send(.pointerUp(.mouse, shift), at: 1400).shiftStates == [.off])
    }

    @Test func touchingShiftCommitsTheHeldLetterWithTheShiftStateBeforeIt() throws {
        // h down; shift down (commits "h", then shift on); e down, e up → "E" (shift held);
        // shift up → off after the chord.
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift)
        let h = try session.center(of: .letter("h")), e = try session.center(of: .letter("e"))
        session.send(.pointerDown(.finger(1), h), at: 1000)
        let shiftDown = session.send(.pointerDown(.finger(2), shift), at: 1050)
        #expect(shiftDown.withoutDisplay == [
            .textChanged("h", caret: 1),
            .keyTouched(.letter("h"), down: false),
            .keyTouched(.shift, down: true),
            .shiftChanged(.on),
        ])
        session.send(.pointerUp(.finger(1), h), at: 1100)
        try session.tap(.letter("e"), at: 1150, pointer: .finger(3))
        #expect(session.document.textField.text == "hE")
        #expect(session.send(.pointerUp(.finger(2), shift), at: 1300).shiftStates == [.off])
    }

    @Test func aShiftTapDuringAHeldLetterLeavesShiftOnForTheNextLetter() throws {
        // shift down, h down, shift up (no letter typed while held: a tap, shift stays on),
        // h up → "H", shift off.
        var session = KeyboardSession.launched()
        let shift = try session.center(of: .shift), h = try session.center(of: .letter("h"))
        session.send(.pointerDown(.finger(1), shift), at: 1000)
        session.send(.pointerDown(.finger(2), h), at: 1050)
        #expect(session.send(.pointerUp(.finger(1), shift), at: 1100).shiftStates.isEmpty)
        let up = session.send(.pointerUp(.finger(2), h), at: 1150)
        #expect(up.texts == ["H"])
        #expect(up.shiftStates == [.off])
    }

    @Test func aLostReleaseStillEndsThePressSilently() throws {
        // The same finger id going down again lost its release: its letter is not typed.
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(1), try session.center(of: .letter("a"))), at: 1000)
        #expect(session.send(.pointerDown(.finger(1), try session.center(of: .letter("b"))), at: 1050).texts.isEmpty)
        session.send(.pointerUp(.finger(1), try session.center(of: .letter("b"))), at: 1100)
        #expect(session.document.textField.text == "b")
    }
}
