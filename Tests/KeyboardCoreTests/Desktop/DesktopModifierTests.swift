import KeyboardCore
import Testing

/// The desktop row's Ctrl and Alt (issue 21): seed 002's shift rules exactly — a tap latches
/// the modifier for the next key, a second touch-down strictly less than 0.25 s after the
/// first locks it, a tap while locked turns it off, and holding it while another finger taps
/// makes a chord — and a latched or locked modifier goes with the next key of any kind.
@Suite("Desktop row: Ctrl and Alt (seed 002's rules)")
struct DesktopModifierTests {
    /// Seed 002's table as taps at these times (ms, each held 40 ms) and the state after each.
    static let table: [(taps: [Int], states: [ShiftState])] = [
        ([1000], [.on]),                                                 // a tap latches
        ([1000, 2000], [.on, .off]),                                     // a second, slow tap: off
        ([1000, 1249], [.on, .capsLock]),                                // 0.249 s: a double tap locks
        ([1000, 1250], [.on, .off]),                                     // 0.25 s is not "less than"
        ([1000, 1251], [.on, .off]),                                     // 0.251 s: two taps
        ([1000, 1249, 2000], [.on, .capsLock, .off]),                    // a tap while locked: off
        ([1000, 1249, 2000, 2249], [.on, .capsLock, .off, .capsLock]),   // locked, double tap: off, then locked
        ([1000, 1249, 1400], [.on, .capsLock, .off]),                    // a third quick tap (0.151 s): off
    ]

    @Test("each tap changes the state as seed 002's shift does", arguments: KeyAction.Modifier.allCases, table.indices)
    func seedTable(modifier: KeyAction.Modifier, row: Int) throws {
        var session = Desktop.system()
        let key = Desktop.key(modifier)
        let other: KeyAction.Modifier = modifier == .ctrl ? .alt : .ctrl
        var states: [ShiftState] = []
        for time in Self.table[row].taps {
            let point = try session.center(of: key)
            let down = session.send(.pointerDown(.mouse, point), at: time)
            let state = session.state(of: modifier)
            #expect(down.withoutDisplay == [.keyTouched(key, down: true), .modifierChanged(modifier, state)])
            let up = session.send(.pointerUp(.mouse, point), at: time + 40)
            #expect(up.withoutDisplay == [.keyTouched(key, down: false)], "a tap's release changes nothing")
            states.append(session.state(of: modifier))
            #expect(session.state(of: other) == .off, "the other modifier is left alone")
        }
        #expect(states == Self.table[row].states, "taps at \(Self.table[row].taps) ms")
        #expect(session.modifiers.shift.state == .off)
    }

    /// A latched or locked modifier's key shows as shift's: off, on, capsLock.
    @Test func modelsAreSeparatePerModifier() throws {
        var session = Desktop.system()
        try session.tap(Desktop.ctrl, at: 1000)
        try session.tap(Desktop.alt, at: 1100)
        try session.tap(Desktop.alt, at: 1200)   // 0.1 s after alt's own first tap: locks alt
        #expect(session.modifiers.ctrl.state == .on)
        #expect(session.modifiers.alt.state == .capsLock)
        #expect(session.activeModifiers == [.control, .alt])
    }

    // MARK: Latch → next key → off

    /// A next key of every kind, what it sends with `modifiers` held, and how to press it.
    enum NextKey: String, CaseIterable {
        case letter, digitFromNumbers, space, tab, esc, arrow, backspace, `return`, hee

        /// Presses the key at `time` (a layer key first for the digit), returning the effects
        /// from the key that takes the modifier.
        func press(_ session: inout KeyboardSession, at time: Int) throws -> [KeyboardEffect] {
            switch self {
            case .letter: return try session.tap(.letter("c"), at: time)
            case .digitFromNumbers where session.layerName == "numbers":
                return try session.tap("1", at: time)
            case .digitFromNumbers:
                let layer = try session.tap("123", at: time)
                #expect(layer.sends.isEmpty && layer.modifierChanges.isEmpty, "the layer key leaves the modifier")
                #expect(session.layerName == "numbers")
                #expect(session.layout.keys[Desktop.ctrl] != nil, "the desktop row stays in the numbers layer")
                return try session.tap("1", at: time + 200)
            case .space: return try session.tap(.space, at: time)
            case .tab: return try session.tap(Desktop.tab, at: time)
            case .esc: return try session.tap(Desktop.esc, at: time)
            case .arrow: return try session.tap(Desktop.left, at: time)
            case .backspace: return try session.tap(.backspace, at: time)
            case .return: return try session.tap(.return, at: time)
            case .hee: return try session.tap(.hee, at: time)
            }
        }

