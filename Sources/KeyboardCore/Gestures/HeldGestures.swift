/// The gestures of held fingers: the press waiting for the hold delay, the alternates bubble
/// and the space bar's trackpad it opens (after `AlternatesBubble.holdDelay`), and the flick
/// key held, whose press follows the finger's direction instead.
///
/// Part of `Pointers`, which routes its fingers' moves and lifts here; what it needs of the
/// others (what a key does, the layout) is passed in.
public struct HeldGestures: Hashable, Sendable {
    /// The press waiting for the hold delay (alternates, the space bar's trackpad).
    public private(set) var hold: HoldTimer?
    /// The alternates bubble, while one is open.
    public private(set) var bubble: AlternatesBubble? { didSet { if bubble != oldValue { revision &+= 1 } } }
    /// The space bar's trackpad, while a press on it has turned into one.
    public private(set) var trackpad: Trackpad? { didSet { if (trackpad == nil) != (oldValue == nil) { revision &+= 1 } } }
    /// The flick key held, while one is (its direction follows the finger).
    public private(set) var flick: FlickHold? {
        didSet { if flick?.visible.0 != oldValue?.visible.0 || flick?.visible.1 != oldValue?.visible.1 { revision &+= 1 } }
    }
    /// Counts changes of what is drawn: the bubble, whether the space bar is the trackpad, the
    /// flick guide's key and direction.
    public private(set) var revision = 0

    /// No gesture.
    public init() {}

    /// A held gesture that ended (`endGesture(of:)`).
    public enum EndedGesture: Hashable, Sendable {
        /// A flick key let go: it types its kana where the finger points (`release`).
        case flick(FlickHold)
        /// The alternates bubble closed: it types its highlighted choice, if any.
        case bubble(AlternatesBubble)
        /// The trackpad ended.
        case trackpad
    }

    /// What a new touch on an open overlay belongs to (`overlay(at:…)`).
    public enum Overlay: Hashable, Sendable {
        /// The bubble: on this cell (it chooses it), or on the held key itself (`nil`).
        case bubble(cell: Int?)
        /// The trackpad: anywhere on the keyboard.
        case trackpad
    }

    /// `pointer` pressed `key` (`nil`: nothing) at `point` at `time`: a flick key's gesture
    /// starts there; a key whose hold does something — the space bar (not while the kana pad
    /// composes: 空白 is 次候補 then) or a key with alternates — waits for the hold delay;
    /// any other press forgets a hold or flick of that pointer. `action` is what `key` does.
    public mutating func startHold(_ key: KeyID?, action: KeyAction?, hasAlternates: Bool, isComposing: Bool,
                                   by pointer: PointerID, at point: Point, time: Duration) {
        if flick?.pointer == pointer { flick = nil }
        if let key, let action, action.isFlicked {
            // A kana key (or 「゛゜小」): its press follows the finger's direction from here.
            flick = FlickHold(pointer: pointer, key: key, gesture: FlickGesture(touchDownAt: point), touchDown: time, point: point)
            if hold?.pointer == pointer { hold = nil }
        } else if let key, (action == .space && !isComposing) || hasAlternates {
            hold = HoldTimer(pointer: pointer, key: key, due: time + AlternatesBubble.holdDelay, point: point)
        } else if hold?.pointer == pointer {
            hold = nil
        }
    }

    /// Acts on a hold that fell due before `time` (and at `time` when `including`: a tick at
    /// the very moment the delay ends opens the bubble, an input at that moment goes first),
    /// if its pointer still holds the key (`stillHeld`) and the keys take touches
    /// (`keysAreLive`): the space bar (`isSpace`) becomes the trackpad, another key opens its
    /// bubble of `alternates` (their texts, in the case shift gives) over its frame in `layout`.
    public mutating func fireHold(upTo time: Duration, including: Bool, stillHeld: (HoldTimer) -> Bool, keysAreLive: Bool,
                                  layout: KeyboardLayout, isSpace: (KeyID) -> Bool,
                                  alternates: (KeyID) -> [String]) -> [KeyboardEffect] {
        guard let timer = hold, including ? timer.due <= time : timer.due < time else { return [] }
        hold = nil
        guard stillHeld(timer), keysAreLive, let frame = layout.keys[timer.key] else { return [] }
        if isSpace(timer.key) {
            trackpad = Trackpad(pointer: timer.pointer, startX: timer.point.x, moved: 0)
            return [.trackpadChanged(true)]
        }
        let opened = AlternatesBubble(key: timer.key, pointer: timer.pointer, texts: alternates(timer.key),
                                      keyFrame: frame, cellWidth: frame.width, keyboardFrame: layout.keyboardFrame)
        bubble = opened
        return [.alternatesShown(timer.key, opened.choices)]
    }

