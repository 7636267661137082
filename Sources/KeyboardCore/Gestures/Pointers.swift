/// The pointers (mouse and fingers) and their gestures: what each one holds, the press
/// waiting for the hold delay, the alternates bubble, the space bar's trackpad, the flick key
/// held, the layer a slide from a layer key returns to, and the held key's auto-repeat.
///
/// A part of `KeyboardSession`. It decides what the fingers do — which key a press holds and
/// where a slide takes it, which presses a new touch commits (iOS rollover), when a hold
/// opens a bubble or the trackpad, where a bubble's highlight and the trackpad's caret follow
/// the finger — and the session routes what that means to the other parts (a key typed, the
/// caret moved, a kana flicked). What it needs of them is passed in: the layout to hit-test,
/// what a key does, whether the keys take touches.
public struct Pointers: Hashable, Sendable {
    /// What a pointer holds.
    public enum Target: Hashable, Sendable {
        /// A key, or `nil` after a letter press slid off every letter key.
        case key(KeyID?)
        /// A host control (acts when released over it).
        case host(HostControl)
        /// A candidate of the kana pad's bar, by its index (committed when released over it).
        case candidate(Int)
        /// Nothing that reacts.
        case none
    }

    /// What each pointer that is down is holding.
    public private(set) var targets: [PointerID: Target] = [:] {
        didSet { if Self.pressed(targets) != Self.pressed(oldValue) { pressRevision &+= 1 } }
    }
    /// The auto-repeat of the key held (backspace, an arrow).
    public private(set) var keyRepeat: KeyRepeat?
    /// The held fingers' gestures: hold delay, bubble, trackpad, flick.
    public private(set) var gestures = HeldGestures()
    /// Pointers that touched a layer key and slid on: the layer to go back to once the key
    /// they slid onto types (iOS: touch 123, slide to 3, release: "3", letters again).
    public private(set) var layerReturns: [PointerID: String] = [:]
    /// Counts changes of the keys and host controls held (drawn pressed).
    private var pressRevision = 0

    /// Counts changes of what is drawn: the keys and host control held, the bubble, whether
    /// the space bar is the trackpad, the flick guide's key and direction.
    public var revision: Int { pressRevision &+ gestures.revision }

    /// The press waiting for the hold delay (alternates, the space bar's trackpad).
    public var hold: HoldTimer? { gestures.hold }
    /// The alternates bubble, while one is open.
    public var bubble: AlternatesBubble? { gestures.bubble }
    /// The space bar's trackpad, while a press on it has turned into one.
    public var trackpad: Trackpad? { gestures.trackpad }
    /// The flick key held, while one is (its direction follows the finger).
    public var flick: FlickHold? { gestures.flick }

    /// No pointer down.
    public init() {}

    /// What `pointer` holds, if it is down.
    public subscript(pointer: PointerID) -> Target? { targets[pointer] }

    /// Keys held by at least one pointer.
    public var pressedKeys: Set<KeyID> { Self.keys(in: targets) }

    /// The host control held by a pointer, if any (drawn highlighted): of two held at once,
    /// the first pointer's (the mouse, then fingers by id), never the dictionary's order.
    public var pressedHostControl: HostControl? { Self.control(in: targets) }

    private static func keys(in targets: [PointerID: Target]) -> Set<KeyID> {
        var keys = Set<KeyID>()
        for case .key(let key?) in targets.values { keys.insert(key) }
        return keys
    }

    private static func control(in targets: [PointerID: Target]) -> HostControl? {
        var first: (pointer: PointerID, control: HostControl)?
        for case (let pointer, .host(let control)) in targets where first.map({ pointer.precedes($0.pointer) }) ?? true {
            first = (pointer, control)
        }
        return first?.control
    }

    /// What is drawn of `targets`: the keys held, and the host control.
    private static func pressed(_ targets: [PointerID: Target]) -> (keys: Set<KeyID>, control: HostControl?) {
        (keys(in: targets), control(in: targets))
    }

