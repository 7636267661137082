import KeyboardCore
import Testing

/// Issue 3's seeded random test: 100,000 random inputs (pointers, ticks, typing, resizes,
/// focus loss) through one `KeyboardSession`, with the session's invariants checked after
/// every input. A failure names the seed and the step, so it can be replayed.
///
/// Issue 20's keys are in it: the layer keys (123, #+=, ABC) are keys of the layers shown,
/// presses are held past the hold delay (alternates bubbles, the space bar's trackpad) and
/// slide along the bubbles, with the layer, bubble, hold and trackpad invariants below.
@Suite("KeyboardSession fuzz")
struct SessionFuzzTests {
    static let steps = 100_000
    static let pointerIDs: [PointerID] = [.mouse] + (1...5).map { PointerID.finger(Int64($0)) }
    static let windowSizes = [
        KeyboardLayout.defaultWindowSize, KeyboardLayout.minimumWindowSize,
        Size(width: 390, height: 844), Size(width: 800, height: 1000),
    ]
    static let typedPieces = ["a", "Z", " ", "へぇ〜", "é", "e\u{301}", "🇯🇵", "👍🏽", "ab cd", "\n", "\t"]
    static let editingKeys: [EditingCommand] = [.deleteBackward, .deleteBackward, .move(.characterLeft),
                                                .move(.characterRight), .move(.start), .move(.end)]

    /// What the test itself knows, built only from the inputs it sent and the effects it saw.
    struct Observed {
        /// Pointers the test has put down and not released (a hover of the mouse or a focus
        /// loss counts as a release).
        var down: Set<PointerID> = []
        /// Keys pressed, according to the `keyTouched` effects.
        var touched: Set<KeyID> = []
        /// Since launch or the last reset (the reset button sets the count back to 0).
        var heeCounted = 0
        var heePressTransitions = 0
        var sounds = 0
        /// Over the whole run, and how many resets.
        var totalCounted = 0
        var resets = 0
        var shift = ShiftState.off

        // Coverage: how often the interesting cases happened.
        var lettersTyped = 0
        /// Letters committed by another touch beginning (iOS rollover).
        var rolloverCommits = 0
        var keyRepeats = 0
        var chordsEnded = 0
        var lostReleases = 0
        var cancelsWithPointersDown = 0
        var layoutChanges = 0
        var hides = 0
        /// Issue 20: the layer shown according to the `layerChanged` effects, how often it
        /// changed, bubbles opened, choices typed from them, trackpad caret steps, and presses
        /// slid from a layer key that typed and brought the layer back.
        var layer = "letters"
        var layerChanges = 0
        var bubblesOpened = 0
        var choicesTyped = 0
        var trackpadSteps = 0
        var slideReturns = 0
        /// Whether the space bar is the trackpad, according to the `trackpadChanged` effects.
        var trackpadOn = false
        var maxTextCount = 0
    }

    /// A random point: ~70 % on a key (a random point of its rectangle, often the へぇ
    /// button), ~12 % on a host control, the rest anywhere in or a little outside the window.
    static func randomPoint(_ layout: KeyboardLayout, _ rng: inout SplitMix64) -> Point {
        func inside(_ rect: Rect) -> Point {
            Point(x: rect.x + Double.random(in: 0..<1, using: &rng) * rect.width,
                  y: rect.y + Double.random(in: 0..<1, using: &rng) * rect.height)
        }
        let roll = Int.random(in: 0..<100, using: &rng)
        switch roll {
        case ..<15: return inside(layout.heeFrame)
        case ..<70: return inside(layout.keys[layout.orderedKeys.randomElement(using: &rng)!]!)
        case ..<76: return inside(layout.textField)
        case ..<82: return inside(layout.closeKeyboard)
        default:
            let size = layout.windowSize
            return Point(x: Double.random(in: -20...(size.width + 20), using: &rng),
                         y: Double.random(in: -20...(size.height + 20), using: &rng))
        }
    }

