/// How the caret moves in the text field (the arrow keys, Ctrl+arrows, Home and End).
public enum CaretMovement: Hashable, Sendable {
    /// One Character (grapheme cluster) left or right.
    case characterLeft, characterRight
    /// To the start of this or the previous word / the end of this or the next word.
    case wordLeft, wordRight
    /// To the start or end of the text.
    case start, end
}
