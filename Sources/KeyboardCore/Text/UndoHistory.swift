/// One change to the text field, with what it replaced, so it can be undone and redone
/// byte for byte.
public struct TextEdit: Hashable, Sendable {
    /// What kind of edit, for coalescing into undo steps.
    public enum Kind: Hashable, Sendable {
        /// One Character typed at the caret.
        case typing
        /// One Character deleted backwards.
        case deleting
        /// One Character deleted forwards.
        case deletingForward
        /// Anything else (へぇ, paste, cut, word deletion, an input method's commit of more
        /// than one character): a step of its own. (A one-character commit cannot be told
        /// from typing: SDL delivers both as `SDL_TEXTINPUT`.)
        case other
    }

    /// Caret, anchor and length before or after the edit.
    public struct Cursor: Hashable, Sendable {
        var count: Int
        var caret: Int
        var caretUTF8: Int
        var anchor: Int
        var anchorUTF8: Int
    }

    /// Where the edit starts, as a UTF-8 offset into the text.
    public var location: Int
    /// The text that was there.
    public var removed: String
    /// The text put there.
    public var inserted: String
    public var before: Cursor
    public var after: Cursor
    public var kind: Kind
}

/// The text field's undo and redo stacks.
///
/// Typing runs coalesce like other editors: characters typed one after another at the
/// caret form one step until a space starts a new word, the caret moves, or another kind of
/// edit happens; backspaces in a row form one step too. Every other edit (each へぇ
/// insertion, a paste, a cut) is a step of its own. At most `limit` steps are kept.
public struct UndoHistory: Hashable, Sendable {
    /// How many steps are kept.
    public static let limit = 1_000

    private(set) var undoStack: [TextEdit] = []
    private(set) var redoStack: [TextEdit] = []
    private var canCoalesce = false

    public init() {}

    /// Whether there is something to undo / redo.
    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The number of undo steps.
    public var undoCount: Int { undoStack.count }

    /// Records `edit`, merging it into the previous step when both belong to one run.
    mutating func record(_ edit: TextEdit) {
        redoStack.removeAll()
        if canCoalesce, let last = undoStack.last, let merged = Self.merge(last, edit) {
            undoStack[undoStack.count - 1] = merged
        } else {
            undoStack.append(edit)
            if undoStack.count > Self.limit { undoStack.removeFirst(undoStack.count - Self.limit) }
        }
        canCoalesce = edit.kind != .other
    }

    /// Ends the current step.
    mutating func breakCoalescing() { canCoalesce = false }

    mutating func popUndo() -> TextEdit? {
        guard let edit = undoStack.popLast() else { return nil }
        redoStack.append(edit)
        canCoalesce = false
        return edit
    }

    mutating func popRedo() -> TextEdit? {
        guard let edit = redoStack.popLast() else { return nil }
        undoStack.append(edit)
        canCoalesce = false
        return edit
    }

    static func merge(_ a: TextEdit, _ b: TextEdit) -> TextEdit? {
        guard a.after == b.before else { return nil }
        switch (a.kind, b.kind) {
        case (.typing, .typing):
            guard b.removed.isEmpty, b.location == a.location + a.inserted.utf8.count else { return nil }
            // A new word starts a new step.
            if a.inserted.last?.isWhitespace == true, b.inserted.first?.isWhitespace == false { return nil }
            return TextEdit(location: a.location, removed: a.removed, inserted: a.inserted + b.inserted,
                            before: a.before, after: b.after, kind: .typing)
        case (.deleting, .deleting):
            guard b.inserted.isEmpty, a.inserted.isEmpty, b.location + b.removed.utf8.count == a.location else { return nil }
            return TextEdit(location: b.location, removed: b.removed + a.removed, inserted: "",
                            before: a.before, after: b.after, kind: .deleting)
        case (.deletingForward, .deletingForward):
            guard b.inserted.isEmpty, a.inserted.isEmpty, b.location == a.location else { return nil }
            return TextEdit(location: a.location, removed: a.removed + b.removed, inserted: "",
                            before: a.before, after: b.after, kind: .deletingForward)
        default:
            return nil
        }
    }
}