    /// The next input, given what the test knows (so most releases match a press).
    static func randomInput(_ session: KeyboardSession, _ observed: Observed, last: [PointerID: Point],
                            _ rng: inout SplitMix64) -> KeyboardInput {
        let roll = Int.random(in: 0..<100, using: &rng)
        switch roll {
        case ..<60:
            let id = rng.chance(30) ? PointerID.mouse : pointerIDs[Int.random(in: 1..<pointerIDs.count, using: &rng)]
            if observed.down.contains(id) {
                let action = Int.random(in: 0..<100, using: &rng)
                if action < 40 {
                    // A finger on an open bubble slides along it (or just off it).
                    if let bubble = session.pointers.bubble, bubble.pointer == id, rng.chance(60) {
                        let cell = bubble.choices.randomElement(using: &rng)!.frame
                        return .pointerMoved(id, Point(x: cell.midX + Double.random(in: -cell.width...cell.width, using: &rng),
                                                       y: cell.midY + Double.random(in: -cell.height...cell.height, using: &rng)))
                    }
                    // A finger on the trackpad drags along (a few steps either way).
                    if let pad = session.pointers.trackpad, pad.pointer == id, let p = last[id], rng.chance(60) {
                        return .pointerMoved(id, Point(x: p.x + Double.random(in: -40...40, using: &rng), y: p.y))
                    }
                    // Move: often jitter of a few points, sometimes anywhere.
                    if let p = last[id], rng.chance(50) {
                        return .pointerMoved(id, Point(x: p.x + Double.random(in: -6...6, using: &rng),
                                                       y: p.y + Double.random(in: -6...6, using: &rng)))
                    }
                    return .pointerMoved(id, randomPoint(session.layout, &rng))
                }
                if action < 88 {
                    let p = rng.chance(70) ? (last[id] ?? randomPoint(session.layout, &rng)) : randomPoint(session.layout, &rng)
                    return .pointerUp(id, p)
                }
                if id == .mouse && action < 95 { return .pointerHover(.mouse, randomPoint(session.layout, &rng)) }
                // The same id goes down again: its release was lost.
                return .pointerDown(id, randomPoint(session.layout, &rng))
            }
            let action = Int.random(in: 0..<100, using: &rng)
            // Now and then the space bar, to be held into a trackpad.
            if action < 8, let space = session.layout.keys[.space] { return .pointerDown(id, space.center) }
            if action < 85 { return .pointerDown(id, randomPoint(session.layout, &rng)) }
            if id == .mouse && action < 95 { return .pointerHover(.mouse, randomPoint(session.layout, &rng)) }
            // A stray release or motion of a pointer that is not down.
            return rng.chance(50) ? .pointerUp(id, randomPoint(session.layout, &rng))
                                  : .pointerMoved(id, randomPoint(session.layout, &rng))
        case ..<75: return .tick
        case ..<82: return .textInput(typedPieces.randomElement(using: &rng)!)
        case ..<92: return .editing(editingKeys.randomElement(using: &rng)!)
        case ..<94: return .windowResized(windowSizes.randomElement(using: &rng)!)
        case ..<95: return .pointersCancelled
        default: return .tick
        }
    }

