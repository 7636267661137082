extension TextBuffer {
    /// The text's and the selection's revision counters together: equal values mean nothing
    /// about the text, caret or selection changed in between.
    public struct Revisions: Hashable, Sendable {
        /// `TextBuffer.textRevision`: counts changes of the text.
        public var text: Int
        /// `TextBuffer.selectionRevision`: counts changes of the caret or the selection.
        public var selection: Int
    }

    /// The current revisions.
    public var revisions: Revisions { Revisions(text: textRevision, selection: selectionRevision) }
}