    // MARK: Presses

    /// `pointer` holds `target` now (`nil`: it is up).
    public mutating func set(_ pointer: PointerID, to target: Target?) { targets[pointer] = target }

    /// `pointer` lets go of what it held: it holds nothing from now on (its release, or a slide,
    /// does nothing more), and a slide from a layer key brings no layer back.
    public mutating func letGo(_ pointer: PointerID) {
        targets[pointer] = Target.none
        layerReturns[pointer] = nil
    }

    /// iOS rollover: the presses a touch beginning on a key commits now — every pointer
    /// holding a key that types on release (`actsOnTouchDown` false), or nothing after sliding
    /// off the keys. In pointer order (the mouse, then fingers by id), never the dictionary's.
    public func rolloverPresses(actsOnTouchDown: (KeyID) -> Bool) -> [(pointer: PointerID, key: KeyID?)] {
        let held = targets.compactMap { id, target -> (PointerID, KeyID?)? in
            guard case .key(let key) = target, key.map({ actsOnTouchDown($0) }) != true else { return nil }
            return (id, key)
        }
        return held.sorted { $0.0.precedes($1.0) }.map { (pointer: $0.0, key: $0.1) }
    }

    /// Where a press holding `held` goes when its pointer moves over `under` (the key there, if
    /// the keys take touches): `nil` when it stays. The へぇ button, shift and backspace keep
    /// their press however the pointer moves (seed 000's `isTouching` guard). A press that
    /// types on release follows the finger to the key under it and is cancelled off the keys
    /// (`.key(nil)`); so does one that began on a layer key, once it reaches a key of the new
    /// layer that types — which is like touching it (`rollover`: other presses commit first).
    public static func slide(from held: KeyID?, over under: KeyID?, actsOnTouchDown: (KeyID) -> Bool,
                             isLayerKey: (KeyID) -> Bool) -> (next: KeyID?, rollover: Bool)? {
        if let held, actsOnTouchDown(held), !isLayerKey(held) { return nil }
        var next = under.flatMap { actsOnTouchDown($0) ? nil : $0 }
        var rollover = false
        if let held, isLayerKey(held) {
            if next == nil { next = held } else { rollover = true }
        }
        return (next: next, rollover: rollover)
    }

    /// Every pointer is up: presses and layer returns are forgotten (their gestures ended first).
    public mutating func removeAll() {
        targets = [:]
        layerReturns = [:]
    }

    /// Every finger is up, the mouse's press stays (their gestures and returns ended first).
    public mutating func removeFingers() {
        targets = targets.filter { $0.key == .mouse }
    }

    // MARK: Layers

    /// `pointer` touched a layer key while `layer` was shown: once the key it slides onto
    /// types, `layer` comes back.
    public mutating func setLayerReturn(_ layer: String, for pointer: PointerID) { layerReturns[pointer] = layer }

    /// The layer `pointer`'s slide returns to, which it no longer does (its key typed).
    public mutating func takeLayerReturn(of pointer: PointerID) -> String? { layerReturns.removeValue(forKey: pointer) }

    /// `pointer`'s slide returns to no layer.
    public mutating func forgetLayerReturn(of pointer: PointerID) { layerReturns[pointer] = nil }

    // MARK: The held key's repeat

    /// `key` (backspace or an arrow) went down at `time` with `modifiers`: it repeats after the
    /// initial delay.
    public mutating func startRepeat(_ key: KeyID, at time: Duration, modifiers: KeyModifiers) {
        keyRepeat = KeyRepeat(key: key, pressedAt: time, nextFire: time + KeyRepeat.initialDelay, modifiers: modifiers)
    }

    /// `key` went up: its repeat ends.
    public mutating func stopRepeat(of key: KeyID) {
        if keyRepeat?.key == key { keyRepeat = nil }
    }

