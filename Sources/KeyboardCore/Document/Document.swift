/// Where the keys type, as iOS's `textDocumentProxy` is a keyboard's view of the document:
/// the host screen's text field (`TextBuffer`), or in system mode the keystrokes for another
/// application (`KeystrokeDocumentProxy`) and where they go (`keyTarget`); the input method's
/// composition shown at the caret, and when the caret last moved (its blink).
///
/// A part of `KeyboardSession`: every edit goes through it and answers with the effects that
/// report it (`.textChanged`, `.send`, `.compositionChanged`, `.setClipboard`). The time it is
/// given is the session's clock (a `Duration` since the session started).
public struct Document: Hashable, Sendable {
    /// The caret blinks with this period (visible the first half) after activity...
    public static let caretBlinkPeriod: Duration = .milliseconds(1_000)
    /// ...and stays solid once this long has passed without activity, as GTK does, so an idle
    /// app never wakes up.
    public static let caretBlinkTimeout: Duration = .seconds(10)

    /// Host screen with its text field, or system mode (keys go to another application).
    public let mode: KeyboardMode
    /// The text field's content. The keys edit it only through `TextDocumentProxy`.
    public private(set) var textField = TextBuffer()
    /// System mode's document: the keys' edits as keystrokes (taken at once, see `.send`).
    public private(set) var keystrokes = KeystrokeDocumentProxy()
    /// System mode: where the keys go, as the app last reported it (shown above the keys).
    public private(set) var keyTarget = KeyTarget.noFocusedWindow { didSet { if keyTarget != oldValue { revision &+= 1 } } }
    /// The input method's text being composed, shown at the caret and not yet in the field.
    public private(set) var composition: Composition? { didSet { if composition != oldValue { revision &+= 1 } } }
    /// When the caret last moved or the text changed (the blink restarts from there).
    public private(set) var caretActivity: Duration = .zero
    /// System mode: the characters one press may type next, as last announced to the app
    /// (`.prepareKeys`); not drawn.
    public private(set) var announcedKeys = ""
    /// Counts changes of what is drawn besides the field's text and caret (which
    /// `textField.revisions` count): the composition, the line naming the key target.
    public private(set) var revision = 0

    /// Text an input method is composing.
    public struct Composition: Hashable, Sendable {
        public var text: String
        /// The IME's cursor within `text`, in Characters.
        public var cursor: Int

        /// `text` composed, the cursor `cursor` Characters into it.
        public init(text: String, cursor: Int) {
            self.text = text
            self.cursor = cursor
        }
    }

    /// An edit a key asks of the document it types into.
    public enum Edit: Hashable, Sendable {
        case insertText(String), deleteBackward, deleteWordBackward
        /// Moves the caret by this many characters (the space bar's trackpad).
        case moveCaret(Int)

        func apply<Proxy: TextDocumentProxy>(to document: inout Proxy) {
            switch self {
            case .insertText(let text): document.insertText(text)
            case .deleteBackward: document.deleteBackward()
            case .deleteWordBackward: document.deleteWordBackward()
            case .moveCaret(let offset): document.adjustTextPosition(byCharacterOffset: offset)
            }
        }
    }

    /// An empty document of `mode`.
    public init(mode: KeyboardMode) {
        self.mode = mode
    }

    // MARK: The caret's blink

    /// Whether the text field's caret is drawn at `time`: while `focused`, visible for the
    /// first half of each blink period after the last activity, and always after the timeout.
    public func isCaretVisible(at time: Duration, focused: Bool) -> Bool {
        guard focused else { return false }
        let idle = time - caretActivity
        if idle < .zero || idle >= Self.caretBlinkTimeout { return true }
        let phase = idle.seconds.truncatingRemainder(dividingBy: Self.caretBlinkPeriod.seconds)
        return phase < Self.caretBlinkPeriod.seconds / 2
    }

    /// The next time the caret blinks on or off, if it still blinks (only while `focused`).
    public func nextBlink(after time: Duration, focused: Bool) -> Duration? {
        guard focused else { return nil }
        let idle = time - caretActivity
        guard idle >= .zero, idle < Self.caretBlinkTimeout else { return nil }
        let half = Self.caretBlinkPeriod / 2
        let steps = Int((idle.seconds / half.seconds).rounded(.down)) + 1
        return caretActivity + half * steps
    }

    /// The caret's blink restarts at `time` (the field gained focus, a composition changed):
    /// it stays visible while the user types or composes.
    public mutating func caretMoved(at time: Duration) { caretActivity = time }

