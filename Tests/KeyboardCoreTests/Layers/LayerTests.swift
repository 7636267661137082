import KeyboardCore
import Testing

/// Issue 20's layers in the built-in iPhone English layout: every layer's keys in reading
/// order, the layer keys acting on touch, touch-slide-release from a layer key, rollover
/// across a layer switch and shift kept across layers.
@Suite("Layers (issue 20)")
struct LayerTests {
    /// The layers as the issue writes them (iPhone English), row by row under the へぇ button.
    static let expectedRows: [String: [[String]]] = [
        "letters": [
            ["hee"],
            "qwertyuiop".map { String($0) },
            "asdfghjkl".map { String($0) },
            ["shift"] + "zxcvbnm".map { String($0) } + ["backspace"],
            ["123", "space", "return"],
        ],
        "numbers": [
            ["hee"],
            "1234567890".map { String($0) },
            ["-", "/", ":", ";", "(", ")", "$", "&", "@", "\""],
            ["#+=", ".", ",", "?", "!", "'", "backspace"],
            ["ABC", "space", "return"],
        ],
        "symbols": [
            ["hee"],
            ["[", "]", "{", "}", "#", "%", "^", "*", "+", "="],
            ["_", "\\", "|", "~", "<", ">", "€", "£", "¥", "•"],
            ["123", ".", ",", "?", "!", "'", "backspace"],
            ["ABC", "space", "return"],
        ],
    ]

    static let sizes = [KeyboardLayout.defaultWindowSize, KeyboardLayout.minimumWindowSize,
                        Size(width: 390, height: 844), Size(width: 1024, height: 768)]

