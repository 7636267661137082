import KeyboardCore
import Testing

/// Held desktop keys (issue 21): the arrows and backspace repeat on iOS's backspace schedule
/// (the press, then after 0.5 s every 0.1 s) with the modifiers they were pressed with;
/// Escape and Tab send once per press, when released.
@Suite("Desktop row: repeats")
struct DesktopRepeatTests {
    /// Holds `key` from `down` to `up` (ms) with no other input: every repeat due before the
    /// release happens at its own time when the release is handled. Returns all the effects.
    static func hold(_ key: KeyID, _ session: inout KeyboardSession, from down: Int, to up: Int) throws -> [KeyboardEffect] {
        let point = try session.center(of: key)
        return session.send(.pointerDown(.mouse, point), at: down) + session.send(.pointerUp(.mouse, point), at: up)
    }

    @Test("an arrow repeats on backspace's schedule", arguments: [("left", NamedKey.left), ("down", .down), ("up", .up), ("right", .right)])
    func arrowRepeats(key: String, named: NamedKey) throws {
        var session = Desktop.system()
        let point = try session.center(of: KeyID(key))
        let down = session.send(.pointerDown(.mouse, point), at: 1000)
        #expect(down.sends == [.key(named)], "acts when touched")
        #expect(session.pointers.keyRepeat?.nextFire == ms(1500))
        #expect(session.nextAnimationDeadline(after: ms(1100)) == ms(1500))
        #expect(session.send(.tick, at: 1499).sends.isEmpty)
        #expect(session.send(.tick, at: 1500).sends == [.key(named)])
        #expect(session.pointers.keyRepeat?.nextFire == ms(1600))
        // Held 3 s: no whole-word phase for an arrow, one step every 0.1 s.
        let rest = session.send(.pointerUp(.mouse, point), at: 4000)
        #expect(rest.sends == Array(repeating: .key(named), count: 24))  // 1.6 s … 3.9 s
        #expect(session.pointers.keyRepeat == nil)
        #expect(session.send(.tick, at: 5000).sends.isEmpty)
    }

    @Test("a latched modifier goes with every repeat of the key it went with", arguments: KeyAction.Modifier.allCases)
    func arrowRepeatsWithALatchedModifier(modifier: KeyAction.Modifier) throws {
        var session = Desktop.system()
        let held = Desktop.option(modifier)
        try session.tap(Desktop.key(modifier), at: 500)
        let effects = try Self.hold(Desktop.left, &session, from: 1000, to: 1750)
        #expect(effects.sends == Array(repeating: .key(.left, modifiers: held), count: 4))  // 1.0, 1.5, 1.6, 1.7 s
        #expect(effects.modifierChanges == [ModifierChange(modifier, .off)], "used up by the press, once")
        #expect(try Self.hold(Desktop.left, &session, from: 3000, to: 3550).sends == [.key(.left), .key(.left)])
    }

    @Test func arrowRepeatsWithALockedModifier() throws {
        var session = Desktop.system()
        try session.tap(Desktop.ctrl, at: 500)
        try session.tap(Desktop.ctrl, at: 700)
        #expect(session.modifiers.ctrl.state == .capsLock)
        let effects = try Self.hold(Desktop.right, &session, from: 1000, to: 1650)
        #expect(effects.sends == Array(repeating: .key(.right, modifiers: .control), count: 3))
        #expect(effects.modifierChanges.isEmpty)
        #expect(session.modifiers.ctrl.state == .capsLock)
    }

    @Test func arrowRepeatsInAChord() throws {
        var session = Desktop.system()
        let alt = try session.center(of: Desktop.alt)
        session.send(.pointerDown(.finger(1), alt), at: 900)
        let point = try session.center(of: Desktop.up)
        var effects = session.send(.pointerDown(.finger(2), point), at: 1000)
        effects += session.send(.pointerUp(.finger(2), point), at: 1650)
        #expect(effects.sends == Array(repeating: .key(.up, modifiers: .alt), count: 3))
        let up = session.send(.pointerUp(.finger(1), alt), at: 1700)
        #expect(up.modifierChanges == [ModifierChange(.alt, .off)])
    }

    @Test func backspaceWithCtrlRepeatsCtrlBackSpace() throws {
        var session = Desktop.system()
        try session.tap(Desktop.ctrl, at: 500)
        let effects = try Self.hold(.backspace, &session, from: 1000, to: 4000)
        // The press and every repeat (0.5 s … 3.9 s): 26 Ctrl+BackSpace.
        #expect(effects.sends == Array(repeating: .key(.backSpace, modifiers: .control), count: 26))
        #expect(effects.modifierChanges == [ModifierChange(.ctrl, .off)])
    }

    /// Backspace's whole-word phase adds Ctrl to a plain backspace only: with Alt, every repeat
    /// is Alt+BackSpace (never Ctrl+Alt+BackSpace, the X server's old "zap" key).
    @Test func backspaceWithAltRepeatsAltBackSpace() throws {
        var session = Desktop.system()
        try session.tap(Desktop.alt, at: 500)
        let effects = try Self.hold(.backspace, &session, from: 1000, to: 4000)
        #expect(effects.sends == Array(repeating: .key(.backSpace, modifiers: .alt), count: 26))
        #expect(!effects.sends.contains { $0.modifiers.contains(.control) })
    }

    @Test func plainBackspaceKeepsTheWordPhase() throws {
        var session = Desktop.system()
        let effects = try Self.hold(.backspace, &session, from: 1000, to: 4000)
        #expect(effects.sends == Array(repeating: .key(.backSpace), count: 16)
                + Array(repeating: .key(.backSpace, modifiers: .control), count: 10))
    }

    @Test("Escape and Tab send once per press, when released", arguments: [("esc", NamedKey.escape), ("tab", .tab)])
    func onceOnRelease(key: String, named: NamedKey) throws {
        var session = Desktop.system()
        let point = try session.center(of: KeyID(key))
        let down = session.send(.pointerDown(.mouse, point), at: 1000)
        #expect(down.withoutDisplay == [.keyTouched(KeyID(key), down: true)])
        #expect(session.pointers.keyRepeat == nil)
        #expect(session.nextAnimationDeadline(after: ms(1200)) == nil, "nothing to repeat")
        var held: [Keystroke] = []
        for t in stride(from: 1100, through: 4000, by: 100) { held += session.send(.tick, at: t).sends }
        #expect(held.isEmpty)
        let up = session.send(.pointerUp(.mouse, point), at: 4000)
        #expect(up.sends == [.key(named)])
        #expect(try session.tap(KeyID(key), at: 5000).sends == [.key(named)])
    }

    @Test func escapeHeldIsCommittedByTheNextTouch() throws {
        // iOS rollover: Escape types on release, so a touch on another key commits it first.
        var session = Desktop.system()
        let esc = try session.center(of: Desktop.esc)
        session.send(.pointerDown(.finger(1), esc), at: 1000)
        let next = try session.tap(.letter("j"), at: 1100, pointer: .finger(2))
        #expect(next.sends == [.key(.escape), .text("j")])
        #expect(session.send(.pointerUp(.finger(1), esc), at: 1200).sends.isEmpty)
    }

    @Test func hostScreenArrowRepeatsMoveTheCaret() throws {
        var session = Desktop.hostScreen()
        session.send(.textInput("hello world"), at: 500)
        let effects = try Self.hold(Desktop.left, &session, from: 1000, to: 1750)
        #expect(effects.sends.isEmpty)
        #expect(session.document.textField.caret == 7)
        #expect(session.document.textField.text == "hello world")
    }
}
