import KeyboardCore
import Testing

/// Issue 28, class 8: a touch on an open overlay — the alternates bubble, the trackpad —
/// belongs to it, never to the key the overlay covers. (Before: a second finger on
/// an open bubble chose a letter and then pressed the key under the bubble: the へぇ button
/// counted, played and typed 「へぇ〜」.)
@Suite("A touch on an open bubble or trackpad (issue 28, class 8)")
struct OverlayTouchTests {
    static let delay = AlternatesTests.delay

    /// e held by finger 1 until its bubble opened, the highlight on é.
    static func bubbleOpen() throws -> KeyboardSession {
        var session = try AlternatesTests.holding("e", pointer: .finger(1))
        session.send(.tick, at: 1000 + delay)
        let acute = try #require(session.pointers.bubble?.choices[1])
        session.send(.pointerMoved(.finger(1), acute.frame.center), at: 1600)
        return session
    }

    /// A second finger on a cell types that cell and nothing under it; neither finger's lift
    /// types anything more.
    @Test func aTouchOnACellTypesThatChoiceAndNothingUnderIt() throws {
        var session = try Self.bubbleOpen()
        let bubble = try #require(session.pointers.bubble)
        let cell = bubble.choices[3]
        let covered = try #require(session.layout.key(at: cell.frame.center), "the bubble covers a key")
        #expect(covered == .hee, "the bubble over the top row covers the へぇ button")
        let down = session.send(.pointerDown(.finger(2), cell.frame.center), at: 1650)
        #expect(down.withoutDisplay == [.textChanged("ë", caret: 1), .keyTouched("e", down: false)])
        #expect(session.pointers.bubble == nil)
        #expect(session.pressedKeys.isEmpty)
        let up2 = session.send(.pointerUp(.finger(2), cell.frame.center), at: 1700)
        let up1 = session.send(.pointerUp(.finger(1), bubble.choices[1].frame.center), at: 1720)
        #expect(up2.withoutDisplay.isEmpty && up1.withoutDisplay.isEmpty)
        #expect(session.document.textField.text == "ë")
        #expect(session.hee.model.count == 0)
    }

    /// A second finger on the held key (the bubble's stem) ends the bubble with the choice
    /// highlighted; the key does not type again.
    @Test func aTouchOnTheHeldKeyEndsTheBubbleWithItsHighlight() throws {
        var session = try Self.bubbleOpen()
        let e = try session.center(of: "e")
        let down = session.send(.pointerDown(.finger(2), e), at: 1650)
        #expect(down.withoutDisplay == [.textChanged("é", caret: 1), .keyTouched("e", down: false)])
        session.send(.pointerUp(.finger(2), e), at: 1700)
        session.send(.pointerUp(.finger(1), e), at: 1720)
        #expect(session.document.textField.text == "é")
    }

    /// A touch outside the bubble is rollover, as before: the highlighted choice, then the
    /// touched key as a key of its own.
    @Test func aTouchOutsideTheBubbleRollsOver() throws {
        var session = try Self.bubbleOpen()
        let a = try session.center(of: "a")
        session.send(.pointerDown(.finger(2), a), at: 1650)
        session.send(.pointerUp(.finger(2), a), at: 1700)
        #expect(session.document.textField.text == "éa")
    }

    /// The same in system mode: the choice is sent once and the へぇ button is not pressed.
    @Test func systemModeSendsTheChoiceOnly() throws {
        var session = try AlternatesTests.holding("e", pointer: .finger(1), mode: .system)
        session.send(.tick, at: 1000 + Self.delay)
        let cell = try #require(session.pointers.bubble?.choices[2])
        let down = session.send(.pointerDown(.finger(2), cell.frame.center), at: 1650)
        #expect(down.contains(.send(.text("ê"))))
        #expect(!down.contains { if case .heeCounted = $0 { true } else { false } })
        #expect(!down.contains(.keyTouched(.hee, down: true)))
    }

    /// The flick guide is a callout, not a menu: a second finger on the neighbour under its
    /// tile is the next key (fast two-thumb typing), after the held flick types where its
    /// finger points.
    @Test func aTouchOnAFlickGuidesTileIsTheKeyUnderIt() throws {
        var session = KeyboardSession.kana()
        let ka = try #require(session.layout.keys["か"])
        session.send(.pointerDown(.finger(1), ka.center), at: 1000)
        let a = try session.center(of: "あ")
        session.send(.pointerDown(.finger(2), a), at: 1050)
        session.send(.pointerUp(.finger(2), a), at: 1100)
        session.send(.pointerUp(.finger(1), ka.center), at: 1120)
        #expect(session.reading == "かあ")
    }

    /// While the space bar is the trackpad, a touch on the へぇ button is part of it too:
    /// nothing counted, played or typed.
    @Test func aTouchOnTheHeeButtonWhileTheTrackpadIsActiveIsPartOfIt() throws {
        var (session, start) = try TrackpadTests.holdingSpace()
        session.send(.tick, at: 2000 + Self.delay)
        let hee = session.layout.heeFrame.center
        let down = session.send(.pointerDown(.finger(2), hee), at: 2600)
        #expect(down.withoutDisplay.isEmpty)
        session.send(.pointerUp(.finger(2), hee), at: 2650)
        session.send(.pointerUp(.finger(1), start), at: 2750)
        #expect(session.document.textField.text == "hello")
        #expect(session.hee.model.count == 0)
    }
}
