import KeyboardCore
import Testing

/// Issue 11, item 9: a held backspace repeats only while a repeat changes something. With
/// nothing to delete (an empty field, the caret at the start) it waits with no deadline, so a
/// long gap costs nothing; when the text or the caret changes it goes on at the time its
/// schedule (0.5 s, then every 0.1 s; words from 2 s) would have deleted anyway.
@Suite("Backspace repeat waits when there is nothing to delete")
struct BackspaceRepeatIdleTests {
    /// A session whose field holds `text`, with backspace held by finger 1 from 1000 ms
    /// (which deletes one Character at once).
    static func holding(after text: String) throws -> KeyboardSession {
        var session = KeyboardSession.launched()
        session.send(.textInput(text), at: 500)
        session.send(.pointerDown(.finger(1), try session.center(of: .backspace)), at: 1000)
        return session
    }

    @Test func anEmptyFieldStopsTheRepeat() throws {
        var session = try Self.holding(after: "hello")  // "hell" at 1000
        // 1500 "hel", 1600 "he", 1700 "h", 1800 "": then the repeat at 1900 changes nothing.
        #expect(session.send(.tick, at: 1800).texts == ["hel", "he", "h", ""])
        try #require(session.pointers.keyRepeat?.isIdle == false)
        #expect(session.send(.tick, at: 1900).texts.isEmpty)
        try #require(session.pointers.keyRepeat?.isIdle == true)
        #expect(session.pressedKeys == [.backspace])
        #expect(session.nextAnimationDeadline(after: ms(1900)) == nil)
        // The caret's blink ends 10 s after the last edit: then nothing is due at all.
        #expect(session.nextDeadline(after: ms(11_800)) == nil)

        // A gap of 30 years in one step: nothing happens, nothing is due.
        let far = 1_000_000_000_000
        #expect(session.send(.tick, at: far).texts.isEmpty)
        #expect(session.pointers.keyRepeat?.isIdle == true)
        let up = session.send(.pointerUp(.finger(1), try session.center(of: .backspace)), at: far + 1)
        #expect(up.withoutDisplay == [.keyTouched(.backspace, down: false)])
        #expect(session.pointers.keyRepeat == nil)
    }

    @Test func textTypedWhileHeldIsDeletedOnTheSchedule() throws {
        var session = try Self.holding(after: "a")  // "" at 1000
        session.send(.tick, at: 1500)  // nothing to delete: idle
        try #require(session.pointers.keyRepeat?.isIdle == true)
        // Typed at 2345: the schedule's next time is 2400.
        #expect(session.send(.textInput("xyz"), at: 2345).texts == ["xyz"])
        #expect(session.pointers.keyRepeat?.isIdle == false)
        #expect(session.nextAnimationDeadline(after: ms(2345)) == ms(2400))
        #expect(session.send(.tick, at: 2400).texts == ["xy"])
        #expect(session.send(.tick, at: 2650).texts == ["x", ""])
        #expect(session.send(.tick, at: 2700).texts.isEmpty)
        #expect(session.pointers.keyRepeat?.isIdle == true)
    }

    @Test func textTypedAtARepeatsInstantGoesFirst() throws {
        var session = try Self.holding(after: "a")
        session.send(.tick, at: 1500)
        try #require(session.pointers.keyRepeat?.isIdle == true)
        // Typed exactly at 2400, a time of the schedule: the input first, then that repeat.
        #expect(session.send(.textInput("xyz"), at: 2400).texts == ["xyz"])
        #expect(session.nextAnimationDeadline(after: ms(2400)) == ms(2400))
        #expect(session.send(.tick, at: 2400).texts == ["xy"])
    }

    @Test func wordsAfterTwoSecondsCountFromThePressNotFromTheWait() throws {
        var session = try Self.holding(after: "a")
        session.send(.tick, at: 1500)
        #expect(session.send(.textInput("one two three"), at: 4950).texts == ["one two three"])
        #expect(session.nextAnimationDeadline(after: ms(4950)) == ms(5000))
        #expect(session.send(.tick, at: 5100).texts == ["one two ", "one "])
    }

    @Test func theCaretAtTheStartWaitsUntilItMoves() throws {
        var session = KeyboardSession.launched()
        session.send(.textInput("abc"), at: 500)
        session.send(.editing(.move(.start)), at: 600)
        let down = session.send(.pointerDown(.finger(1), try session.center(of: .backspace)), at: 1000)
        #expect(down.texts.isEmpty)
        #expect(session.send(.tick, at: 1500).texts.isEmpty)
        try #require(session.pointers.keyRepeat?.isIdle == true)
        #expect(session.nextAnimationDeadline(after: ms(1500)) == nil)
        // End moves the caret: there is something to delete again, at 1800.
        session.send(.editing(.move(.end)), at: 1720)
        #expect(session.nextAnimationDeadline(after: ms(1720)) == ms(1800))
        #expect(session.send(.tick, at: 1800).texts == ["ab"])
    }

    @Test func aSelectionAtTheStartIsDeleted() throws {
        var session = KeyboardSession.launched()
        session.send(.textInput("abc"), at: 500)
        session.send(.editing(.move(.start)), at: 600)
        session.send(.pointerDown(.finger(1), try session.center(of: .backspace)), at: 1000)
        session.send(.tick, at: 1500)
        try #require(session.pointers.keyRepeat?.isIdle == true)
        // Shift+Right selects "a": the next repeat deletes the selection, then waits again.
        session.send(.editing(.move(.characterRight, extendingSelection: true)), at: 1550)
        #expect(session.send(.tick, at: 1700).texts == ["bc"])
        #expect(session.pointers.keyRepeat?.isIdle == true)
    }
}