    /// `pointer`, down, moved to `point`: a flick's direction, the bubble's highlight or the
    /// trackpad follows it. Returns the caret steps the trackpad moves (0: none), or `nil` when
    /// no gesture of the pointer took the move (a press waiting for its hold remembers where
    /// the pointer is).
    public mutating func gestureMoved(_ pointer: PointerID, to point: Point) -> Int? {
        if var held = flick, held.pointer == pointer {
            held.gesture.move(to: point)
            held.point = point
            flick = held
            return 0
        }
        if var open = bubble, open.pointer == pointer {
            open.selected = open.choice(at: point)
            bubble = open
            return 0
        }
        if var pad = trackpad, pad.pointer == pointer {
            let steps = pad.steps(toX: point.x)
            pad.moved += steps
            trackpad = pad
            return steps
        }
        if hold?.pointer == pointer { hold?.point = point }
        return nil
    }

    /// Whether `pointer`'s bubble has a choice highlighted (its lift types it).
    public func bubbleTypesChoice(for pointer: PointerID) -> Bool {
        bubble?.pointer == pointer && bubble?.selected != nil
    }

    /// `pointer` lifted, or a new touch committed or cancelled it: its hold delay is forgotten,
    /// and its flick, bubble or trackpad ends. Returns the gesture that ended, if it had one.
    public mutating func endGesture(of pointer: PointerID) -> EndedGesture? {
        if hold?.pointer == pointer { hold = nil }
        if let held = flick, held.pointer == pointer {
            flick = nil
            return .flick(held)
        }
        if let open = bubble, open.pointer == pointer {
            bubble = nil
            return .bubble(open)
        }
        if trackpad?.pointer == pointer {
            trackpad = nil
            return .trackpad
        }
        return nil
    }

    /// The flick key held is let go without typing (the keyboard closes).
    public mutating func cancelFlick() { flick = nil }

    /// The layout was laid out again (a resize): the bubble and the trackpad, drawn for the old
    /// geometry, close, and a press still waiting for its hold delay is forgotten. Returns the
    /// pointers that held the bubble or the trackpad.
    public mutating func closeOverlays() -> [PointerID] {
        let holders = [bubble?.pointer, trackpad?.pointer].compactMap { $0 }
        (hold, bubble, trackpad) = (nil, nil, nil)
        return holders
    }

    /// Another layout is shown (the globe key): every gesture ends.
    public mutating func endAll() {
        (hold, bubble, trackpad, flick) = (nil, nil, nil, nil)
    }

    /// Whether a new touch at `point` belongs to an open overlay (issue 28, class 8), while the
    /// keys take touches: the bubble's cells and the held key under it; anywhere on the
    /// keyboard (`layout.keyboardFrame`) while the space bar is the trackpad.
    public func overlay(at point: Point, layout: KeyboardLayout, keysAreLive: Bool) -> Overlay? {
        guard keysAreLive else { return nil }
        if let open = bubble, let keyFrame = layout.keys[open.key] {
            let cell = open.cell(containing: point)
            guard cell != nil || keyFrame.contains(point) else { return nil }
            return .bubble(cell: cell)
        } else if trackpad != nil {
            return layout.keyboardFrame.contains(point) ? .trackpad : nil
        }
        return nil
    }

    /// A touch on the bubble's cell `cell` chose it.
    public mutating func selectBubbleCell(_ cell: Int) { bubble?.selected = cell }
}
