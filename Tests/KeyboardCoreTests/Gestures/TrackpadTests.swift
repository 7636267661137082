import KeyboardCore
import Testing

/// Issue 20's space-bar trackpad (iOS): the space bar held past the hold delay stops being a
/// key; dragging moves the caret one character per 10 pt, lifting types nothing. In system
/// mode the steps are Left / Right keys.
@Suite("Space-bar trackpad (issue 20)")
struct TrackpadTests {
    static let delay = Int(AlternatesBubble.holdDelay.seconds * 1000)

    @Test func stepIsTenPoints() {
        #expect(Trackpad.step == 10)
    }

    /// A host-screen session with "hello" typed (caret at 5) and the space bar held at
    /// `time` ms at `dx` points right of its centre.
    static func holdingSpace(at time: Int = 2000, dx: Double = 0) throws -> (KeyboardSession, Point) {
        var session = KeyboardSession.launched()
        _ = session.send(.textInput("hello"), at: 100)
        let centre = try session.center(of: .space)
        let start = Point(x: centre.x + dx, y: centre.y)
        session.send(.pointerDown(.finger(1), start), at: time)
        return (session, start)
    }

    @Test func trackpadStartsAtTheHoldDelayNotBefore() throws {
        var (session, _) = try Self.holdingSpace()
        #expect(session.nextAnimationDeadline(after: ms(2000)) == ms(2000 + Self.delay))
        session.send(.tick, at: 2000 + Self.delay - 1)
        #expect(session.pointers.trackpad == nil)
        let due = session.send(.tick, at: 2000 + Self.delay)
        #expect(session.pointers.trackpad != nil)
        // The labels fade: the trackpad is reported, nothing is typed.
        #expect(due.withoutDisplay == [.trackpadChanged(true)])
        #expect(due.contains(.needsDisplay))
        #expect(session.pressedKeys == [.space])
    }

    /// A quick tap types a space; released at the delay's instant, too.
    @Test(arguments: [40, delay])
    func aTapTypesASpace(hold: Int) throws {
        var (session, start) = try Self.holdingSpace()
        let up = session.send(.pointerUp(.finger(1), start), at: 2000 + hold)
        #expect(up.texts == ["hello "])
        #expect(session.pointers.trackpad == nil)
    }

    /// One character per whole 10 pt from where the trackpad began, toward zero; turning
    /// back moves back; lifting types nothing.
    @Test func dragMovesTheCaretOneCharacterPerStep() throws {
        var (session, start) = try Self.holdingSpace()
        session.send(.tick, at: 2000 + Self.delay)
        func drag(_ dx: Double, at time: Int) -> [KeyboardEffect] {
            session.send(.pointerMoved(.finger(1), Point(x: start.x + dx, y: start.y - 3)), at: time)
        }
        #expect(drag(-9.9, at: 2600).texts.isEmpty)
        #expect(session.document.textField.caret == 5)
        let one = drag(-10, at: 2620)
        #expect(one.withoutDisplay == [.textChanged("hello", caret: 4)])
        #expect(drag(-35, at: 2640).withoutDisplay == [.textChanged("hello", caret: 2)])
        #expect(drag(-31, at: 2660).texts.isEmpty)
        #expect(drag(-12, at: 2680).withoutDisplay == [.textChanged("hello", caret: 4)])
        // +3 steps, the caret stopping at the end; the steps follow the finger's travel, so
        // turning back moves the caret at once.
        #expect(drag(25, at: 2700).withoutDisplay == [.textChanged("hello", caret: 5)])
        #expect(drag(-5, at: 2720).withoutDisplay == [.textChanged("hello", caret: 3)])
        // The finger leaves the space bar and the keyboard: still the trackpad.
        session.send(.pointerMoved(.finger(1), Point(x: start.x - 5, y: 10)), at: 2730)
        #expect(session.pointers.trackpad != nil)
        #expect(session.pressedKeys == [.space])
        let up = session.send(.pointerUp(.finger(1), Point(x: start.x - 5, y: 10)), at: 2750)
        #expect(up.withoutDisplay == [.trackpadChanged(false), .keyTouched(.space, down: false)])
        #expect(session.pointers.trackpad == nil)
        #expect(session.document.textField.text == "hello")
        #expect(session.document.textField.caret == 3)
        // The caret is where typing goes.
        try session.tap("x", at: 3000)
        #expect(session.document.textField.text == "helxlo")
    }

