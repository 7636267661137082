/// Editing: the keys' edits through the mode's `TextDocumentProxy`, the input method's
/// composition and the physical keyboard's editing commands.
extension KeyboardSession {
    /// An edit a key asks of the document it types into.
    enum DocumentEdit {
        case insertText(String), deleteBackward, deleteWordBackward

        func apply<Document: TextDocumentProxy>(to document: inout Document) {
            switch self {
            case .insertText(let text): document.insertText(text)
            case .deleteBackward: document.deleteBackward()
            case .deleteWordBackward: document.deleteWordBackward()
            }
        }
    }

    /// Performs a key's edit through the mode's `TextDocumentProxy`: the text field (with
    /// `edit`'s change reporting), or in system mode the keystroke proxy, whose keystrokes
    /// become `.send` effects at once.
    mutating func documentEdit(_ change: DocumentEdit, _ effects: inout [KeyboardEffect]) {
        switch mode {
        case .hostScreen:
            edit(&effects) { change.apply(to: &$0) }
        case .system:
            change.apply(to: &keystrokes)
            effects += keystrokes.takePending().map { .send($0) }
        }
    }

    /// Runs `change` on the text field and reports a change of its text or caret (a new
    /// selection alone is drawn but not traced). Any change restarts the caret's blink.
    mutating func edit(_ effects: inout [KeyboardEffect], _ change: (inout TextBuffer) -> Void) {
        // Edited in place (a copy of the buffer would make every key copy the whole text);
        // the revisions tell what changed.
        let textRevision = textField.textRevision, selectionRevision = textField.selectionRevision
        let caret = textField.caret
        change(&textField)
        let textChanged = textField.textRevision != textRevision
        guard textChanged || textField.selectionRevision != selectionRevision else { return }
        caretActivity = clock
        if textChanged || textField.caret != caret { effects.append(.textChanged(textField.text, caret: textField.caret)) }
    }

    /// Shows `next` as the input method's composition at the caret (`nil`: none), and reports
    /// a change. The composition is never part of the text.
    mutating func setComposition(_ next: Composition?, _ effects: inout [KeyboardEffect]) {
        guard next != composition else { return }
        composition = next
        caretActivity = clock  // the caret stays visible while composing
        effects.append(.compositionChanged(next?.text ?? "", cursor: next?.cursor ?? 0))
    }

    /// Applies a physical-keyboard editing command to the text field.
    mutating func perform(_ command: EditingCommand, _ effects: inout [KeyboardEffect]) {
        switch command {
        case .copy, .cut:
            guard let selected = textField.selectedText else { return }
            effects.append(.setClipboard(selected))
            if command == .cut { edit(&effects) { $0.deleteSelection() } }
        default:
            edit(&effects) { field in
                switch command {
                case .deleteBackward: field.deleteBackward()
                case .deleteForward: field.deleteForward()
                case .deleteWordBackward: field.deleteWordBackward()
                case .move(let movement, let extending): field.moveCaret(movement, extendingSelection: extending)
                case .selectAll: field.selectAll()
                case .undo: field.undo()
                case .redo: field.redo()
                case .copy, .cut: break
                }
            }
        }
    }
}
