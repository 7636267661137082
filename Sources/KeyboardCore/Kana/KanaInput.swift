/// The kana pad in the session (issue 22): the pad's rules and composition (`KanaPad`) and its
/// candidate bar as shown (`CandidateBar`).
///
/// A part of `KeyboardSession`. It feeds the pad and answers with what its effects mean for
/// the others: `.commit` becomes text for the document (`insertText`), `.compositionChanged`
/// a composition shown at the caret (whose blink restarts), `.candidatesChanged` the bar laid
/// out in the frame it is given, `.convert` a `.convert` effect that the app answers with
/// `KeyboardInput.conversion`.
public struct KanaInput: Hashable, Sendable {
    /// The kana pad's rules and its composition: used by a layout with flick keys.
    public private(set) var pad: KanaPad {
        didSet { if pad.composition != oldValue.composition || pad.modifiers != oldValue.modifiers { revision &+= 1 } }
    }
    /// The kana pad's candidate bar as shown.
    public private(set) var candidateBar: CandidateBar { didSet { if candidateBar != oldValue { revision &+= 1 } } }
    /// Counts changes of what is drawn: the composition, the 「゛゜小」 key's forms, the bar.
    public private(set) var revision = 0

    /// What the pad's answer means for the other parts, in order.
    public enum Effect: Hashable, Sendable {
        /// An effect for the app, as it is.
        case report(KeyboardEffect)
        /// Text the pad committed: it goes into the document through `insertText`.
        case insertText(String)
        /// The composition shown changed: the caret's blink restarts (it stays visible while
        /// composing).
        case compositionShown
    }

    /// A pad with nothing composed, for `definition`'s 「゛゜小」 key; `flickOnly`: iOS's
    /// 「フリックのみ」; the bar (empty) in `barFrame` (points).
    public init(flickOnly: Bool, definition: LayoutDefinition, barFrame: Rect) {
        pad = KanaPad(isFlickOnly: flickOnly, modifiers: definition.kanaModifiers)
        candidateBar = CandidateBar(frame: barFrame)
    }

    /// Whether the pad holds a composition (空白 is 次候補 and 改行 確定 meanwhile).
    public var isComposing: Bool { !pad.composition.isEmpty }

    /// The composition as shown at the caret (the chosen candidate in place of its reading),
    /// or `nil` when nothing is composed.
    public var compositionText: String? { isComposing ? pad.composition.displayText : nil }

    /// The flick guide while `flick` is held on a key of `definition`: the key and its
    /// neighbours (for 「゛゜小」, the forms of the composition's last kana), the selected one
    /// highlighted.
    public func guide(for flick: FlickHold, in definition: LayoutDefinition) -> FlickGuide {
        if let table = definition.kanaKey(flick.key) { return pad.guide(for: table, flick.gesture) }
        return pad.modifierGuide(flick.gesture)
    }

    /// What a flick key let go at its last point types: its kana where the finger points, or
    /// 「゛゜小」's form.
    public static func input(releasing flick: FlickHold, in definition: LayoutDefinition) -> KanaPadInput {
        var gesture = flick.gesture
        let release = gesture.release(at: flick.point)
        if let table = definition.kanaKey(flick.key) { return .kanaKey(table, release, touchDown: flick.touchDown) }
        return .modifierKey(release.direction)
    }

    /// Feeds `input` to the pad at `time`; the candidate bar is laid out in `barFrame`
    /// (points) when its candidates change. Returns the effects in order, and whether the pad
    /// passed the key through (nothing was composed: the key does what it always does).
    public mutating func handle(_ input: KanaPadInput, at time: Duration, barFrame: Rect) -> (effects: [Effect], passThrough: Bool) {
        var effects: [Effect] = []
        var passThrough = false
        for effect in pad.handle(input, at: time) {
            switch effect {
            case .commit(let text):
                effects += [.report(.kanaCommitted(text)), .insertText(text)]
            case .compositionChanged(let text):
                effects += [.compositionShown, .report(.compositionChanged(text, cursor: text.count))]
            case .candidatesChanged(let candidates, let selected):
                candidateBar = CandidateBar(frame: barFrame, candidates: candidates, selected: selected)
                effects.append(.report(.candidatesChanged(candidateBar)))
            case .convert(let reading):
                effects.append(.report(.convert(reading)))
            case .passThrough:
                passThrough = true
            }
        }
        return (effects, passThrough)
    }

    /// Another layout is shown: a new pad for its 「゛゜小」 key (the same flick-only setting and
    /// toggle timeout), the bar empty in `barFrame`.
    public mutating func layoutSwitched(to definition: LayoutDefinition, barFrame: Rect) {
        let kaomoji = pad.kaomoji
        pad = KanaPad(isFlickOnly: pad.isFlickOnly, toggleTimeout: pad.toggleTimeout, modifiers: definition.kanaModifiers)
        pad.kaomoji = kaomoji
        candidateBar = CandidateBar(frame: barFrame)
    }

    /// The ^_^ key's 顔文字 (`Kaomoji.parse` of the app's `emoji/kaomoji.tsv`).
    public mutating func setKaomoji(_ faces: [String]) { pad.kaomoji = faces }

    /// The candidate bar laid out again in `barFrame` (after a resize).
    public mutating func relayout(barFrame: Rect) {
        let composition = pad.composition
        candidateBar = CandidateBar(frame: barFrame, candidates: composition.candidates, selected: composition.selectedCandidate)
    }
}