    /// A row of more narrow keys than columns (units within the row, but their gaps add up:
    /// the layout-file fuzz target's desktop row of eight keys in 5.75 columns, one 0.86 wide)
    /// is narrowed to fit at the narrowest window: every key inside the keyboard, in order,
    /// none overlapping, each found by a tap at its centre.
    @Test func aRowOfNarrowKeysWhoseGapsOverflowIsNarrowedToFit() throws {
        let ids: [KeyID] = ["a", "b", "c", "d", "e", "f", "g", "h"]
        let row: [RowItem] = ids.enumerated().map { i, id in .key(id, width: .units(i == 6 ? 0.86 : 0.68)) }
        let definition = LayoutDefinition(name: "narrow", columns: 5.75, layers: [
            LayerDefinition(name: "letters", rows: [[.key(.hee)], row, [.key(.space, width: .fill)]]),
        ])
        try definition.validate()
        let size = KeyboardLayout.minimumWindowSize(for: .hostScreen, keyRows: 2)
        let layout = KeyboardLayout(windowSize: size, mode: .hostScreen, definition: definition)
        let rects = try ids.map { try #require(layout.keys[$0]) }
        #expect(rects.first!.minX >= layout.keyboardFrame.minX && rects.last!.maxX <= layout.keyboardFrame.maxX,
                "\(rects.first!) … \(rects.last!) inside \(layout.keyboardFrame)")
        for (left, right) in zip(rects, rects.dropFirst()) { #expect(left.maxX < right.minX) }
        for (id, rect) in zip(ids, rects) { #expect(layout.key(at: rect.center) == id) }
        #expect(isClose(rects[6].width / rects[0].width, 0.86 / 0.68, tolerance: 1e-6), "the widths keep their ratios")
    }

    @Test func englishHasTheThreeLayersInOrder() {
        #expect(LayoutDefinition.english.name == "en")
        #expect(LayoutDefinition.english.layers.map(\.name) == ["letters", "numbers", "symbols"])
        #expect(throws: Never.self) { try LayoutDefinition.english.validate() }
    }

    @Test(arguments: ["letters", "numbers", "symbols"])
    func layerKeysInReadingOrder(layer: String) throws {
        let rows = try #require(Self.expectedRows[layer])
        let definition = try #require(LayoutDefinition.english.layer(named: layer))
        #expect(definition.keyIDs.map(\.name) == rows.flatMap { $0 })
        for size in Self.sizes {
            for mode in [KeyboardMode.hostScreen, .system] {
                // The layer's own rows (system mode's desktop row is DesktopRowTests' concern).
                let layout = KeyboardLayout(windowSize: size, mode: mode, layer: layer, desktopKeys: false)
                #expect(layout.layerName == layer)
                #expect(layout.orderedKeys.map(\.name) == rows.flatMap { $0 })
                #expect(Set(layout.keys.keys) == Set(layout.orderedKeys))
                // Each row's keys share a top edge and run left to right without overlapping.
                for row in rows where row != ["hee"] {
                    let frames = try row.map { try #require(layout.keys[KeyID($0)]) }
                    #expect(Set(frames.map(\.y)).count == 1, "\(layer) row \(row) at \(size)")
                    for (a, b) in zip(frames, frames.dropFirst()) {
                        #expect(a.maxX <= b.minX + 1e-9, "\(layer) row \(row) at \(size)")
                    }
                    // Inside the keyboard.
                    #expect(frames.first!.minX >= layout.keyboardFrame.minX && frames.last!.maxX <= layout.keyboardFrame.maxX)
                }
            }
        }
    }

    /// The bottom row and the へぇ button stay put whichever layer is shown (the へぇ button
    /// exactly as seed 000 draws it in every layer).
    @Test(arguments: sizes)
    func heeButtonAndBottomRowStayInPlaceAcrossLayers(size: Size) {
        let letters = KeyboardLayout(windowSize: size, layer: "letters")
        for layer in ["numbers", "symbols"] {
            let other = KeyboardLayout(windowSize: size, layer: layer)
            #expect(other.heeFrame == letters.heeFrame)
            #expect(other.keyboardFrame == letters.keyboardFrame)
            // The layer key sits where shift does (second row from the bottom, left edge).
            let layerKey: KeyID = layer == "numbers" ? "#+=" : "123"
            for (key, place) in [(KeyID.space, KeyID.space), (.return, .return), (.backspace, .backspace),
                                 (layerKey, .shift), ("ABC", "123")] {
                // The same rectangle, up to rounding (widths summed in another order).
                let a = other.keys[key], b = letters.keys[place]
                #expect(a != nil && b != nil)
                if let a, let b {
                    #expect(isClose(a.x, b.x, tolerance: 1e-6) && isClose(a.y, b.y) && isClose(a.width, b.width, tolerance: 1e-6)
                            && isClose(a.height, b.height), "\(key) in \(layer) at \(size)")
                }
            }
        }
    }

    /// Effects of touching and releasing `key` with `pointer`, the layer shown after each.
    static func touch(_ session: inout KeyboardSession, _ key: KeyID, at time: Int,
                      pointer: PointerID = .mouse) throws -> [KeyboardEffect] {
        session.send(.pointerDown(pointer, try session.center(of: key)), at: time)
    }

    @Test func layerKeysActWhenTouchedAndTheLayerStays() throws {
        var session = KeyboardSession.launched()
        #expect(session.layerName == "letters")
        let point = try session.center(of: "123")
        let down = session.send(.pointerDown(.mouse, point), at: 100)
        #expect(down.withoutDisplay == [.keyTouched("123", down: true), .layerChanged("numbers"), .layoutChanged])
        #expect(session.layerName == "numbers")
        #expect(session.layout.orderedKeys.map(\.name) == Self.expectedRows["numbers"]!.flatMap { $0 })
        // Released where it was touched: a tap leaves the numbers shown and types nothing.
        let up = session.send(.pointerUp(.mouse, point), at: 160)
        #expect(up.texts.isEmpty)
        #expect(!up.contains(.layoutChanged))
        #expect(session.layerName == "numbers")

        let symbols = try Self.touch(&session, "#+=", at: 300)
        #expect(symbols.withoutDisplay == [.keyTouched("#+=", down: true), .layerChanged("symbols"), .layoutChanged])
        session.send(.pointerUp(.mouse, try session.center(of: "123")), at: 340)
        #expect(session.layerName == "symbols")

        let numbers = try Self.touch(&session, "123", at: 500)
        #expect(numbers.withoutDisplay == [.keyTouched("123", down: true), .layerChanged("numbers"), .layoutChanged])
        session.send(.pointerUp(.mouse, try session.center(of: "#+=")), at: 540)

        let letters = try Self.touch(&session, "ABC", at: 700)
        #expect(letters.withoutDisplay == [.keyTouched("ABC", down: true), .layerChanged("letters"), .layoutChanged])
        let release = session.send(.pointerUp(.mouse, try session.center(of: "123")), at: 740)
        #expect(release.withoutDisplay == [.keyTouched("ABC", down: false)])
        #expect(session.layerName == "letters")
        #expect(session.document.textField.text.isEmpty)
    }

    @Test func layerKeyTappedThenCharactersType() throws {
        var session = KeyboardSession.launched()
        try session.tap("123", at: 100)
        try session.tap("3", at: 300)
        try session.tap(":", at: 500)
        try session.tap("4", at: 700)
        try session.tap("5", at: 900)
        #expect(session.document.textField.text == "3:45")
        #expect(session.layerName == "numbers")
        try session.tap("#+=", at: 1100)
        try session.tap("[", at: 1300)
        try session.tap("€", at: 1500)
        try session.tap("123", at: 1700)
        try session.tap("$", at: 1900)
        try session.tap("ABC", at: 2100)
        try session.tap("a", at: 2300)
        #expect(session.document.textField.text == "3:45[€$a")
    }

    /// iOS: touch 123, slide onto 3, release — "3" is typed and the letters come back.
    @Test func touchLayerKeySlideToACharacterAndRelease() throws {
        var session = KeyboardSession.launched()
        try Self.touch(&session, "123", at: 100)
        #expect(session.layerName == "numbers")
        let three = try session.center(of: "3")
        let onto = session.send(.pointerMoved(.mouse, three), at: 200)
        #expect(onto.withoutDisplay == [.keyTouched("123", down: false), .keyTouched("3", down: true)])
        #expect(onto.texts.isEmpty)
        let up = session.send(.pointerUp(.mouse, three), at: 260)
        #expect(up.withoutDisplay == [
            .textChanged("3", caret: 1), .layerChanged("letters"), .layoutChanged, .keyTouched("3", down: false),
        ])
        #expect(session.layerName == "letters")
        #expect(session.pointers.layerReturns.isEmpty)
        #expect(session.pressedKeys.isEmpty)
    }

