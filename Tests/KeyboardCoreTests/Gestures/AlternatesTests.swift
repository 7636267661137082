import KeyboardCore
import Testing

/// Issue 20's long-press alternates: the bubble opens at the hold delay (not a millisecond
/// before), the highlight follows the finger, releasing on a choice types it (in the case
/// shift gives), releasing outside types nothing, and a new touch commits the highlighted
/// choice (rollover).
@Suite("Long-press alternates (issue 20)")
struct AlternatesTests {
    static let delay = Int(AlternatesBubble.holdDelay.seconds * 1000)

    @Test func holdDelayIsUIKitsLongPress() {
        #expect(AlternatesBubble.holdDelay == .milliseconds(500))
    }

    /// iOS's English alternates, as the issue lists them.
    @Test func englishAlternates() {
        let english = LayoutDefinition.english
        let expected: [KeyID: String] = [
            "e": "èéêëēėę", "a": "àáâäæãåā", "c": "çćč", "i": "îïíīįì", "l": "ł", "n": "ñń",
            "o": "ôöòóœøōõ", "s": "ßśš", "u": "ûüùúū", "y": "ÿ", "z": "žźż",
            "-": "–—•", "$": "€£¥₩¢₽", ".": "…", "?": "¿", "!": "¡", "'": "‘’", "\"": "“”„«»", "0": "°",
        ]
        for (key, choices) in expected {
            #expect(english.alternates(of: key) == choices.map { String($0) }, "\(key)")
        }
        let withAlternates = english.layers.flatMap(\.keyIDs).filter { !english.alternates(of: $0).isEmpty }
        #expect(Set(withAlternates) == Set(expected.keys))
    }

    /// A session with `key` (on `layer`) pressed by `pointer` at `time` ms.
    static func holding(_ key: KeyID, layer: String? = nil, at time: Int = 1000, pointer: PointerID = .mouse,
                        mode: KeyboardMode = .hostScreen) throws -> KeyboardSession {
        var session = KeyboardSession(windowSize: mode == .system ? KeyboardLayout.defaultSystemWindowSize()
                                                                  : KeyboardLayout.defaultWindowSize, mode: mode)
        session.send(.launched, at: 0)
        if let layer {
            try session.tap(layer == "numbers" ? "123" : "#+=", at: 100)
        }
        session.send(.pointerDown(pointer, try session.center(of: key)), at: time)
        return session
    }

    /// The bubble opens at the tick at the hold delay's very instant, not a millisecond
    /// before; the app is told when to tick.
    @Test func bubbleOpensExactlyAtTheHoldDelay() throws {
        var session = try Self.holding("e")
        #expect(session.nextAnimationDeadline(after: ms(1000)) == ms(1000 + Self.delay))
        let early = session.send(.tick, at: 1000 + Self.delay - 1)
        #expect(early.withoutDisplay.isEmpty)
        #expect(session.pointers.bubble == nil)
        let due = session.send(.tick, at: 1000 + Self.delay)
        let bubble = try #require(session.pointers.bubble)
        #expect(due.withoutDisplay == [.alternatesShown("e", bubble.choices)])
        #expect(due.contains(.needsDisplay))
        #expect(bubble.key == "e")
        #expect(bubble.choices.map(\.text) == "èéêëēėę".map { String($0) })
        #expect(session.pointers.hold == nil)
        #expect(session.nextAnimationDeadline(after: ms(1000 + Self.delay)) == nil)
        // Opening typed nothing; the key is still held.
        #expect(session.document.textField.text.isEmpty)
        #expect(session.pressedKeys == ["e"])
    }

    /// A late tick (the machine was busy) opens it too; so does any input after the delay,
    /// before that input is handled.
    @Test func bubbleOpensOnAnyInputAfterTheDelay() throws {
        var late = try Self.holding("e")
        late.send(.tick, at: 1000 + Self.delay + 1)
        #expect(late.pointers.bubble != nil)

        var moved = try Self.holding("e")
        let point = try moved.center(of: "e")
        let effects = moved.send(.pointerMoved(.mouse, Point(x: point.x + 1, y: point.y)), at: 1000 + Self.delay + 1)
        #expect(effects.contains { if case .alternatesShown = $0 { true } else { false } })
        #expect(moved.pointers.bubble != nil)
    }

    /// Released a millisecond before the delay, or at its very instant (the input goes
    /// before the tick), the key types itself.
    @Test(arguments: [-1, 0])
    func releaseBeforeTheBubbleTypesTheKey(offset: Int) throws {
        var session = try Self.holding("e")
        let up = session.send(.pointerUp(.mouse, try session.center(of: "e")), at: 1000 + Self.delay + offset)
        #expect(up.texts == ["e"])
        #expect(session.pointers.bubble == nil)
        #expect(session.pointers.hold == nil)
        #expect(!up.contains { if case .alternatesShown = $0 { true } else { false } })
    }