    /// Updates `observed` with `input` and its `effects`; returns the first inconsistency.
    static func observe(_ input: KeyboardInput, _ effects: [KeyboardEffect], _ observed: inout Observed,
                        before: KeyboardSession) -> String? {
        if case .pointerUp(let id, _) = input, before.pointers.bubble?.pointer == id, !effects.texts.isEmpty {
            observed.choicesTyped += 1
        }
        if case .pointerMoved(let id, _) = input, before.pointers.trackpad?.pointer == id {
            observed.trackpadSteps += effects.texts.count
        }
        if case .pointerUp(let id, _) = input, before.pointers.layerReturns[id] != nil, effects.contains(.layoutChanged) {
            observed.slideReturns += 1
        }
        // A layer change is always followed by the new layout.
        for (i, effect) in effects.enumerated() {
            if case .layerChanged = effect, effects.dropFirst(i + 1).first != .layoutChanged {
                return "layerChanged not followed by layoutChanged"
            }
        }
        switch input {
        case .pointerDown(let id, _):
            if !observed.down.insert(id).inserted { observed.lostReleases += 1 }
        case .pointerUp(let id, _): observed.down.remove(id)
        case .pointerHover(let id, _):
            if observed.down.remove(id) != nil { observed.lostReleases += 1 }
        case .pointersCancelled:
            if !observed.down.isEmpty { observed.cancelsWithPointersDown += 1 }
            observed.down = []
        default: break
        }
        // A chord ends when shift is released and turns off in the same input.
        if effects.contains(.keyTouched(.shift, down: false)), effects.contains(.shiftChanged(.off)) {
            observed.chordsEnded += 1
        }
        for effect in effects {
            switch effect {
            case .keyTouched(let key, down: true):
                guard observed.touched.insert(key).inserted else { return "\(key) touched down while already down" }
                // A press transition counts, and is heard, unless a reset came in between.
                if key == .hee { observed.heePressTransitions += 1 }
            case .keyTouched(let key, down: false):
                guard observed.touched.remove(key) != nil else { return "\(key) released while not down" }
            case .heeCounted(let count):
                guard count == observed.heeCounted + 1 else { return "heeCounted(\(count)) after \(observed.heeCounted)" }
                observed.heeCounted = count
                observed.totalCounted += 1
            case .countReset:
                observed.heeCounted = 0
                observed.heePressTransitions = 0
                observed.sounds = 0
                observed.resets += 1
            case .playSound(.hee):
                observed.sounds += 1
            case .shiftChanged(let state):
                observed.shift = state
            case .layoutChanged:
                observed.layoutChanges += 1
            case .trackpadChanged(let on):
                guard on != observed.trackpadOn else { return "trackpadChanged(\(on)) twice" }
                observed.trackpadOn = on
            case .layerChanged(let name):
                guard name != observed.layer else { return "layerChanged to \(name), already shown" }
                observed.layer = name
                observed.layerChanges += 1
            case .alternatesShown(let key, let choices):
                observed.bubblesOpened += 1
                let texts = before.definition.alternates(of: key)
                guard !choices.isEmpty, choices.count == texts.count,
                      zip(choices, texts).allSatisfy({ $0.text.lowercased() == $1.lowercased() }) else {
                    return "bubble of \(key) shows \(choices.map(\.text)), its alternates are \(texts)"
                }
            case .stopAudioEngine:
                observed.hides += 1
            default:
                break
            }
        }
        let texts = effects.texts
        if case .pointerUp = input, !texts.isEmpty { observed.lettersTyped += 1 }
        if case .pointerDown = input, !texts.isEmpty, !effects.contains(where: { $0 == .keyTouched(.backspace, down: true) || $0 == .keyTouched(.hee, down: true) }) {
            observed.rolloverCommits += 1
        }
        if case .tick = input { observed.keyRepeats += texts.count }
        return nil
    }

