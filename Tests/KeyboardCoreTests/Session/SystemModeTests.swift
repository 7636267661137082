import KeyboardCore
import Testing

/// System mode (`--system`): the same session rules, typing through `KeystrokeDocumentProxy`
/// into another application; a keyboard-only layout with a return key and a target line.
@Suite("System mode")
struct SystemModeTests {
    static func launched(_ size: Size = KeyboardLayout.defaultSystemWindowSize()) -> KeyboardSession {
        var session = KeyboardSession(windowSize: size, mode: .system)
        _ = session.handle(.launched, at: .zero)
        return session
    }

    // MARK: Session

    @Test func launchShowsTheKeyboardWithoutTextInput() {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system)
        let effects = session.send(.launched, at: 0)
        #expect(effects.withoutDisplay == [
            .layoutChanged, .startAudioEngine, .keyboardFrameChanged(.show, session.layout.keyboardFrame),
            .prepareKeys("へぇ〜qwertyuiopasdfghjklzxcvbnm"),
        ])
        #expect(!session.hostScreen.isTextFieldFocused)
        #expect(session.document.keyTarget == .noFocusedWindow)
        #expect(session.mode == .system)
    }

    @Test func heeSendsItsTextCountsAndPlays() throws {
        var session = Self.launched()
        let hee = try session.center(of: .hee)
        let effects = session.send(.pointerDown(.mouse, hee), at: 1000)
        #expect(effects.withoutDisplay == [
            .keyTouched(.hee, down: true), .heeCounted(1), .send(.text("へぇ〜")), .playSound(.hee),
        ])
        #expect(session.document.textField.text.isEmpty)
        #expect(session.document.keystrokes.pending.isEmpty)
        let up = session.send(.pointerUp(.mouse, hee), at: 1100)
        #expect(up.withoutDisplay == [.keyTouched(.hee, down: false)])
    }

    /// Sends of `effects`, in order.
    static func sends(_ effects: [KeyboardEffect]) -> [Keystroke] {
        effects.compactMap { if case .send(let stroke) = $0 { stroke } else { nil } }
    }

    @Test func lettersTypeOnReleaseInTheCaseShiftDecides() throws {
        var session = Self.launched()
        let down = session.send(.pointerDown(.mouse, try session.center(of: .letter("h"))), at: 100)
        #expect(Self.sends(down).isEmpty)
        let up = session.send(.pointerUp(.mouse, try session.center(of: .letter("h"))), at: 150)
        #expect(Self.sends(up) == [.text("h")])
        var typed: [Keystroke] = []
        typed += Self.sends(try session.tap(.letter("i"), at: 300))
        typed += Self.sends(try session.tap(.shift, at: 500))     // one-shot shift
        typed += Self.sends(try session.tap(.letter("a"), at: 700))
        typed += Self.sends(try session.tap(.letter("a"), at: 900))
        typed += Self.sends(try session.tap(.space, at: 1100))
        typed += Self.sends(try session.tap(.shift, at: 1300))     // double tap: caps lock
        typed += Self.sends(try session.tap(.shift, at: 1450))
        #expect(session.modifiers.shift.state == .capsLock)
        typed += Self.sends(try session.tap(.letter("b"), at: 1700))
        typed += Self.sends(try session.tap(.letter("c"), at: 1900))
        typed += Self.sends(try session.tap(.return, at: 2100))
        #expect(typed == [.text("i"), .text("A"), .text("a"), .text(" "), .text("B"), .text("C"), .key(.return)])
        #expect(session.document.textField.text.isEmpty)
    }

    @Test func keyRepeatsThenDeletesWordsAfterTwoSeconds() throws {
        var session = Self.launched()
        let point = try session.center(of: .backspace)
        var sends = Self.sends(session.send(.pointerDown(.mouse, point), at: 1000))
        #expect(sends == [.key(.backSpace)])
        // The app wakes for each deadline; ticks every 10 ms here.
        for t in stride(from: 1010, through: 4000, by: 10) { sends += Self.sends(session.send(.tick, at: t)) }
        sends += Self.sends(session.send(.pointerUp(.mouse, point), at: 4005))
        // Down at 0 s, repeats every 0.1 s from 0.5 s (15 up to 1.9 s), words from 2.0 s to 3.0 s (11).
        #expect(sends == [.key(.backSpace)] + Array(repeating: .key(.backSpace), count: 15)
                + Array(repeating: .key(.backSpace, control: true), count: 11))
    }

    @Test func keyTargetIsShownAndNothingElse() {
        var session = Self.launched()
        let window = FocusedWindow(id: 0x400003, title: "Terminal")
        let effects = session.send(.keyTargetChanged(.window(window)), at: 100)
        #expect(effects == [.needsDisplay])
        #expect(session.document.keyTarget == .window(window))
        #expect(session.send(.keyTargetChanged(.window(window)), at: 200).isEmpty)
        #expect(session.send(.keyTargetChanged(.noFocusedWindow), at: 300) == [.needsDisplay])
    }

    @Test func noHostScreenNoTextFieldAndEscapeKeepsTheKeyboard() {
        var session = Self.launched()
        let host = KeyboardLayout(windowSize: KeyboardLayout.defaultSystemWindowSize())
        #expect(session.layout.hostControl(at: host.textField.center) == nil)
        _ = session.send(.textInput("x"), at: 100)
        _ = session.send(.editing(.deleteBackward), at: 110)
        _ = session.send(.paste("y"), at: 120)
        let escape = session.send(.escape, at: 200)
        #expect(escape.isEmpty)
        #expect(session.hostScreen.visibility.target == .show)
        #expect(session.document.textField.text.isEmpty)
    }

    /// One code path: the same touches on the same keys (at the same relative points, in
    /// each mode's own layout) make the host screen's text field hold exactly what the
    /// system-mode keystrokes make of a text field they are typed into, after every input;
    /// counts, shift states and key presses agree too. Random touches, holds and rollovers.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func sameRulesInBothModes(seed: UInt64) throws {
        var rng = SplitMix64(state: seed)
        var host = KeyboardSession.launched()
        var system = Self.launched()
        var replica = TextBuffer()
        let keys: [KeyID] = [.hee, .shift, .backspace, .space] + "abcdefghijklmnopqrstuvwxyz".map { KeyID.letter($0) }
        let pointers: [PointerID] = [.mouse, .finger(1), .finger(2)]
        var down: [PointerID: KeyID] = [:]
        var time = 100
        func point(_ key: KeyID, _ layout: KeyboardLayout, _ u: Double, _ v: Double) -> Point {
            let r = layout.keys[key]!
            return Point(x: r.x + u * r.width, y: r.y + v * r.height)
        }
        for step in 0..<3_000 {
            time += [1, 5, 30, 120, 400, 900].randomElement(using: &rng)!
            let id = pointers.randomElement(using: &rng)!
            let (u, v) = (Double.random(in: 0.05..<0.95, using: &rng), Double.random(in: 0.05..<0.95, using: &rng))
            let input: (KeyboardLayout) -> KeyboardInput
            if let held = down[id] {
                if rng.chance(25) {
                    let next = rng.chance(50) ? held : keys.randomElement(using: &rng)!
                    input = { .pointerMoved(id, point(next, $0, u, v)) }
                } else {
                    down[id] = nil
                    input = { .pointerUp(id, point(held, $0, u, v)) }
                }
            } else if rng.chance(70) {
                let key = keys.randomElement(using: &rng)!
                // A touch on an open bubble chooses its cell (issue 28, class 8); the bubble
                // stands over other keys in each mode's layout, so such a touch is a tick here
                // (OverlayTouchTests has its rules).
                // (A bubble due before this moment opens before the touch is handled.)
                let onBubble = [host, system].contains { session in
                    var opened = session
                    opened.handle(.tick, at: ms(time) - .nanoseconds(1))
                    return opened.pointers.bubble.map { $0.cell(containing: point(key, opened.layout, u, v)) != nil } ?? false
                }
                if onBubble {
                    input = { _ in .tick }
                } else {
                    down[id] = key
                    input = { .pointerDown(id, point(key, $0, u, v)) }
                }
            } else {
                input = { _ in .tick }
            }
            let hostEffects = host.handle(input(host.layout), at: ms(time))
            let systemEffects = system.handle(input(system.layout), at: ms(time))
            for stroke in Self.sends(systemEffects) {
                switch stroke {
                case .text(let text): replica.insertText(text)
                case .key(.backSpace, modifiers: []): replica.deleteBackward()
                case .key(.backSpace, modifiers: .control): replica.deleteWordBackward()
                // The space bar held turns into the trackpad: the caret moves.
                case .key(.left, modifiers: []): replica.adjustTextPosition(byCharacterOffset: -1)
                case .key(.right, modifiers: []): replica.adjustTextPosition(byCharacterOffset: 1)
                default: Issue.record("unexpected \(stroke)")
                }
            }
            try #require(host.document.textField.text == replica.text, "seed \(seed) step \(step)")
            try #require(host.hee.model.count == system.hee.model.count, "seed \(seed) step \(step)")
            try #require(host.modifiers.shift == system.modifiers.shift, "seed \(seed) step \(step)")
            try #require(host.pressedKeys == system.pressedKeys, "seed \(seed) step \(step)")
            try #require(hostEffects.heeCounts == systemEffects.heeCounts)
            try #require(hostEffects.shiftStates == systemEffects.shiftStates)
            #expect(systemEffects.texts.isEmpty)
        }
        #expect(host.hee.model.count > 0)
        #expect(replica.text.count > 0)
    }

    // MARK: Layout

    @Test func keyboardFillsTheWindowBelowTheTargetLine() throws {
        for size in [KeyboardLayout.defaultSystemWindowSize(), KeyboardLayout.minimumWindowSize(for: .system),
                     Size(width: 800, height: 500), Size(width: 360, height: 900), Size(width: 1600, height: 420)] {
            let layout = KeyboardLayout(windowSize: size, mode: .system)
            #expect(layout.mode == .system)
            #expect(layout.targetLine == Rect(x: 0, y: 0, width: size.width, height: KeyboardLayout.targetLineHeight))
            #expect(layout.keyboardFrame == Rect(x: 0, y: KeyboardLayout.targetLineHeight, width: size.width,
                                                 height: size.height - KeyboardLayout.targetLineHeight))
            let keyRects = layout.orderedKeys.compactMap { layout.keys[$0] }
            #expect(keyRects.count == 40)  // へぇ, the desktop row (8), shift, backspace, 123, space, return, a–z
            for (i, a) in keyRects.enumerated() {
                #expect(layout.keyboardFrame.contains(Point(x: a.minX, y: a.minY)))
                #expect(a.maxX <= size.width + 1e-9 && a.maxY <= size.height + 1e-9)
                for b in keyRects[(i + 1)...] { #expect(!a.intersects(b)) }
            }
            // The bottom row reaches the window's bottom (within the 6 pt padding and the
            // rounding of key heights to whole points).
            let space = try #require(layout.keys[.space])
            #expect(size.height - space.maxY >= KeyboardLayout.keyboardBottomPadding - 1e-9)
            #expect(size.height - space.maxY < KeyboardLayout.keyboardBottomPadding + 4)
            // iOS's bottom row: 123 at the left edge, the space bar, return up to the right edge.
            let ret = try #require(layout.keys[.return]), numbers = try #require(layout.keys["123"])
            #expect(ret.y == space.y && ret.height == space.height && numbers.y == space.y)
            #expect(isClose(numbers.minX, KeyboardLayout.keyboardSideMargin))
            #expect(isClose(space.minX, numbers.maxX + KeyboardLayout.keyGap))
            #expect(isClose(ret.minX, space.maxX + KeyboardLayout.keyGap))
            #expect(isClose(ret.maxX, size.width - KeyboardLayout.keyboardSideMargin))
            #expect(layout.key(at: ret.center) == .return)
            #expect(layout.hostControl(at: Point(x: 20, y: 100)) == nil)
            #expect(layout.textField == .zero)
        }
    }

    @Test func keysGrowWithTheWindowAndTheMinimumHasNoOverlap() {
        let small = KeyboardLayout(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system)
        #expect(small.keyHeight == KeyboardLayout.keyHeight)
        #expect(small.heeScale == 1)
        // The へぇ button follows the width (up to 1.25×); the key rows (the desktop row and
        // the four of the letters) take the height left.
        let tall = KeyboardLayout(windowSize: Size(width: 480, height: 700), mode: .system)
        #expect(tall.heeScale == 1)
        #expect(tall.keyHeight == 86)
        let large = KeyboardLayout(windowSize: Size(width: 600, height: 700), mode: .system)
        #expect(large.heeScale == 1.25)
        #expect(large.keyHeight == 77)
        // Without the desktop row (--no-desktop-keys) the four rows share it.
        #expect(KeyboardLayout(windowSize: Size(width: 480, height: 700), mode: .system, desktopKeys: false).keyHeight == 110)
        #expect(KeyboardLayout(windowSize: Size(width: 600, height: 700), mode: .system, desktopKeys: false).keyHeight == 98)
        #expect(KeyboardLayout.minimumWindowSize(for: .system, keyRows: 4) == Size(width: 320, height: 324))
        #expect(KeyboardLayout.defaultSystemWindowSize(keyRows: 4) == Size(width: 480, height: 418))
        let minimum = KeyboardLayout.minimumWindowSize(for: .system)
        #expect(minimum == Size(width: 320, height: 372))
        #expect(KeyboardLayout.defaultSystemWindowSize() == Size(width: 480, height: 466))
        // Smaller requests are laid out as the minimum.
        #expect(KeyboardLayout(windowSize: Size(width: 100, height: 100), mode: .system).windowSize == minimum)
        // The host screen's layout has the same bottom row (issue 20) and no target line.
        let host = KeyboardLayout(windowSize: KeyboardLayout.defaultWindowSize)
        #expect(host.keys[.return] != nil && host.keys["123"] != nil)
        #expect(host.targetLine == .zero)
    }

    @Test func resizingReflows() throws {
        var session = Self.launched()
        let effects = session.send(.windowResized(Size(width: 700, height: 520)), at: 100)
        #expect(effects.contains(.layoutChanged))
        #expect(!effects.contains { if case .startTextInput = $0 { true } else { false } })
        #expect(session.layout == KeyboardLayout(windowSize: Size(width: 700, height: 520), mode: .system))
        let sends = Self.sends(try session.tap(.letter("q"), at: 300))
        #expect(sends == [.text("q")])
    }

    // MARK: Words

    @Test func targetLineWords() {
        let en = SystemModeText.english, ja = SystemModeText.japanese
        #expect(en.targetLine(.window(FocusedWindow(id: 1, title: "Terminal"))) == "Keys go to: Terminal")
        #expect(en.targetLine(.window(FocusedWindow(id: 0x1e00003, title: ""))) == "Keys go to: untitled window 0x1e00003")
        #expect(en.targetLine(.noFocusedWindow) == "No window has focus")
        #expect(ja.targetLine(.window(FocusedWindow(id: 1, title: "端末"))) == "入力先：端末")
        #expect(ja.targetLine(.noFocusedWindow) == "フォーカスのあるウィンドウがありません")
        #expect(en.returnKey == "return" && ja.returnKey == "改行")
        #expect(SystemModeText.of(.ja) == ja && SystemModeText.of(.en) == en)
    }

}
