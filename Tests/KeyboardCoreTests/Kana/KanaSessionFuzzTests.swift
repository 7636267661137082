import KeyboardCore
import Testing

/// The kana pad under random input (issue 22): 30,000 random presses, flicks, releases,
/// candidate taps, globe switches, typing, resizes and converter answers — some of them stale
/// — through one session on `ja-kana` and `en`, with the pad's invariants checked after every
/// input. A failure names the seed and the step.
@Suite("Kana pad fuzz")
struct KanaSessionFuzzTests {
    typealias Rng = SplitMix64
    static let steps = 30_000
    static let pointerIDs: [PointerID] = [.mouse, .finger(1), .finger(2), .finger(3)]

    /// A point on a key (often a flick one), a candidate, or anywhere.
    static func point(_ session: KeyboardSession, _ rng: inout Rng) -> Point {
        let layout = session.layout
        func inside(_ rect: Rect) -> Point {
            Point(x: rect.x + Double.random(in: 0..<1, using: &rng) * rect.width, y: rect.y + Double.random(in: 0..<1, using: &rng) * rect.height)
        }
        switch Int.random(in: 0..<100, using: &rng) {
        case ..<70: return inside(layout.keys[layout.orderedKeys.randomElement(using: &rng)!]!)
        case ..<85 where !session.kana.candidateBar.cells.isEmpty: return inside(session.kana.candidateBar.cells.randomElement(using: &rng)!.frame)
        case ..<90: return inside(layout.textField)  // brings the keyboard back after 改行 closed it
        default:
            return Point(x: Double.random(in: -10...(layout.windowSize.width + 10), using: &rng),
                         y: Double.random(in: 0...layout.windowSize.height, using: &rng))
        }
    }

    /// The first broken invariant, or `nil`.
    static func violation(_ session: KeyboardSession, down: Set<PointerID>, shownComposition: String,
                          at time: Duration) -> String? {
        if Set(session.pointers.targets.keys) != down { return "pointers \(session.pointers.targets.keys) but down \(down)" }
        if let flick = session.pointers.flick {
            guard session.pointers[flick.pointer] == .key(flick.key) else { return "flick of \(flick.key) held by nobody" }
            guard session.definition.action(of: flick.key).isFlicked else { return "flick on \(flick.key), not a flick key" }
        }
        let composition = session.kana.pad.composition
        if session.isComposing == composition.isEmpty { return "isComposing out of step" }
        if (session.kanaCompositionText ?? "") != shownComposition {
            return "composition \(session.kanaCompositionText ?? "") but the last effect showed \(shownComposition)"
        }
        if !session.definition.hasKanaPad, session.isComposing { return "composing on \(session.definition.name)" }
        let bar = session.kana.candidateBar
        if bar.frame != session.layout.candidateBar { return "candidate bar \(bar.frame) not the layout's \(session.layout.candidateBar)" }
        for cell in bar.cells {
            guard composition.candidates.indices.contains(cell.index), composition.candidates[cell.index].text == cell.text else {
                return "cell \(cell.index) \(cell.text) is no candidate of \(composition.reading)"
            }
            guard cell.frame.minX >= bar.frame.minX - 1e-9, cell.frame.maxX <= bar.frame.maxX + 1e-9 else {
                return "cell \(cell.text) outside the bar"
            }
        }
        if bar.selected != composition.selectedCandidate { return "bar selects \(String(describing: bar.selected))" }
        if let deadline = session.nextDeadline(after: time), deadline < time { return "deadline \(deadline) before \(time)" }
        let pending = session.pointers.targets.values.filter { target in
            if case .key(let key) = target { key.map { session.definition.action(of: $0).actsOnTouchDown } != true } else { false }
        }
        if pending.count > 1 { return "\(pending.count) presses waiting to type on release" }
        return nil
    }

    @Test(arguments: [UInt64(0x4B41_4E41), 0xF11C_4000])
    func invariantsHoldAfterEveryInput(seed: UInt64) {
        var rng = Rng(state: seed)
        var session = KeyboardSession.kana()
        var converter = FakeKanaKanjiConverter()
        var asked: [String] = []
        var down: Set<PointerID> = []
        var last: [PointerID: Point] = [:]
        var shown = ""
        var time = Duration.zero
        var (commits, switches, flicks, candidateTaps, conversions) = (0, 0, 0, 0, 0)
        for step in 1...Self.steps {
            time += .milliseconds(Int.random(in: 0...250, using: &rng))
            let input: KeyboardInput
            let id = Self.pointerIDs.randomElement(using: &rng)!
            switch Int.random(in: 0..<100, using: &rng) {
            case ..<30: input = down.contains(id) ? .pointerUp(id, last[id]!) : .pointerDown(id, Self.point(session, &rng))
            case ..<45:
                // A flick: a move one key away from where the pointer went down.
                if let p = last[id], down.contains(id) {
                    let d = [(-90.0, 0.0), (90, 0), (0, -45), (0, 45), (3, 2)].randomElement(using: &rng)!
                    input = .pointerMoved(id, Point(x: p.x + d.0, y: p.y + d.1))
                } else {
                    input = .pointerDown(id, Self.point(session, &rng))
                }
            case ..<70 where !asked.isEmpty:
                // The converter answers one of the readings asked, the latest or a stale one.
                let reading = rng.chance(80) ? asked.removeLast() : asked.remove(at: Int.random(in: 0..<asked.count, using: &rng))
                input = .conversion(reading: reading, segments: converter.convert(reading))
                conversions += 1
            case ..<75: input = .tick
            case ..<77: input = .textInput("x")
            case ..<78: input = .windowResized([KeyboardLayout.defaultWindowSize, Size(width: 320, height: 700),
                                                Size(width: 700, height: 900)].randomElement(using: &rng)!)
            case ..<79: input = .pointersCancelled
            default: input = .tick
            }
            let effects = session.handle(input, at: time)
            switch input {
            case .pointerDown(let id, let p):
                down.insert(id)
                last[id] = p
            case .pointerMoved(let id, let p): last[id] = p
            case .pointerUp(let id, _):
                down.remove(id)
                last[id] = nil
            case .pointersCancelled:
                down = []
                last = [:]
            default: break
            }
            for effect in effects {
                switch effect {
                case .compositionChanged(let text, _): shown = text
                case .convert(let reading): asked.append(reading)
                case .kanaCommitted: commits += 1
                case .keyboardLayoutChanged: switches += 1
                default: break
                }
            }
            if effects.contains(where: { if case .compositionChanged = $0 { true } else { false } }), case .pointerUp = input { flicks += 1 }
            if case .pointerUp(_, let p) = input, effects.contains(where: { if case .kanaCommitted = $0 { true } else { false } }),
               session.layout.candidateBar.contains(p) {
                candidateTaps += 1
            }
            if let problem = Self.violation(session, down: down, shownComposition: shown, at: time) {
                Issue.record("seed \(seed), step \(step), t = \(time), after \(input): \(problem)")
                return
            }
        }
        #expect(flicks > 250 && commits > 200 && switches > 50 && candidateTaps > 10 && conversions > 500,
                "coverage: \(flicks) flicks, \(commits) commits, \(switches) switches, \(candidateTaps) candidate taps, \(conversions) answers")
    }
}