    /// The session's invariants at `time`, given what the test observed; the first one that
    /// fails, or `nil`.
    /// `wasTick`: the input was `.tick` (a deadline at its very time must then be past; after
    /// another input it may wait for the tick, so a release at the same time wins).
    static func violation(_ session: KeyboardSession, _ observed: Observed, _ effects: [KeyboardEffect],
                          at time: Duration, wasTick: Bool, fullTextCheck: Bool) -> String? {
        if Set(session.pointers.targets.keys) != observed.down {
            return "pointers \(session.pointers.targets.keys.sorted { $0.description < $1.description }) but down \(observed.down.sorted { $0.description < $1.description })"
        }
        if session.pointers.targets.isEmpty, !session.pressedKeys.isEmpty {
            return "no pointer down but keys \(session.pressedKeys.sorted()) pressed"
        }
        if session.pressedKeys != observed.touched {
            return "pressed \(session.pressedKeys.sorted()) but keyTouched says \(observed.touched.sorted())"
        }
        if session.hee.model.count != observed.heeCounted {
            return "hee.count \(session.hee.model.count) but \(observed.heeCounted) heeCounted effects"
        }
        if session.hee.model.count != observed.heePressTransitions {
            return "hee.count \(session.hee.model.count) but \(observed.heePressTransitions) press transitions"
        }
        if observed.sounds != observed.heeCounted { return "\(observed.sounds) sounds for \(observed.heeCounted) counts" }
        if session.hee.model.isTouching != session.pressedKeys.contains(.hee) { return "hee.isTouching out of step" }
        if session.modifiers.shift.isTouching != session.pressedKeys.contains(.shift) { return "shift.isTouching out of step" }
        if (session.pointers.keyRepeat != nil) != session.pressedKeys.contains(.backspace) {
            return "backspace repeat \(session.pointers.keyRepeat == nil ? "off" : "on") with backspace \(session.pressedKeys.contains(.backspace) ? "held" : "up")"
        }
        if session.modifiers.shift.state != observed.shift {
            return "shift \(session.modifiers.shift.state) but last shiftChanged \(observed.shift)"
        }
        let field = session.document.textField
        if !(0...field.count).contains(field.caret) { return "caret \(field.caret) outside 0...\(field.count)" }
        if fullTextCheck, field.count != field.text.count {
            return "count \(field.count) but text has \(field.text.count) characters"
        }
        if case .textChanged(let text, let caret)? = effects.last(where: { if case .textChanged = $0 { true } else { false } }),
           text != field.text || caret != field.caret {
            return "the last textChanged differs from the field"
        }
        if let deadline = session.nextDeadline(after: time), deadline < time || (wasTick && deadline == time) {
            return "deadline \(deadline) not after \(time)"
        }
        // iOS rollover: every touch that begins on a key commits the presses that type on
        // release, so at most one such press is pending at any time.
        let pending = session.pointers.targets.values.filter { target in
            if case .key(let key) = target { key.map { session.definition.action(of: $0).actsOnTouchDown } != true } else { false }
        }
        if pending.count > 1 { return "\(pending.count) presses waiting to type on release" }
        if session.isAnimating(at: time), session.nextDeadline(after: time) == nil {
            return "animating with no deadline"
        }
        if let problem = layerViolation(session, observed, effects, at: time, wasTick: wasTick) { return problem }
        if let schedule = session.pointers.keyRepeat, !schedule.isIdle,
           schedule.nextFire < time || (wasTick && schedule.nextFire == time) {
            return "backspace repeat due at \(schedule.nextFire), already past at \(time)"
        }
        // A repeat waits only while there is nothing for it to delete.
        if session.pointers.keyRepeat?.isIdle == true, session.document.textField.caret != 0 || session.document.textField.anchor != 0 {
            return "backspace repeat idle with the caret at \(session.document.textField.caret), anchor \(session.document.textField.anchor)"
        }
        return nil
    }

