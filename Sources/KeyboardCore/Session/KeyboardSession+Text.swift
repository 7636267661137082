/// Editing: the keys' edits through the mode's `TextDocumentProxy`, the input method's
/// composition, the physical keyboard's editing commands, and (system mode) the characters
/// the keys may type next.
extension KeyboardSession {
    /// An edit a key asks of the document it types into.
    enum DocumentEdit {
        case insertText(String), deleteBackward, deleteWordBackward
        /// Moves the caret by this many characters (the space bar's trackpad).
        case moveCaret(Int)

        func apply<Document: TextDocumentProxy>(to document: inout Document) {
            switch self {
            case .insertText(let text): document.insertText(text)
            case .deleteBackward: document.deleteBackward()
            case .deleteWordBackward: document.deleteWordBackward()
            case .moveCaret(let offset): document.adjustTextPosition(byCharacterOffset: offset)
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

    // MARK: Keys to prepare (system mode, issue 28)

    /// The characters one press may type next, most urgent first, each once — system mode
    /// only (empty on the host screen, whose field needs no keys). A character the target's
    /// keymap lacks (é, ¥, へ) needs a keymap change before its press, and an application that
    /// handles the press before it has read the new keymap types the wrong character or
    /// nothing (Chromium on X11, Tk), so the app gets keys ready for these ahead of the press:
    ///
    /// 1. what the keys held now type on release (a letter types when lifted: touched, it is
    ///    next), then the open alternates bubble's choices (in the case shift gave them);
    /// 2. what a touch-down types at once, with no later chance to prepare: the kana pad's
    ///    composition as a commit types it, its first candidate, and 「へぇ〜」;
    /// 3. the characters of the layer shown (its keys that type text, in reading order).
    ///
    /// The order is what a sender short of spare keys keeps: the first are the last it gives
    /// up.
    public var keysToPrepare: String {
        guard mode == .system else { return "" }
        var texts: [String] = []
        // (A key whose bubble is open types one of its choices, not itself.)
        for (id, target) in pointers.sorted(by: { $0.key.precedes($1.key) }) where bubble?.pointer != id {
            if case .key(let key?) = target, let text = action(of: key).text { texts.append(casedText(text)) }
        }
        texts += bubble?.choices.map(\.text) ?? []
        if let composition = kanaCompositionText { texts.append(composition) }
        if let first = candidateBar.cells.first { texts.append(first.text) }
        texts.append(HeeButtonModel.insertedText)
        let layer = definition.layer(named: layout.layerName) ?? definition.firstLayer
        texts += layer.keyIDs.compactMap { action(of: $0).text.map(casedText) }
        var seen = Set<Character>()
        return String(texts.joined().filter { seen.insert($0).inserted })
    }

    /// Appends `.prepareKeys` when `keysToPrepare` changed since it was last announced.
    mutating func announceKeysToPrepare(_ effects: inout [KeyboardEffect]) {
        let keys = keysToPrepare
        guard keys != announcedKeys else { return }
        announcedKeys = keys
        if !keys.isEmpty { effects.append(.prepareKeys(keys)) }
    }
}
