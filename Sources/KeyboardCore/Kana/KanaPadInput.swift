/// What happened on the kana pad, for `KanaPad.handle(_:at:)`. Key inputs are lifts: a kana
/// is typed when the touch ends, once its direction is known.
public enum KanaPadInput: Hashable, Sendable {
    /// A kana key was lifted (the input's time); `touchDown` is when it went down, which
    /// decides whether a tap continues a toggle cycle.
    case kanaKey(KanaKey, FlickRelease, touchDown: Duration)
    /// 「゛゜小」 was lifted in this direction (`.center`: a tap).
    case modifierKey(FlickDirection)
    /// `→`: ends the toggle cycle, so the same key starts a new kana.
    case next
    /// `↶`: undoes the last toggle step (あ→い→う, ↶ → い), or goes back one candidate.
    case undo
    /// ⌫.
    case backspace
    /// 空白, which is 次候補 while composing.
    case space
    /// 改行, which is 確定 while composing.
    case returnKey
    /// The candidate at this index of the bar was tapped.
    case candidate(Int)
    /// Commit whatever is shown (the へぇ button before its 「へぇ〜」, a layout switch, the
    /// text field losing focus).
    case commitAll
    /// The converter's answer for `reading` (stale answers are ignored).
    case conversion(reading: String, segments: [KanaKanjiSegment])
}

extension KanaPadInput {
    /// Whether the 顔文字 list (nothing composed) stays shown for this input: a tap in it, or a
    /// converter's (stale) answer. Any other key closes it first.
    var keepsList: Bool {
        switch self {
        case .candidate, .conversion: true
        default: false
        }
    }
}