    /// Keys without alternates open nothing, however long they are held.
    @Test(arguments: ["q", "1", "backspace", "shift", "hee"] as [KeyID])
    func keysWithoutAlternatesOpenNoBubble(key: KeyID) throws {
        var session = try Self.holding(key, layer: key == "1" ? "numbers" : nil)
        #expect(session.pointers.hold == nil)
        session.send(.tick, at: 1000 + Self.delay)
        session.send(.tick, at: 1000 + 3 * Self.delay)
        #expect(session.pointers.bubble == nil)
        #expect(session.pointers.trackpad == nil)
    }

    /// The hold restarts on each key a press slides onto.
    @Test func holdDelayRestartsOnTheKeySlidOnto() throws {
        var session = try Self.holding("w")
        session.send(.pointerMoved(.mouse, try session.center(of: "e")), at: 1300)
        session.send(.tick, at: 1000 + Self.delay)
        #expect(session.pointers.bubble == nil)
        session.send(.tick, at: 1300 + Self.delay - 1)
        #expect(session.pointers.bubble == nil)
        session.send(.tick, at: 1300 + Self.delay)
        #expect(session.pointers.bubble?.key == "e")
    }

    /// The cell over the key is highlighted first; the highlight follows the finger along the
    /// row and is gone once the finger leaves the bubble.
    @Test func highlightFollowsTheFinger() throws {
        var session = try Self.holding("e")
        session.send(.tick, at: 1000 + Self.delay)
        let bubble = try #require(session.pointers.bubble)
        let key = try #require(session.layout.keys["e"])
        // e is in the keyboard's left half: the bubble reaches right from the key, its first
        // cell over the key, above the key.
        #expect(bubble.selected == 0)
        #expect(isClose(bubble.choices[0].frame.center.x, key.center.x))
        #expect(bubble.frame.maxY <= key.minY)
        var time = 1000 + Self.delay
        for (i, choice) in bubble.choices.enumerated() {
            time += 20
            let effects = session.send(.pointerMoved(.mouse, choice.frame.center), at: time)
            #expect(session.pointers.bubble?.selected == i)
            #expect(session.pointers.bubble?.selectedText == choice.text)
            #expect(effects.texts.isEmpty)
            #expect(effects.contains(.needsDisplay) == (i != 0))
        }
        // Between the bubble and the key (the finger still on the key) the column decides.
        session.send(.pointerMoved(.mouse, Point(x: bubble.choices[2].frame.center.x, y: key.minY - 2)), at: time + 10)
        #expect(session.pointers.bubble?.selected == 2)
        // Beyond the bubble's end, or down on the keys below: nothing highlighted.
        session.send(.pointerMoved(.mouse, Point(x: bubble.frame.maxX + 5, y: bubble.frame.midY)), at: time + 20)
        #expect(session.pointers.bubble?.selected == nil)
        session.send(.pointerMoved(.mouse, try session.center(of: "d")), at: time + 30)
        #expect(session.pointers.bubble?.selected == nil)
        // The press stays on e (the bubble takes the movements).
        #expect(session.pressedKeys == ["e"])
    }

    /// A key in the keyboard's right half: the bubble reaches left, its last cell over the
    /// key; it stays inside the keyboard.
    @Test func bubbleReachesInwardAndStaysInside() throws {
        for (key, layer) in [("o", nil), ("l", nil), ("a", nil), ("$", "numbers"), ("\"", "numbers"),
                             ("'", "numbers"), ("-", "numbers")] as [(KeyID, String?)] {
            var session = try Self.holding(key, layer: layer)
            session.send(.tick, at: 1000 + Self.delay)
            let bubble = try #require(session.pointers.bubble, "\(key)")
            let frame = try #require(session.layout.keys[key])
            let keyboard = session.layout.keyboardFrame
            #expect(bubble.frame.minX >= keyboard.minX && bubble.frame.maxX <= keyboard.maxX, "\(key)")
            #expect(bubble.frame.maxY <= frame.minY, "\(key)")
            let selected = try #require(bubble.selected)
            #expect(bubble.choices[selected].frame.minX <= frame.center.x + 1e-9, "\(key)")
            #expect(bubble.choices[selected].frame.maxX >= frame.center.x - 1e-9, "\(key)")
            if frame.center.x > keyboard.center.x, bubble.choices.count > 1 {
                #expect(bubble.choices.last!.frame.maxX <= frame.maxX + frame.width, "\(key)")
                #expect(bubble.choices.first!.frame.minX < frame.minX, "\(key)")
            }
        }
    }

