/// The 12-key kana pad's rules (iOS 日本語かな): flick and toggle input, 「゛゜小」, `→`, `↶`,
/// and the composition with its candidates, fed with `KanaPadInput`s and the time they
/// happened, answering with `KanaPadEffect`s.
///
/// Toggle input (unless `isFlickOnly`): a tap on the key that typed the last kana steps that
/// kana through the key's cycle (あ→い→う…) when the touch went down less than
/// `toggleTimeout` after the last kana was typed; otherwise it types a new kana. A flick
/// always types a new kana and starts no cycle. `→`, any other key, or the timeout end the
/// cycle. `↶` steps the last kana back (あ→ぉ, wrapping; a flicked kana too if it is in
/// its key's cycle) and lets taps continue from there.
///
/// Times are `Duration`s since the session started, like every rule of the core.
public struct KanaPad: Hashable, Sendable {
    /// How long after the last kana a tap on the same key still steps it. iOS's value is not
    /// published; users describe a pause of "0.5 to 1 s" as enough to type たた rather than ち
    /// (openblog.seesaa.net, also a VoiceOver user's 「連打する間隔が空きすぎると、あ段から入る」).
    /// Measured from the lift that typed (or stepped) the kana to the next touch-down.
    public static let defaultToggleTimeout: Duration = .milliseconds(500)

    /// iOS's 「フリックのみ」 setting: taps never step a kana.
    public var isFlickOnly: Bool
    /// See `defaultToggleTimeout`.
    public var toggleTimeout: Duration
    /// The 「゛゜小」 key's table.
    public var modifiers: KanaModifierTable
    /// The 顔文字 a tap on 「゛゜小」 shows when nothing is composed (iOS's ^_^ key, issue 34;
    /// empty: the tap does nothing).
    public var kaomoji: [String] = []
    /// The reading, its candidates and the chosen one.
    public private(set) var composition = KanaComposition()
    /// The key that typed the last kana, while `↶` or a tap can still step it.
    public private(set) var toggle: Toggle?

    /// Where the last kana stands in its key's cycle.
    public struct Toggle: Hashable, Sendable {
        /// The key that typed the last kana.
        public var key: KanaKey
        /// The last kana's position in `key.cycle` (`nil`: a flicked kana outside the cycle,
        /// such as や's 「, which `↶` cannot step).
        public var index: Int?
        /// Whether a tap on `key` steps the kana (after a tap or `↶`; not after a flick or
        /// `→`, nor in flick-only mode).
        public var isCycling: Bool
        /// When the kana was typed or last stepped.
        public var time: Duration
    }

    public init(isFlickOnly: Bool = false, toggleTimeout: Duration = KanaPad.defaultToggleTimeout,
                modifiers: KanaModifierTable = .standard) {
        self.isFlickOnly = isFlickOnly
        self.toggleTimeout = toggleTimeout
        self.modifiers = modifiers
    }

    /// Whether a tap on `key` whose touch went down at `time` steps the last kana. A key
    /// whose cycle is its tap kana alone never steps: its taps type the kana again.
    public func tapSteps(_ key: KanaKey, touchDownAt time: Duration) -> Bool {
        guard !isFlickOnly, key.cycle.count > 1, let toggle, toggle.isCycling, toggle.key == key, let index = toggle.index,
              time - toggle.time < toggleTimeout else { return false }
        return composition.selectedCandidate == nil && composition.lastKana == key.cycle[index]
    }

    /// The guide while `key` is held with `gesture`.
    public func guide(for key: KanaKey, _ gesture: FlickGesture) -> FlickGuide {
        FlickGuide(targets: key.flicks, selected: gesture.direction)
    }

    /// The guide while 「゛゜小」 is held with `gesture`: the forms of the last kana.
    public func modifierGuide(_ gesture: FlickGesture) -> FlickGuide {
        FlickGuide(targets: modifiers.targets(for: composition.lastKana), selected: gesture.direction)
    }

