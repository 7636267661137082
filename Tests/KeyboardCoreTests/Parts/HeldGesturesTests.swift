import KeyboardCore
import Testing

/// The held fingers' gestures alone (`HeldGestures`, part of `Pointers`): which presses wait
/// for the hold delay, what the hold opens, how the bubble, the trackpad and a flick follow the
/// finger, and what ends.
@Suite("HeldGestures (part of Pointers)")
struct HeldGesturesTests {
    static let layout = KeyboardLayout(windowSize: KeyboardLayout.defaultWindowSize)
    static let delay = AlternatesBubble.holdDelay

    static func center(_ key: KeyID) throws -> Point { try #require(layout.keys[key]).center }

    /// `key` pressed by the mouse at time zero, as the session starts a hold.
    static func pressed(_ key: KeyID, composing: Bool = false) throws -> HeldGestures {
        var gestures = HeldGestures()
        let action = LayoutDefinition.english.action(of: key)
        gestures.startHold(key, action: action, hasAlternates: !LayoutDefinition.english.alternates(of: key).isEmpty,
                           isComposing: composing, by: .mouse, at: try center(key), time: .zero)
        return gestures
    }

    static func fire(_ gestures: inout HeldGestures, at time: Duration, including: Bool = false,
                     held: Bool = true) -> [KeyboardEffect] {
        gestures.fireHold(upTo: time, including: including, stillHeld: { _ in held }, keysAreLive: true, layout: layout,
                          isSpace: { $0 == .space }, alternates: { _ in ["è", "é"] })
    }

    @Test func theSpaceBarAndKeysWithAlternatesWaitForTheHoldDelay() throws {
        #expect(try Self.pressed(.space).hold?.due == Self.delay)
        #expect(try Self.pressed("e").hold?.due == Self.delay)
        #expect(try Self.pressed("q").hold == nil, "q has no alternates")
        #expect(try Self.pressed(.space, composing: true).hold == nil, "空白 is 次候補 while the kana pad composes")
        var gestures = try Self.pressed("e")
        gestures.startHold("q", action: .character("q"), hasAlternates: false, isComposing: false, by: .mouse,
                           at: try Self.center("q"), time: ms(100))
        #expect(gestures.hold == nil, "the pointer slid on: its hold is forgotten")
    }

    @Test func aHoldFiresAfterTheDelayAnInputAtTheSameInstantGoesFirst() throws {
        var gestures = try Self.pressed("e")
        #expect(Self.fire(&gestures, at: Self.delay).isEmpty)
        #expect(gestures.hold != nil)
        let effects = Self.fire(&gestures, at: Self.delay, including: true)
        let bubble = try #require(gestures.bubble)
        #expect(effects == [.alternatesShown("e", bubble.choices)])
        #expect(bubble.choices.map(\.text) == ["è", "é"] && gestures.hold == nil)
    }

    @Test func aHoldWhosePointerLetGoOpensNothing() throws {
        var gestures = try Self.pressed("e")
        #expect(Self.fire(&gestures, at: ms(600), held: false).isEmpty)
        #expect(gestures.hold == nil && gestures.bubble == nil)
    }

    @Test func theSpaceBarBecomesTheTrackpadAndMovesTheCaretTenPointsPerStep() throws {
        var gestures = try Self.pressed(.space)
        #expect(Self.fire(&gestures, at: ms(600)) == [.trackpadChanged(true)])
        let start = try Self.center(.space)
        #expect(gestures.gestureMoved(.mouse, to: Point(x: start.x + 25, y: start.y)) == 2)
        #expect(gestures.gestureMoved(.mouse, to: Point(x: start.x + 29, y: start.y)) == 0)
        #expect(gestures.gestureMoved(.mouse, to: Point(x: start.x - 10, y: start.y)) == -3)
        #expect(gestures.gestureMoved(.finger(1), to: start) == nil, "another pointer")
        #expect(gestures.endGesture(of: .mouse) == .trackpad)
        #expect(gestures.endGesture(of: .mouse) == nil)
    }

    @Test func theBubblesHighlightFollowsTheFinger() throws {
        var gestures = try Self.pressed("e")
        _ = Self.fire(&gestures, at: ms(600))
        let bubble = try #require(gestures.bubble)
        #expect(gestures.gestureMoved(.mouse, to: bubble.choices[1].frame.center) == 0)
        #expect(gestures.bubble?.selected == 1)
        #expect(gestures.bubbleTypesChoice(for: .mouse) && !gestures.bubbleTypesChoice(for: .finger(1)))
        #expect(gestures.overlay(at: bubble.choices[0].frame.center, layout: Self.layout, keysAreLive: true) == .bubble(cell: 0))
        #expect(gestures.overlay(at: try Self.center("e"), layout: Self.layout, keysAreLive: true) == .bubble(cell: nil))
        #expect(gestures.overlay(at: try Self.center("m"), layout: Self.layout, keysAreLive: true) == nil)
        #expect(gestures.overlay(at: try Self.center("e"), layout: Self.layout, keysAreLive: false) == nil)
        gestures.selectBubbleCell(0)
        guard case .bubble(let closed)? = gestures.endGesture(of: .mouse) else {
            Issue.record("the bubble did not end")
            return
        }
        #expect(closed.selectedText == "è")
    }

    @Test func aFlickFollowsTheFingersDirection() throws {
        var gestures = HeldGestures()
        let start = Point(x: 100, y: 100)
        let table = try #require(LayoutDefinition.japaneseKana.kanaKey("か"))
        gestures.startHold("か", action: .kana(table), hasAlternates: false, isComposing: false, by: .finger(1), at: start,
                           time: ms(10))
        #expect(gestures.flick?.touchDown == ms(10) && gestures.hold == nil)
        let revision = gestures.revision
        #expect(gestures.gestureMoved(.finger(1), to: Point(x: 101, y: 100)) == 0)
        #expect(gestures.revision == revision, "still the centre: the guide is unchanged")
        #expect(gestures.gestureMoved(.finger(1), to: Point(x: 60, y: 100)) == 0)
        #expect(gestures.flick?.gesture.direction == .left && gestures.revision != revision)
        guard case .flick(let held)? = gestures.endGesture(of: .finger(1)) else {
            Issue.record("the flick did not end")
            return
        }
        #expect(held.point == Point(x: 60, y: 100))
    }

    @Test func closingTheOverlaysNamesTheirHoldersAndForgetsAHold() throws {
        var gestures = try Self.pressed(.space)
        _ = Self.fire(&gestures, at: ms(600))
        gestures.startHold("e", action: .character("e"), hasAlternates: true, isComposing: false, by: .finger(2),
                           at: try Self.center("e"), time: ms(700))
        #expect(gestures.closeOverlays() == [.mouse])
        #expect(gestures.trackpad == nil && gestures.hold == nil)
    }
}