        /// What it sends with `modifiers` (characters as text when there are none).
        func sends(_ modifiers: KeyModifiers) -> [Keystroke] {
            switch self {
            case .letter where modifiers.isEmpty: [.text("c")]
            case .digitFromNumbers where modifiers.isEmpty: [.text("1")]
            case .space where modifiers.isEmpty: [.text(" ")]
            case .letter: [.shortcut("c", modifiers: modifiers)]
            case .digitFromNumbers: [.shortcut("1", modifiers: modifiers)]
            case .space: [.shortcut(" ", modifiers: modifiers)]
            case .tab: [.key(.tab, modifiers: modifiers)]
            case .esc: [.key(.escape, modifiers: modifiers)]
            case .arrow: [.key(.left, modifiers: modifiers)]
            case .backspace: [.key(.backSpace, modifiers: modifiers)]
            case .return: [.key(.return, modifiers: modifiers)]
            // The へぇ button uses the modifier up, but 「へぇ〜」 goes out unchanged.
            case .hee: [.text("へぇ〜")]
            }
        }
    }

    @Test("a latched modifier goes with the next key of any kind and turns off",
          arguments: KeyAction.Modifier.allCases, NextKey.allCases)
    func latchGoesWithTheNextKey(modifier: KeyAction.Modifier, next: NextKey) throws {
        var session = Desktop.system()
        let latch = try session.tap(Desktop.key(modifier), at: 1000)
        #expect(latch.modifierChanges == [ModifierChange(modifier, .on)])
        #expect(latch.sends.isEmpty, "a modifier alone sends nothing")
        let effects = try next.press(&session, at: 2000)
        #expect(effects.sends == next.sends(Desktop.option(modifier)))
        #expect(effects.modifierChanges == [ModifierChange(modifier, .off)], "used up by \(next)")
        #expect(session.state(of: modifier) == .off)
        // The send comes before the modifier's key goes grey.
        let sendIndex = try #require(effects.firstIndex { if case .send = $0 { true } else { false } })
        let offIndex = try #require(effects.firstIndex { if case .modifierChanged = $0 { true } else { false } })
        #expect(sendIndex < offIndex)
        // The key after that goes plain.
        let plain: KeyID = session.layerName == "numbers" ? "2" : .letter("d")
        #expect(try session.tap(plain, at: 3000).sends == [.text(plain.name)])
        #expect(try next.press(&session, at: 4000).sends == next.sends([]))
    }

    @Test func latchedModifierAndShiftBothGoWithALetter() throws {
        var session = Desktop.system()
        try session.tap(.shift, at: 1000)
        try session.tap(Desktop.ctrl, at: 2000)
        let effects = try session.tap(.letter("a"), at: 3000)
        #expect(effects.sends == [.shortcut("A", modifiers: .control)], "Ctrl+Shift+A: the letter as shift cases it")
        #expect(effects.shiftStates == [.off])
        #expect(effects.modifierChanges == [ModifierChange(.ctrl, .off)])
    }

    @Test func latchedModifierGoesWithAnAlternate() throws {
        var session = Desktop.system()
        try session.tap(Desktop.alt, at: 1000)
        let e = try session.center(of: .letter("e"))
        session.send(.pointerDown(.mouse, e), at: 2000)
        let opened = session.send(.tick, at: 2000 + Int(AlternatesBubble.holdDelay / .milliseconds(1)))
        let choices = try #require(opened.compactMap { if case .alternatesShown(_, let c) = $0 { c } else { nil } }.first)
        let acute = try #require(choices.first { $0.text == "é" })
        session.send(.pointerMoved(.mouse, acute.frame.center), at: 2700)
        let up = session.send(.pointerUp(.mouse, acute.frame.center), at: 2750)
        #expect(up.sends == [.shortcut("é", modifiers: .alt)])
        #expect(up.modifierChanges == [ModifierChange(.alt, .off)])
    }