    // MARK: Edits

    /// Performs a key's edit: on the text field (with `editField`'s change reporting), or in
    /// system mode on the keystroke proxy, whose keystrokes become `.send` effects at once.
    public mutating func edit(_ change: Edit, at time: Duration) -> [KeyboardEffect] {
        switch mode {
        case .hostScreen:
            return editField(at: time) { change.apply(to: &$0) }
        case .system:
            change.apply(to: &keystrokes)
            return keystrokes.takePending().map { .send($0) }
        }
    }

    /// Runs `change` on the text field at `time` and reports a change of its text or caret (a
    /// new selection alone is drawn but not traced). Any change restarts the caret's blink.
    public mutating func editField(at time: Duration, _ change: (inout TextBuffer) -> Void) -> [KeyboardEffect] {
        // Edited in place (a copy of the buffer would make every key copy the whole text);
        // the revisions tell what changed.
        let textRevision = textField.textRevision, selectionRevision = textField.selectionRevision
        let caret = textField.caret
        change(&textField)
        let textChanged = textField.textRevision != textRevision
        guard textChanged || textField.selectionRevision != selectionRevision else { return [] }
        caretActivity = time
        return textChanged || textField.caret != caret ? [.textChanged(textField.text, caret: textField.caret)] : []
    }

    /// Shows `next` as the input method's composition at the caret (`nil`: none), and reports
    /// a change. The composition is never part of the text.
    public mutating func setComposition(_ next: Composition?, at time: Duration) -> [KeyboardEffect] {
        guard next != composition else { return [] }
        composition = next
        caretActivity = time  // the caret stays visible while composing
        return [.compositionChanged(next?.text ?? "", cursor: next?.cursor ?? 0)]
    }

    /// Applies a physical-keyboard editing command to the text field.
    public mutating func perform(_ command: EditingCommand, at time: Duration) -> [KeyboardEffect] {
        switch command {
        case .copy, .cut:
            guard let selected = textField.selectedText else { return [] }
            var effects: [KeyboardEffect] = [.setClipboard(selected)]
            if command == .cut { effects += editField(at: time) { $0.deleteSelection() } }
            return effects
        default:
            return editField(at: time) { field in
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

    // MARK: The physical keyboard and the input method (host screen)

    /// Text committed by the physical keyboard or an input method: it ends the composition and
    /// goes in at the caret.
    public mutating func textInput(_ text: String, at time: Duration) -> [KeyboardEffect] {
        setComposition(nil, at: time) + editField(at: time) { $0.insertText(text) }
    }

    /// Text from the clipboard, pasted as one undo step (line breaks become spaces).
    public mutating func paste(_ text: String, at time: Duration) -> [KeyboardEffect] {
        editField(at: time) { field in
            field.breakUndoCoalescing()
            field.insertText(text)
            field.breakUndoCoalescing()
        }
    }

    /// A click or drag in the field put the caret at Character `offset`: 2 clicks select the
    /// word there, 3 everything; `extending` keeps the anchor.
    public mutating func placeCaret(at offset: Int, extending: Bool, clicks: Int, time: Duration) -> [KeyboardEffect] {
        editField(at: time) { field in
            switch clicks {
            case 2: field.selectWord(at: offset)
            case 3...: field.selectAll()
            default: field.setCaret(offset, extendingSelection: extending)
            }
        }
    }

    /// System mode: the keys go to `target` now.
    public mutating func keyTargetChanged(_ target: KeyTarget) { keyTarget = target }

    /// System mode: whether the focused field is secure (a password or PIN, as its context
    /// says): what is typed there is not remembered (the emoji keyboard's Frequently Used).
    public private(set) var isSecureField = false

    /// The focused field's security changed (`KeyboardInput.secureFieldChanged`).
    public mutating func secureFieldChanged(_ secure: Bool) { isSecureField = secure }

    /// System mode (issue 28): `keys`, the characters one press may type next (most urgent
    /// first), are announced with `.prepareKeys` when they changed since last announced, so
    /// the app gets keys ready for them before a press needs them. Nothing is announced on the
    /// host screen, whose field needs no keys, nor when there are none.
    public mutating func announce(_ keys: String) -> [KeyboardEffect] {
        guard mode == .system, keys != announcedKeys else { return [] }
        announcedKeys = keys
        return keys.isEmpty ? [] : [.prepareKeys(keys)]
    }
}