    /// Handles `input` at `time`; returns what to do, in order (commits first, then the
    /// composition and candidate bar, then conversions to ask for, then `.passThrough`).
    public mutating func handle(_ input: KanaPadInput, at time: Duration) -> [KanaPadEffect] {
        let before = composition
        var commits: [String] = []
        var passThrough = false
        let listShown = composition.showsList
        if listShown, !input.keepsList { composition = KanaComposition() }
        switch input {
        case .kanaKey(let key, let release, let touchDown):
            typeKana(key, release, touchDown: touchDown, at: time, &commits)
        case .modifierKey(let direction):
            if composition.isEmpty, direction == .center, !listShown, !kaomoji.isEmpty {
                composition.showList(kaomoji)  // ^_^; a second tap closes the list
                toggle = nil
                break
            }
            if composition.isEmpty { passThrough = !listShown; break }
            guard let last = composition.lastKana, let form = modifiers.modified(last, direction) else { break }
            composition.replaceLast(with: form)
            toggle = nil
        case .next:
            if toggle?.isCycling == true {
                toggle?.isCycling = false
            } else if composition.isEmpty {
                passThrough = true
            }
        case .undo:
            if composition.isEmpty { passThrough = true; break }
            if composition.selectPreviousCandidate() { break }
            stepBack(at: time)
        case .backspace:
            toggle = nil
            passThrough = !composition.deleteBackward()
        case .space:
            toggle = nil
            if composition.isEmpty { passThrough = true; break }
            if composition.selectNextCandidate() { break }
            commits.append(composition.commit())  // no candidates: the reading, then a space
            passThrough = true
        case .returnKey:
            toggle = nil
            if composition.isEmpty { passThrough = true; break }
            commits.append(composition.commit())
        case .candidate(let index):
            guard let text = composition.commitCandidate(at: index) else { break }
            toggle = nil
            commits.append(text)
        case .commitAll:
            toggle = nil
            if !composition.isEmpty { commits.append(composition.commit()) }
        case .conversion(let reading, let segments):
            composition.setCandidates(KanaCandidate.list(for: reading, segments: segments), for: reading)
        }
        var effects = commits.map(KanaPadEffect.commit)
        if composition.displayText != before.displayText {
            effects.append(.compositionChanged(composition.displayText))
        }
        if composition.candidates != before.candidates || composition.selectedCandidate != before.selectedCandidate {
            effects.append(.candidatesChanged(composition.candidates, selected: composition.selectedCandidate))
        }
        if composition.reading != before.reading, !composition.isEmpty {
            effects.append(.convert(composition.reading))
        }
        if passThrough { effects.append(.passThrough) }
        return effects
    }

    /// `handle(_:at:)`, then each `.convert` answered at once by `converter` (its candidates
    /// take the `.convert`'s place in the effects). What the session calls when it has a
    /// converter.
    public mutating func handle(_ input: KanaPadInput, at time: Duration,
                                converter: inout some KanaKanjiConverter) -> [KanaPadEffect] {
        var effects: [KanaPadEffect] = []
        for effect in handle(input, at: time) {
            guard case .convert(let reading) = effect else {
                effects.append(effect)
                continue
            }
            let segments = converter.convert(reading)
            effects += handle(.conversion(reading: reading, segments: segments), at: time)
        }
        return effects
    }

    /// A kana key lifted: a toggle step, a new kana, or nothing (a flick where the key has
    /// nothing). A new kana after a chosen candidate commits that first.
    private mutating func typeKana(_ key: KanaKey, _ release: FlickRelease, touchDown: Duration,
                                   at time: Duration, _ commits: inout [String]) {
        if release.isTap, tapSteps(key, touchDownAt: touchDown), let index = toggle?.index {
            let next = (index + 1) % key.cycle.count
            composition.replaceLast(with: key.cycle[next])
            toggle = Toggle(key: key, index: next, isCycling: true, time: time)
            return
        }
        guard let kana = key.flicks[release.direction] else { return }
        if composition.selectedCandidate != nil { commits.append(composition.commit()) }
        composition.append(kana)
        toggle = Toggle(key: key, index: key.cycleIndex(of: kana), isCycling: release.isTap && !isFlickOnly, time: time)
    }

    /// `↶` over the last kana: one step back in its key's cycle, wrapping (あ → ぉ).
    private mutating func stepBack(at time: Duration) {
        guard let toggle, let index = toggle.index, composition.lastKana == toggle.key.cycle[index] else { return }
        let cycle = toggle.key.cycle
        let previous = (index + cycle.count - 1) % cycle.count
        composition.replaceLast(with: cycle[previous])
        self.toggle = Toggle(key: toggle.key, index: previous, isCycling: !isFlickOnly, time: time)
    }
}