    /// Issue 20's invariants: the layer shown is the last one reported and laid out from the
    /// layout's definition; a bubble, a pending hold and the trackpad each belong to a pointer
    /// that is down and holds their key (a bubble's choices inside the keyboard, its
    /// highlight one of them); none of them while the keyboard is hidden or going away; the
    /// hold is due in the future; a way back to a layer only for a pointer that is down.
    static func layerViolation(_ session: KeyboardSession, _ observed: Observed, _ effects: [KeyboardEffect],
                               at time: Duration, wasTick: Bool) -> String? {
        if session.layerName != observed.layer { return "layer \(session.layerName) but last layerChanged \(observed.layer)" }
        guard let layer = session.definition.layer(named: session.layerName) else { return "no layer \(session.layerName)" }
        if session.layout.orderedKeys != layer.keyIDs { return "layout of \(session.layerName) lists other keys" }
        for case .alternatesShown(let key, let choices) in effects {
            if let bubble = session.pointers.bubble, bubble.key != key || bubble.choices != choices { return "alternatesShown differs from the bubble" }
        }
        let live = session.hostScreen.visibility.target == .show
        if let bubble = session.pointers.bubble {
            guard live else { return "bubble of \(bubble.key) open with the keyboard \(session.hostScreen.visibility.target)" }
            guard session.pointers[bubble.pointer] == .key(bubble.key) else {
                return "bubble of \(bubble.key) but \(bubble.pointer) holds \(String(describing: session.pointers[bubble.pointer]))"
            }
            if let selected = bubble.selected, !bubble.choices.indices.contains(selected) { return "highlight \(selected) outside the bubble" }
            let keyboard = session.layout.keyboardFrame
            if bubble.frame.minX < keyboard.minX || bubble.frame.maxX > keyboard.maxX { return "bubble \(bubble.frame) outside \(keyboard)" }
            if session.pointers.trackpad != nil { return "a bubble and the trackpad at once" }
        }
        if (session.pointers.trackpad != nil) != observed.trackpadOn {
            return "trackpad \(session.pointers.trackpad == nil ? "off" : "on") but the last trackpadChanged says \(observed.trackpadOn)"
        }
        if let pad = session.pointers.trackpad {
            guard live else { return "trackpad on with the keyboard \(session.hostScreen.visibility.target)" }
            guard session.pointers[pad.pointer] == .key(.space) else { return "trackpad but \(pad.pointer) is not on the space bar" }
        }
        if let hold = session.pointers.hold {
            guard live else { return "hold of \(hold.key) pending with the keyboard \(session.hostScreen.visibility.target)" }
            guard session.pointers[hold.pointer] == .key(hold.key) else { return "hold of \(hold.key) but its pointer holds something else" }
            if hold.due < time || (wasTick && hold.due == time) { return "hold due at \(hold.due), past at \(time)" }
            if session.pointers.bubble?.pointer == hold.pointer || session.pointers.trackpad?.pointer == hold.pointer {
                return "hold pending for a pointer whose bubble or trackpad is open"
            }
        }
        for id in session.pointers.layerReturns.keys where session.pointers[id] == nil {
            return "a way back to \(session.pointers.layerReturns[id]!) for \(id), which is up"
        }
        return nil
    }

    @Test(arguments: [UInt64(0x5EED_0003), 0xC0FF_EE11])
    func invariantsHoldAfterEveryInput(seed: UInt64) {
        var rng = SplitMix64(state: seed)
        var session = KeyboardSession.launched()
        var observed = Observed()
        var last: [PointerID: Point] = [:]
        var time = Duration.zero

        for step in 1...Self.steps {
            // Time moves on 0-300 ms; sometimes exactly to the next deadline.
            if let deadline = session.nextDeadline(after: time), rng.chance(10) {
                time = deadline
            } else {
                time += .milliseconds(Int.random(in: 0...300, using: &rng))
            }
            let input = Self.randomInput(session, observed, last: last, &rng)
            let before = session
            let effects = session.handle(input, at: time)
            switch input {
            case .pointerDown(let id, let p), .pointerMoved(let id, let p): last[id] = p
            case .pointerUp(let id, _), .pointerHover(let id, _): last[id] = nil
            case .pointersCancelled: last = [:]
            default: break
            }
            if let problem = Self.observe(input, effects, &observed, before: before)
                ?? Self.violation(session, observed, effects, at: time, wasTick: input == .tick,
                                  fullTextCheck: step % 1000 == 0) {
                Issue.record("seed \(seed), step \(step), t = \(time), after \(input): \(problem)")
                return
            }
            observed.maxTextCount = max(observed.maxTextCount, session.document.textField.count)
        }

        // All pointers up at the end: nothing may stay pressed.
        _ = session.handle(.pointersCancelled, at: time)
        #expect(session.pointers.targets.isEmpty)
        #expect(session.pressedKeys.isEmpty)
        #expect(session.document.textField.count == session.document.textField.text.count)

        // The run reached the cases it is meant to exercise.
        #expect(observed.totalCounted > 1_000)
        #expect(observed.lettersTyped > 1_000)
        #expect(observed.rolloverCommits > 100)
        #expect(observed.keyRepeats > 100)
        #expect(observed.chordsEnded > 10)
        #expect(observed.lostReleases > 100)
        #expect(observed.cancelsWithPointersDown > 100)
        #expect(observed.layoutChanges > 100)
        #expect(observed.hides > 100)
        // Issue 20's cases.
        #expect(observed.layerChanges > 300)
        #expect(observed.bubblesOpened > 100)
        #expect(observed.choicesTyped > 20)
        #expect(observed.trackpadSteps > 20)
        #expect(observed.slideReturns > 20)
    }
}