    /// The repeat's schedule after its due repeats fired (`KeyboardSession` fires them, each
    /// at its own time).
    public mutating func repeatFired(_ schedule: KeyRepeat) { keyRepeat = schedule }

    /// An idle repeat starts again once the field's revisions differ from those it idled at
    /// (text typed, the caret moved while backspace is held), at the next time of its
    /// schedule at or after `time` — the time it would have deleted at had it kept firing.
    public mutating func resumeIdleRepeat(fieldRevisions: TextBuffer.Revisions, at time: Duration) {
        guard var schedule = keyRepeat, let idle = schedule.idleAt, idle != fieldRevisions else { return }
        schedule.idleAt = nil
        schedule.nextFire = schedule.firstFire(atOrAfter: time)
        keyRepeat = schedule
    }

    // MARK: Gestures

    /// `pointer` pressed `key` (`nil`: nothing) at `point` at `time`: its hold delay or flick
    /// starts if holding it does something (`HeldGestures.startHold`).
    public mutating func startHold(_ key: KeyID?, action: KeyAction?, hasAlternates: Bool, isComposing: Bool,
                                   by pointer: PointerID, at point: Point, time: Duration) {
        gestures.startHold(key, action: action, hasAlternates: hasAlternates, isComposing: isComposing,
                           by: pointer, at: point, time: time)
    }

    /// Acts on a hold that fell due (`HeldGestures.fireHold`) if its pointer still holds the key.
    public mutating func fireHold(upTo time: Duration, including: Bool, keysAreLive: Bool, layout: KeyboardLayout,
                                  isSpace: (KeyID) -> Bool, alternates: (KeyID) -> [String]) -> [KeyboardEffect] {
        let targets = self.targets
        return gestures.fireHold(upTo: time, including: including, stillHeld: { targets[$0.pointer] == .key($0.key) },
                                 keysAreLive: keysAreLive, layout: layout, isSpace: isSpace, alternates: alternates)
    }

    /// `pointer` moved to `point`: its gesture follows (`HeldGestures.gestureMoved`). Returns
    /// the trackpad's caret steps, or `nil` when no gesture took the move.
    public mutating func gestureMoved(_ pointer: PointerID, to point: Point) -> Int? {
        gestures.gestureMoved(pointer, to: point)
    }

    /// Whether `pointer`'s bubble has a choice highlighted (its lift types it).
    public func bubbleTypesChoice(for pointer: PointerID) -> Bool { gestures.bubbleTypesChoice(for: pointer) }

    /// `pointer`'s gesture ends (`HeldGestures.endGesture`); returns it, if it had one.
    public mutating func endGesture(of pointer: PointerID) -> HeldGestures.EndedGesture? { gestures.endGesture(of: pointer) }

    /// The flick key held is let go without typing (the keyboard closes).
    public mutating func cancelFlick() { gestures.cancelFlick() }

    /// The layout was laid out again (a resize): the bubble and the trackpad, drawn for the old
    /// geometry, close, and their pointers' presses end with them — the finger rests on no key
    /// and types nothing on release. A press still waiting for its hold delay is forgotten (the
    /// press stays held).
    public mutating func closeOverlays() {
        for id in gestures.closeOverlays() {
            targets[id] = Target.none
            layerReturns[id] = nil
        }
    }

    /// Another layout is shown (the globe key): every gesture ends and no slide returns.
    public mutating func layoutSwitched() {
        gestures.endAll()
        layerReturns = [:]
    }

    /// Whether a new touch at `point` belongs to an open overlay (`HeldGestures.overlay`).
    public func overlay(at point: Point, layout: KeyboardLayout, keysAreLive: Bool) -> HeldGestures.Overlay? {
        gestures.overlay(at: point, layout: layout, keysAreLive: keysAreLive)
    }

    /// A touch on the bubble's cell `cell` chose it.
    public mutating func selectBubbleCell(_ cell: Int) { gestures.selectBubbleCell(cell) }
}
