/// What a keyboard may do to the text it types into: the shape of iOS's
/// `UITextDocumentProxy` (the `textDocumentProxy` seed 000's controller calls `insertText` on).
/// Two documents conform: the host screen's `TextBuffer`, and system mode's
/// `KeystrokeDocumentProxy`, which turns edits into key events for another application.
///
/// Offsets and counts are in `Character`s (extended grapheme clusters), so a caret never
/// stands inside 「ぇ」, an accented letter or an emoji.
public protocol TextDocumentProxy {
    /// The text before the caret, or `nil` when there is none.
    var documentContextBeforeInput: String? { get }
    /// The text after the caret, or `nil` when there is none.
    var documentContextAfterInput: String? { get }
    /// Whether the document holds any text.
    var hasText: Bool { get }
    /// Inserts `text` at the caret and moves the caret after it.
    mutating func insertText(_ text: String)
    /// Deletes the one `Character` before the caret; does nothing at the start.
    mutating func deleteBackward()
    /// Deletes the word before the caret (and the spaces between it and the caret): what
    /// backspace does once held for 2 s, and Ctrl+Backspace. Not in iOS's proxy; ours needs
    /// it so that system mode can send Ctrl+BackSpace. Returns whether anything was deleted
    /// (or, for a document that cannot be read, sent).
    @discardableResult
    mutating func deleteWordBackward() -> Bool
    /// Moves the caret by `offset` `Character`s (negative: left), clamped to the text.
    mutating func adjustTextPosition(byCharacterOffset offset: Int)
}