    @Test func bothModifiersGoWithTheNextKey() throws {
        var session = Desktop.system()
        try session.tap(Desktop.ctrl, at: 1000)
        try session.tap(Desktop.alt, at: 2000)
        let x = try session.tap(.letter("x"), at: 3000)
        #expect(x.sends == [.shortcut("x", modifiers: [.control, .alt])])
        #expect(x.modifierChanges == [ModifierChange(.ctrl, .off), ModifierChange(.alt, .off)])
        try session.tap(Desktop.ctrl, at: 4000)
        try session.tap(Desktop.alt, at: 5000)
        let right = try session.tap(Desktop.right, at: 6000)
        #expect(right.sends == [.key(.right, modifiers: [.control, .alt])])
        #expect(session.activeModifiers.isEmpty)
    }

    // MARK: Lock

    @Test("a locked modifier goes with every key until a tap turns it off", arguments: KeyAction.Modifier.allCases)
    func lockAcrossKeys(modifier: KeyAction.Modifier) throws {
        var session = Desktop.system()
        let key = Desktop.key(modifier), held = Desktop.option(modifier)
        try session.tap(key, at: 1000)
        let lock = try session.tap(key, at: 1249)
        #expect(lock.modifierChanges == [ModifierChange(modifier, .capsLock)])
        var sends: [Keystroke] = []
        var changes: [ModifierChange] = []
        for (i, next) in [KeyID.letter("c"), "left", "left", .backspace, .hee, "tab", .letter("v")].enumerated() {
            let effects = try session.tap(next, at: 2000 + 1000 * i)
            sends += effects.sends
            changes += effects.modifierChanges
        }
        #expect(sends == [.shortcut("c", modifiers: held), .key(.left, modifiers: held), .key(.left, modifiers: held),
                          .key(.backSpace, modifiers: held), .text("へぇ〜"), .key(.tab, modifiers: held),
                          .shortcut("v", modifiers: held)])
        #expect(changes.isEmpty, "the lock holds across keys")
        #expect(session.state(of: modifier) == .capsLock)
        let off = try session.tap(key, at: 10_000)
        #expect(off.modifierChanges == [ModifierChange(modifier, .off)])
        #expect(try session.tap(.letter("c"), at: 11_000).sends == [.text("c")])
    }

    // MARK: Chording

    @Test("held with one finger while another taps: a chord, off once released", arguments: KeyAction.Modifier.allCases)
    func chord(modifier: KeyAction.Modifier) throws {
        var session = Desktop.system()
        let key = Desktop.key(modifier), held = Desktop.option(modifier)
        let modifierPoint = try session.center(of: key)
        let down = session.send(.pointerDown(.finger(1), modifierPoint), at: 1000)
        #expect(down.modifierChanges == [ModifierChange(modifier, .on)])
        let c = try session.tap(.letter("c"), at: 1100, pointer: .finger(2))
        #expect(c.sends == [.shortcut("c", modifiers: held)])
        #expect(c.modifierChanges.isEmpty, "still held: the chord goes on")
        let left = try session.tap(Desktop.left, at: 1300, pointer: .finger(2))
        #expect(left.sends == [.key(.left, modifiers: held)])
        #expect(session.pressedKeys == [key])
        let up = session.send(.pointerUp(.finger(1), modifierPoint), at: 1500)
        #expect(up.withoutDisplay == [.keyTouched(key, down: false), .modifierChanged(modifier, .off)])
        #expect(try session.tap(.letter("c"), at: 1600).sends == [.text("c")])
        // A chord is neither a tap nor half of a double tap: the next touch latches.
        let again = try session.tap(key, at: 1700)
        #expect(again.modifierChanges == [ModifierChange(modifier, .on)])
    }

    @Test func heldWithoutAnotherKeyIsATap() throws {
        var session = Desktop.system()
        let point = try session.center(of: Desktop.ctrl)
        session.send(.pointerDown(.finger(1), point), at: 1000)
        let up = session.send(.pointerUp(.finger(1), point), at: 3000)
        #expect(up.modifierChanges.isEmpty)
        #expect(session.modifiers.ctrl.state == .on, "held 2 s and released with nothing typed: latched, as shift")
    }
}