    /// The slide passes over other keys (the finger crosses the rows): only the key it is
    /// released on types; from #+= too (back to numbers).
    @Test func slideAcrossKeysTypesOnlyTheLastAndReturns() throws {
        var session = KeyboardSession.launched()
        try Self.touch(&session, "123", at: 100)
        for (i, key) in ["(", "8", "9"].enumerated() {
            session.send(.pointerMoved(.mouse, try session.center(of: KeyID(key))), at: 150 + 20 * i)
        }
        session.send(.pointerUp(.mouse, try session.center(of: "9")), at: 250)
        #expect(session.document.textField.text == "9")
        #expect(session.layerName == "letters")

        try session.tap("123", at: 400)
        try Self.touch(&session, "#+=", at: 600)
        #expect(session.layerName == "symbols")
        let hash = try session.center(of: "#")
        session.send(.pointerMoved(.mouse, hash), at: 650)
        session.send(.pointerUp(.mouse, hash), at: 700)
        #expect(session.document.textField.text == "9#")
        #expect(session.layerName == "numbers")
    }

    /// A slide that ends where nothing types (off the keys, or back at the layer key's
    /// place, which in the numbers layer is ABC, a key that acts on touch) types nothing and
    /// the new layer stays; so does a plain tap.
    @Test(arguments: [false, true])
    func slideEndingWhereNothingTypesKeepsTheLayer(backToTheLayerKey: Bool) throws {
        var session = KeyboardSession.launched()
        let layerKey = try session.center(of: "123")
        try Self.touch(&session, "123", at: 100)
        let three = try session.center(of: "3")
        session.send(.pointerMoved(.mouse, three), at: 150)
        let end = backToTheLayerKey ? layerKey : Point(x: three.x, y: session.layout.keyboardFrame.minY - 40)
        let moved = session.send(.pointerMoved(.mouse, end), at: 200)
        #expect(moved.withoutDisplay == [.keyTouched("3", down: false)])
        let up = session.send(.pointerUp(.mouse, end), at: 250)
        #expect(up.withoutDisplay.isEmpty)
        #expect(session.layerName == "numbers")
        #expect(session.pointers.layerReturns.isEmpty)
        #expect(session.document.textField.text.isEmpty)
    }