    /// Releasing on a choice types it, and the press ends.
    @Test func releaseOnAChoiceTypesIt() throws {
        var session = try Self.holding("e")
        session.send(.tick, at: 1000 + Self.delay)
        let acute = try #require(session.pointers.bubble?.choices[1])
        #expect(acute.text == "é")
        session.send(.pointerMoved(.mouse, acute.frame.center), at: 1600)
        let up = session.send(.pointerUp(.mouse, acute.frame.center), at: 1650)
        #expect(up.withoutDisplay == [.textChanged("é", caret: 1), .keyTouched("e", down: false)])
        #expect(session.pointers.bubble == nil)
        #expect(session.pressedKeys.isEmpty)
    }

    /// Released without moving: the highlighted first choice.
    @Test func releaseWithoutMovingTypesTheFirstChoice() throws {
        var session = try Self.holding("e")
        session.send(.tick, at: 1000 + Self.delay)
        let up = session.send(.pointerUp(.mouse, try session.center(of: "e")), at: 1600)
        #expect(up.texts == ["è"])
    }

    /// Outside the bubble: nothing typed, the bubble closes.
    @Test func releaseOutsideTheBubbleTypesNothing() throws {
        var session = try Self.holding("e")
        session.send(.tick, at: 1000 + Self.delay)
        let below = try session.center(of: "x")
        session.send(.pointerMoved(.mouse, below), at: 1600)
        let up = session.send(.pointerUp(.mouse, below), at: 1650)
        #expect(up.withoutDisplay == [.keyTouched("e", down: false)])
        #expect(session.pointers.bubble == nil)
        #expect(session.document.textField.text.isEmpty)
    }

    /// A resize closes an open bubble (drawn for the old geometry) and ends its press: the
    /// finger, released on a letter of the new geometry, types nothing.
    @Test func aResizeClosesTheBubbleAndEndsItsPress() throws {
        var session = try Self.holding("e")
        session.send(.tick, at: 1000 + Self.delay)
        #expect(session.pointers.bubble != nil)
        let resized = session.send(.windowResized(Size(width: 600, height: 900)), at: 1600)
        #expect(session.pointers.bubble == nil && session.pressedKeys.isEmpty)
        #expect(resized.contains(.keyTouched("e", down: false)))
        let letter = try session.center(of: "x")
        session.send(.pointerMoved(.mouse, letter), at: 1650)
        session.send(.pointerUp(.mouse, letter), at: 1700)
        #expect(session.document.textField.text.isEmpty)
    }

