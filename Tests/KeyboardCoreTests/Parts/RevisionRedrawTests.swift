import KeyboardCore
import Testing

/// The redraw decision by the parts' revisions (issue 29): whenever what the renderer reads of
/// the session changes, the input's effects ask for a frame. Random inputs through sessions of
/// both modes, English and the kana pad, compared against everything `Scene` reads.
@Suite("Redraw by the parts' revisions")
struct RevisionRedrawTests {
    /// What the renderer (`HeeRender`'s `Scene`) reads of a session at `time`.
    struct Drawn: Equatable {
        var layout: KeyboardLayout
        var definition: String
        var pressed: Set<KeyID>, control: HostControl?
        var shift: ShiftState, upper: Bool, ctrl: ShiftState, alt: ShiftState
        var text: String, caret: Int, anchor: Int
        var composition: Document.Composition?, kanaComposition: String?, isComposing: Bool
        var focused: Bool, caretVisible: Bool
        var status: KeyboardStatus, size: String, volume: Int, counter: String, full: Bool
        var target: KeyTarget, trackpad: Bool, bubble: AlternatesBubble?
        var guideKey: KeyID?, guide: FlickGuide?, bar: CandidateBar
        var offset: Double, cap: Double

        init(_ s: KeyboardSession, at time: Duration) {
            layout = s.layout
            definition = s.definition.name
            pressed = s.pressedKeys
            control = s.pressedHostControl
            (shift, upper) = (s.modifiers.shift.state, s.modifiers.shift.typesUpperCase)
            (ctrl, alt) = (s.modifiers.ctrl.state, s.modifiers.alt.state)
            (text, caret, anchor) = (s.document.textField.text, s.document.textField.caret, s.document.textField.anchor)
            (composition, kanaComposition, isComposing) = (s.document.composition, s.kanaCompositionText, s.isComposing)
            (focused, caretVisible) = (s.hostScreen.isTextFieldFocused, s.isCaretVisible(at: time))
            (status, size) = (s.hostScreen.monitor.keyboardStatus, s.hostScreen.monitor.sizeText)
            (volume, counter, full) = (s.hee.volume, s.hee.model.counterText, s.hee.model.isFull)
            (target, trackpad, bubble) = (s.document.keyTarget, s.pointers.trackpad != nil, s.pointers.bubble)
            (guideKey, guide, bar) = (s.flickGuide?.key, s.flickGuide?.guide, s.kana.candidateBar)
            (offset, cap) = (s.keyboardOffset(at: time), s.capPress(at: time))
        }
    }

    static let pointers: [PointerID] = [.mouse, .finger(1), .finger(2), .finger(3)]
    static let sizes = [KeyboardLayout.defaultWindowSize, Size(width: 700, height: 900)]

    static func randomPoint(_ s: KeyboardSession, _ rng: inout SplitMix64) -> Point {
        let layout = s.layout
        if rng.chance(75), let key = layout.orderedKeys.randomElement(using: &rng), let frame = layout.keys[key] {
            return Point(x: frame.midX + Double.random(in: -frame.width...frame.width, using: &rng) / 3,
                         y: frame.midY + Double.random(in: -frame.height...frame.height, using: &rng) / 3)
        }
        if rng.chance(50), let control = HostControl.allCases.randomElement(using: &rng) { return layout.frame(of: control).center }
        return Point(x: Double.random(in: 0...layout.windowSize.width, using: &rng),
                     y: Double.random(in: 0...layout.windowSize.height, using: &rng))
    }

    static func randomInput(_ s: KeyboardSession, _ rng: inout SplitMix64) -> KeyboardInput {
        let id = pointers.randomElement(using: &rng)!
        switch Int.random(in: 0..<100, using: &rng) {
        case ..<25: return s.pointers[id] == nil ? .pointerDown(id, randomPoint(s, &rng)) : .pointerUp(id, randomPoint(s, &rng))
        case ..<45: return .pointerMoved(id, randomPoint(s, &rng))
        case ..<50: return .pointerDown(id, randomPoint(s, &rng))
        case ..<65: return .tick
        case ..<70: return .textInput(["a", "é", " ", "へぇ"].randomElement(using: &rng)!)
        case ..<74: return .composition(["", "に", "にほ"].randomElement(using: &rng)!, cursor: Int.random(in: 0...2, using: &rng))
        case ..<80: return .editing([.deleteBackward, .move(.characterLeft), .selectAll, .undo].randomElement(using: &rng)!)
        case ..<83: return .placeCaret(at: Int.random(in: 0...5, using: &rng), extendingSelection: rng.chance(30),
                                       clickCount: Int.random(in: 1...3, using: &rng))
        case ..<85: return .windowResized(sizes.randomElement(using: &rng)!)
        case ..<87: return .keyTargetChanged(rng.chance(50) ? .noFocusedWindow : .window(FocusedWindow(id: 3, title: "gedit")))
        case ..<88: return rng.chance(50) ? .pointersCancelled : .touchesCancelled
        case ..<89: return .pointerHover(.mouse, randomPoint(s, &rng))
        case ..<90: return .escape
        default: return .tick
        }
    }

    @Test(arguments: [KeyboardMode.hostScreen, .system], [false, true])
    func whatIsDrawnNeverChangesWithoutAFrame(mode: KeyboardMode, kana: Bool) {
        var rng = SplitMix64(state: kana ? 29 : 30)
        var session = KeyboardSession(windowSize: mode == .system ? KeyboardLayout.defaultSystemWindowSize(candidateBar: true)
                                                                  : KeyboardLayout.defaultWindowSize,
                                      mode: mode, definition: kana ? .japaneseKana : .english,
                                      layouts: kana ? [.english, .japaneseKana] : [])
        var converter = FakeKanaKanjiConverter()
        var time = 0, frames = 0, changes = 0
        _ = session.handle(.launched, at: .zero)
        for step in 0..<20_000 {
            time += [0, 1, 10, 40, 120, 260, 510].randomElement(using: &rng)!
            let input = Self.randomInput(session, &rng)
            let before = Drawn(session, at: ms(time))
            var effects = session.handle(input, at: ms(time))
            for case .convert(let reading) in effects {
                effects += session.handle(.conversion(reading: reading, segments: converter.convert(reading)), at: ms(time))
            }
            let after = Drawn(session, at: ms(time))
            let changed = after != before
            if changed { changes += 1 }
            if effects.contains(.needsDisplay) { frames += 1 }
            if changed && !effects.contains(.needsDisplay) {
                let fields = zip(Mirror(reflecting: before).children, Mirror(reflecting: after).children)
                    .filter { "\($0.value)" != "\($1.value)" }.map { "\($0.label ?? "?"): \($0.value) → \($1.value)" }
                Issue.record("step \(step): \(input) changed what is drawn without a frame: \(fields.joined(separator: "; "))")
                return
            }
        }
        #expect(changes > 2_000, "a fair test: \(changes) inputs changed what is drawn")
        #expect(frames < 20_000, "not every input draws: \(frames) frames")
    }
}
