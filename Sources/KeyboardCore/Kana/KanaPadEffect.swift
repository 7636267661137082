/// What the owner of a `KanaPad` must do after an input.
public enum KanaPadEffect: Hashable, Sendable {
    /// Insert this text into the document (`insertText`): the composition, or part of it,
    /// was committed. Comes before the composition change it causes.
    case commit(String)
    /// The composition shown at the caret is now this text (empty: it ended).
    case compositionChanged(String)
    /// The candidate bar now shows these, with this one chosen (`nil`: none).
    case candidatesChanged([KanaCandidate], selected: Int?)
    /// Convert this reading and answer with `.conversion` (skipped when there is no
    /// converter: the pad then types kana without candidates).
    case convert(String)
    /// The pad had no use for the key (nothing is composing): do what it does outside a
    /// composition — type a space or a newline, delete backward, move the caret right (`→`),
    /// or nothing (`↶`, 「゛゜小」). Comes last.
    case passThrough
}