    /// Moves of the finger while the hold is still pending (less than the delay) start the
    /// trackpad from where the finger is when it begins.
    @Test func trackpadBeginsWhereTheFingerIsAtTheDelay() throws {
        var (session, start) = try Self.holdingSpace(dx: -40)
        let moved = Point(x: start.x + 30, y: start.y)
        session.send(.pointerMoved(.finger(1), moved), at: 2200)
        #expect(session.document.textField.caret == 5)
        session.send(.tick, at: 2000 + Self.delay)
        #expect(session.pointers.trackpad?.startX == moved.x)
        session.send(.pointerMoved(.finger(1), Point(x: moved.x - 20, y: moved.y)), at: 2600)
        #expect(session.document.textField.caret == 3)
    }

    /// A new touch on a key while the trackpad is active is part of the trackpad (issue 28,
    /// class 8; iOS keeps the whole keyboard a trackpad until the finger lifts): the key does
    /// not type, the drag goes on, and lifting types no space.
    @Test func aNewTouchOnAKeyIsPartOfTheTrackpad() throws {
        var (session, start) = try Self.holdingSpace()
        session.send(.tick, at: 2000 + Self.delay)
        session.send(.pointerMoved(.finger(1), Point(x: start.x - 20, y: start.y)), at: 2600)
        let a = try session.center(of: "a")
        let down = session.send(.pointerDown(.finger(2), a), at: 2650)
        #expect(down.withoutDisplay.isEmpty)
        #expect(session.pointers.trackpad != nil)
        let last = Point(x: start.x - 30, y: start.y)
        session.send(.pointerMoved(.finger(1), last), at: 2670)
        session.send(.pointerUp(.finger(2), a), at: 2700)
        session.send(.pointerUp(.finger(1), last), at: 2720)
        #expect(session.document.textField.text == "hello")
        #expect(session.document.textField.caret == 2)
    }

    /// System mode: each step is a Left or Right key sent to the focused window.
    @Test func systemModeSendsLeftAndRight() throws {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system)
        session.send(.launched, at: 0)
        let start = try session.center(of: .space)
        session.send(.pointerDown(.mouse, start), at: 1000)
        session.send(.tick, at: 1000 + Self.delay)
        let left = session.send(.pointerMoved(.mouse, Point(x: start.x - 30, y: start.y)), at: 1600)
        #expect(left.withoutDisplay == Array(repeating: .send(.key(.left)), count: 3))
        let right = session.send(.pointerMoved(.mouse, Point(x: start.x + 10, y: start.y)), at: 1650)
        #expect(right.withoutDisplay == Array(repeating: .send(.key(.right)), count: 4))
        let up = session.send(.pointerUp(.mouse, Point(x: start.x + 10, y: start.y)), at: 1700)
        #expect(up.withoutDisplay == [.trackpadChanged(false), .keyTouched(.space, down: false)])
    }

    /// The trackpad on the numbers layer's space bar works the same.
    @Test func trackpadOnTheNumbersLayer() throws {
        var session = KeyboardSession.launched()
        _ = session.send(.textInput("12345"), at: 100)
        try session.tap("123", at: 200)
        let start = try session.center(of: .space)
        session.send(.pointerDown(.mouse, start), at: 1000)
        session.send(.tick, at: 1000 + Self.delay)
        session.send(.pointerMoved(.mouse, Point(x: start.x - 40, y: start.y)), at: 1600)
        session.send(.pointerUp(.mouse, Point(x: start.x - 40, y: start.y)), at: 1650)
        #expect(session.document.textField.caret == 1)
        #expect(session.layerName == "numbers")
    }

    /// A resize ends the trackpad (its geometry is gone) and says so, and the finger's press
    /// with it: the space bar is up, and the finger, released on a letter of the new geometry
    /// (a new-user trial typed "f" this way), types nothing.
    @Test func aResizeEndsTheTrackpadAndItsPress() throws {
        var (session, _) = try Self.holdingSpace()
        session.send(.tick, at: 2000 + Self.delay)
        let resized = session.send(.windowResized(Size(width: 600, height: 900)), at: 2600)
        #expect(resized.contains(.trackpadChanged(false)))
        #expect(resized.contains(.keyTouched(.space, down: false)))
        #expect(session.pointers.trackpad == nil && session.pressedKeys.isEmpty)
        let letter = try session.center(of: "f")
        let moved = session.send(.pointerMoved(.finger(1), letter), at: 2650)
        let up = session.send(.pointerUp(.finger(1), letter), at: 2700)
        #expect(!(moved + up).contains(.keyTouched("f", down: true)))
        #expect(!up.contains(.trackpadChanged(false)))
        #expect(session.document.textField.text == "hello")
    }
}