    @Test func tapOnALayerKeyKeepsTheLayer() throws {
        var session = KeyboardSession.launched()
        let point = try session.center(of: "123")
        try Self.touch(&session, "123", at: 100)
        // Jitter on the key, then the release where it was touched.
        session.send(.pointerMoved(.mouse, Point(x: point.x + 2, y: point.y - 1)), at: 120)
        let up = session.send(.pointerUp(.mouse, point), at: 150)
        #expect(up.withoutDisplay == [.keyTouched("123", down: false)])
        #expect(session.layerName == "numbers")
    }

    // MARK: Rollover across layers

    /// A letter held when another finger touches 123: the letter types at that moment, then
    /// the numbers show.
    @Test func aHeldLetterCommitsWhenALayerKeyIsTouched() throws {
        var session = KeyboardSession.launched()
        let a = try session.center(of: "a")
        session.send(.pointerDown(.finger(1), a), at: 100)
        let effects = session.send(.pointerDown(.finger(2), try session.center(of: "123")), at: 150)
        #expect(effects.withoutDisplay == [
            .textChanged("a", caret: 1), .keyTouched("a", down: false), .keyTouched("123", down: true),
            .layerChanged("numbers"), .layoutChanged,
        ])
        // The first finger's release does nothing more.
        let up = session.send(.pointerUp(.finger(1), a), at: 200)
        #expect(up.withoutDisplay.isEmpty)
        #expect(session.document.textField.text == "a")
        #expect(session.layerName == "numbers")
    }

    /// Slid from 123 onto 3 and held; another finger touches 5: "3" types then, the slide's
    /// way back to the letters is dropped (the numbers stay for the 5), and 5 types on its
    /// release.
    @Test func aSlidCharacterCommitsWhenAnotherKeyIsTouched() throws {
        var session = KeyboardSession.launched()
        try Self.touch(&session, "123", at: 100, pointer: .finger(1))
        let three = try session.center(of: "3")
        session.send(.pointerMoved(.finger(1), three), at: 150)
        let five = try session.center(of: "5")
        let down = session.send(.pointerDown(.finger(2), five), at: 200)
        #expect(down.texts == ["3"])
        #expect(session.layerName == "numbers")
        session.send(.pointerUp(.finger(1), three), at: 230)
        session.send(.pointerUp(.finger(2), five), at: 260)
        #expect(session.document.textField.text == "35")
        #expect(session.pressedKeys.isEmpty)
    }

    /// A digit held while a second finger slides off #+= onto a symbol: the digit commits
    /// when the slide reaches the symbol (a new key is touched), before the symbol.
    @Test func slidingOffALayerKeyCommitsTheHeldKey() throws {
        var session = KeyboardSession.launched()
        try session.tap("123", at: 100)
        let seven = try session.center(of: "7")
        session.send(.pointerDown(.finger(1), seven), at: 300)
        try Self.touch(&session, "#+=", at: 320, pointer: .finger(2))
        #expect(session.document.textField.text == "7")
        let hash = try session.center(of: "#")
        session.send(.pointerMoved(.finger(2), hash), at: 360)
        session.send(.pointerUp(.finger(2), hash), at: 400)
        session.send(.pointerUp(.finger(1), seven), at: 420)
        #expect(session.document.textField.text == "7#")
        #expect(session.layerName == "numbers")
    }

    // MARK: Shift across layers

    /// A one-shot shift survives digits and symbols and goes to the next letter.
    @Test func oneShotShiftIsKeptAcrossLayers() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 100)
        #expect(session.modifiers.shift.state == .on)
        try session.tap("123", at: 400)
        let digit = try session.tap("1", at: 600)
        #expect(digit.texts == ["1"])
        #expect(digit.shiftStates.isEmpty)
        #expect(session.modifiers.shift.state == .on)
        try session.tap("#+=", at: 800)
        try session.tap("€", at: 1000)
        try session.tap("ABC", at: 1200)
        #expect(session.modifiers.shift.state == .on)
        let letter = try session.tap("a", at: 1400)
        #expect(letter.texts == ["1€A"])
        #expect(letter.shiftStates == [.off])
        try session.tap("b", at: 1600)
        #expect(session.document.textField.text == "1€Ab")
    }

    @Test func capsLockIsKeptAcrossLayers() throws {
        var session = KeyboardSession.launched()
        try session.tap(.shift, at: 100)
        try session.tap(.shift, at: 200)
        #expect(session.modifiers.shift.state == .capsLock)
        try session.tap("123", at: 500)
        try session.tap("2", at: 700)
        try session.tap("ABC", at: 900)
        try session.tap("x", at: 1100)
        try session.tap("y", at: 1300)
        #expect(session.document.textField.text == "2XY")
        #expect(session.modifiers.shift.state == .capsLock)
    }

    /// The shift key's place holds #+= / 123 on the other layers: nothing there changes
    /// shift.
    @Test func noShiftKeyOnTheOtherLayers() throws {
        let numbers = KeyboardLayout(windowSize: KeyboardLayout.defaultWindowSize, layer: "numbers")
        let symbols = KeyboardLayout(windowSize: KeyboardLayout.defaultWindowSize, layer: "symbols")
        #expect(numbers.keys[.shift] == nil)
        #expect(symbols.keys[.shift] == nil)
    }

    // MARK: Return

    /// Host screen: return ends editing as a SwiftUI TextField does: the field loses focus,
    /// the keyboard slides away and its status reads hidden once the slide ends.
    @Test func returnOnTheHostScreenEndsEditing() throws {
        var session = KeyboardSession.launched()
        try session.tap("o", at: 100)
        try session.tap("k", at: 300)
        let point = try session.center(of: .return)
        let down = session.send(.pointerDown(.mouse, point), at: 500)
        #expect(down.withoutDisplay == [.keyTouched(.return, down: true)])
        #expect(session.hostScreen.isTextFieldFocused)
        let up = session.send(.pointerUp(.mouse, point), at: 560)
        #expect(up.withoutDisplay == [.keyTouched(.return, down: false), .stopTextInput, .stopAudioEngine])
        #expect(!session.hostScreen.isTextFieldFocused)
        #expect(session.hostScreen.visibility.target == .hide)
        #expect(session.document.textField.text == "ok")
        let settled = session.send(.tick, at: 560 + 250)
        #expect(settled.withoutDisplay == [.keyboardFrameChanged(.hide, .zero)])
        #expect(session.hostScreen.monitor.keyboardStatus == .hide)
        // A tap where a key was types nothing now.
        try session.tap("a", at: 1000)
        #expect(session.document.textField.text == "ok")
    }

    /// Return from the numbers layer ends editing too; the layer is kept.
    @Test func returnFromTheNumbersLayerEndsEditing() throws {
        var session = KeyboardSession.launched()
        try session.tap("123", at: 100)
        try session.tap(.return, at: 300)
        #expect(!session.hostScreen.isTextFieldFocused)
        #expect(session.hostScreen.visibility.target == .hide)
    }

    /// A return held when another key is touched commits (rollover) and ends editing: the
    /// new touch acts on nothing.
    @Test func returnCommittedByRolloverEndsEditing() throws {
        var session = KeyboardSession.launched()
        session.send(.pointerDown(.finger(1), try session.center(of: .return)), at: 100)
        let effects = session.send(.pointerDown(.finger(2), try session.center(of: "a")), at: 150)
        #expect(effects.contains(.stopTextInput))
        #expect(!effects.contains(.keyTouched("a", down: true)))
        session.send(.pointerUp(.finger(2), try session.center(of: "a")), at: 200)
        session.send(.pointerUp(.finger(1), try session.center(of: .return)), at: 220)
        #expect(session.document.textField.text.isEmpty)
        #expect(session.pressedKeys.isEmpty)
    }

    /// System mode: return sends Return, and the keyboard stays.
    @Test func returnInSystemModeSendsReturn() throws {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system)
        session.send(.launched, at: 0)
        let effects = try session.tap(.return, at: 100)
        #expect(effects.withoutDisplay == [.keyTouched(.return, down: true), .send(.key(.return)),
                                           .keyTouched(.return, down: false)])
        #expect(session.hostScreen.visibility.target == .show)
        try session.tap("123", at: 300)
        let fromNumbers = try session.tap(.return, at: 500)
        #expect(fromNumbers.contains(.send(.key(.return))))
    }
}