    /// Shift applies: the bubble shows upper case, É is typed, and a one-shot shift turns off.
    @Test func shiftAppliesToTheAlternates() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 100)
        session.send(.pointerDown(.mouse, try session.center(of: "e")), at: 1000)
        session.send(.tick, at: 1000 + Self.delay)
        let bubble = try #require(session.pointers.bubble)
        #expect(bubble.choices.map(\.text) == "ÈÉÊËĒĖĘ".map { String($0) })
        let up = session.send(.pointerUp(.mouse, bubble.choices[1].frame.center), at: 1600)
        #expect(up.texts == ["É"])
        #expect(up.shiftStates == [.off])
        try session.tap("e", at: 1800)
        #expect(session.document.textField.text == "Ée")
    }

    /// Caps lock stays on after an alternate; ß keeps its form (its upper case is SS).
    @Test func capsLockAndLettersWithoutASingleUpperCase() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 100)
        try session.tap(.shift, at: 200)
        session.send(.pointerDown(.mouse, try session.center(of: "s")), at: 1000)
        session.send(.tick, at: 1000 + Self.delay)
        let bubble = try #require(session.pointers.bubble)
        #expect(bubble.choices.map(\.text) == ["ß", "Ś", "Š"])
        session.send(.pointerUp(.mouse, bubble.choices[0].frame.center), at: 1600)
        #expect(session.document.textField.text == "ß")
        #expect(session.modifiers.shift.state == .capsLock)
    }

    /// Digits' and symbols' alternates have no case: a one-shot shift survives them.
    @Test func shiftSurvivesCaselessAlternates() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 100)
        try session.tap("123", at: 300)
        session.send(.pointerDown(.mouse, try session.center(of: "-")), at: 1000)
        session.send(.tick, at: 1000 + Self.delay)
        let bubble = try #require(session.pointers.bubble)
        #expect(bubble.choices.map(\.text) == ["–", "—", "•"])
        let up = session.send(.pointerUp(.mouse, bubble.choices[1].frame.center), at: 1600)
        #expect(up.texts == ["—"])
        #expect(up.shiftStates.isEmpty)
        #expect(session.modifiers.shift.state == .on)
    }

    /// iOS rollover with a bubble open: a new touch commits the highlighted choice first.
    @Test func aNewTouchCommitsTheHighlightedChoice() throws {
        var session = try Self.holding("e", pointer: .finger(1))
        session.send(.tick, at: 1000 + Self.delay)
        let acute = try #require(session.pointers.bubble?.choices[1])
        session.send(.pointerMoved(.finger(1), acute.frame.center), at: 1600)
        let down = session.send(.pointerDown(.finger(2), try session.center(of: "123")), at: 1650)
        #expect(down.withoutDisplay == [
            .textChanged("é", caret: 1), .keyTouched("e", down: false), .keyTouched("123", down: true),
            .layerChanged("numbers"), .layoutChanged,
        ])
        #expect(session.pointers.bubble == nil)
        // The first finger's later movements and release do nothing.
        let up = session.send(.pointerUp(.finger(1), acute.frame.center), at: 1700)
        #expect(up.withoutDisplay.isEmpty)
        #expect(session.document.textField.text == "é")
    }

    /// A new touch with the highlight outside the bubble commits nothing.
    @Test func aNewTouchWithNothingHighlightedTypesNothing() throws {
        var session = try Self.holding("e", pointer: .finger(1))
        session.send(.tick, at: 1000 + Self.delay)
        session.send(.pointerMoved(.finger(1), try session.center(of: "x")), at: 1600)
        let down = session.send(.pointerDown(.finger(2), try session.center(of: "a")), at: 1650)
        #expect(down.texts.isEmpty)
        session.send(.pointerUp(.finger(2), try session.center(of: "a")), at: 1700)
        #expect(session.document.textField.text == "a")
    }

    /// Slid from 123 onto a digit's key with alternates and held: the bubble opens, the
    /// choice is typed and the letters come back, as for the key itself.
    @Test func alternateAfterASlideFromTheLayerKeyReturnsToLetters() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.mouse, try session.center(of: "123")), at: 100)
        session.send(.pointerMoved(.mouse, try session.center(of: "0")), at: 200)
        session.send(.tick, at: 200 + Self.delay)
        let degree = try #require(session.pointers.bubble?.choices.first)
        #expect(degree.text == "°")
        session.send(.pointerUp(.mouse, degree.frame.center), at: 800)
        #expect(session.document.textField.text == "°")
        #expect(session.layerName == "letters")
    }

    /// The bubble's pointer lost (focus gone, hover, the same id down again): it closes and
    /// types nothing.
    @Test(arguments: [0, 1, 2])
    func aLostPressClosesTheBubbleWithoutTyping(way: Int) throws {
        var session = try Self.holding("a")
        session.send(.tick, at: 1000 + Self.delay)
        #expect(session.pointers.bubble != nil)
        let point = try session.center(of: "q")
        switch way {
        case 0: session.send(.pointersCancelled, at: 1600)
        case 1: session.send(.pointerHover(.mouse, point), at: 1600)
        default: session.send(.pointerDown(.mouse, point), at: 1600)
        }
        #expect(session.pointers.bubble == nil)
        #expect(session.document.textField.text.isEmpty)
    }

    /// The keyboard closing (Escape, the close button pressed with another pointer) while a
    /// bubble is open: the bubble closes with it, and the release afterwards types nothing.
    @Test(arguments: [false, true])
    func closingTheKeyboardClosesTheBubble(byButton: Bool) throws {
        var session = try Self.holding("e", pointer: .finger(1))
        session.send(.tick, at: 1000 + Self.delay)
        #expect(session.pointers.bubble != nil)
        if byButton {
            session.click(.closeKeyboard, at: 1600)
        } else {
            session.send(.escape, at: 1600)
        }
        #expect(session.hostScreen.visibility.target == .hide)
        #expect(session.pointers.bubble == nil)
        let up = session.send(.pointerUp(.finger(1), try session.center(of: "e")), at: 1700)
        #expect(up.texts.isEmpty)
        #expect(session.document.textField.text.isEmpty)
    }

    /// System mode: the choice is sent as text.
    @Test func systemModeSendsTheChoice() throws {
        var session = try Self.holding("?", layer: "numbers", mode: .system)
        session.send(.tick, at: 1000 + Self.delay)
        let bubble = try #require(session.pointers.bubble)
        #expect(bubble.choices.map(\.text) == ["¿"])
        let up = session.send(.pointerUp(.mouse, bubble.choices[0].frame.center), at: 1600)
        #expect(up.withoutDisplay.contains(.send(.text("¿"))))
    }
}
