/// System mode's `TextDocumentProxy`: the document is another application's, which the
/// keyboard cannot read, so each edit becomes the `Keystroke`s that make it there — text is
/// typed, `deleteBackward` is BackSpace, `deleteWordBackward` Ctrl+BackSpace, a line break
/// Return — collected in `pending` until the session hands them to the app.
///
/// Like iOS's proxy for a secure or foreign field, it knows nothing of the text: both
/// contexts are `nil`.
public struct KeystrokeDocumentProxy: TextDocumentProxy, Hashable, Sendable {
    /// Keystrokes made by edits and not yet taken, oldest first.
    public private(set) var pending: [Keystroke] = []

    /// A proxy with no keystrokes pending.
    public init() {}

    /// Always `nil`: another application's text cannot be read.
    public var documentContextBeforeInput: String? { nil }
    /// Always `nil`: another application's text cannot be read.
    public var documentContextAfterInput: String? { nil }
    /// Always `true`: the document is unknown, so nothing that deletes is skipped for being
    /// pointless.
    public var hasText: Bool { true }

    /// Types `text`: runs of characters become `.text`, each line break (LF, CR or CRLF)
    /// `Return`, each tab `Tab`; other control characters are dropped.
    public mutating func insertText(_ text: String) {
        var run = ""
        func flush() {
            if !run.isEmpty { pending.append(.text(run)) }
            run = ""
        }
        for character in text {
            switch character {
            case "\n", "\r", "\r\n":
                flush()
                pending.append(.key(.return))
            case "\t":
                flush()
                pending.append(.key(.tab))
            default:
                let isControl = character.unicodeScalars.count == 1
                    && character.unicodeScalars.first.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } == true
                if !isControl { run.append(character) }
            }
        }
        flush()
    }

    /// BackSpace.
    public mutating func deleteBackward() { pending.append(.key(.backSpace)) }

    /// Ctrl+BackSpace: the word before the caret, as text fields on the Linux desktop (GTK,
    /// Qt, most terminals' line editors) understand it. Returns `true`: the key is sent; what
    /// it deleted cannot be known.
    @discardableResult
    public mutating func deleteWordBackward() -> Bool {
        pending.append(.key(.backSpace, control: true))
        return true
    }

    /// Left or Right, `|offset|` times.
    public mutating func adjustTextPosition(byCharacterOffset offset: Int) {
        let key: NamedKey = offset < 0 ? .left : .right
        pending.append(contentsOf: repeatElement(Keystroke.key(key), count: abs(offset)))
    }

    /// Returns the pending keystrokes and forgets them.
    public mutating func takePending() -> [Keystroke] {
        defer { pending = [] }
        return pending
    }
}
