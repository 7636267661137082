import KeyboardCore

/// The keyboard's `TextContext` from what AT-SPI says about the focused object (issue 30).
///
/// What the toolkits tell, seen under Xvfb with at-spi2-core 2.46 (Debian 12):
/// - GTK 3: role TEXT (PASSWORD_TEXT with visibility off), EDITABLE, SINGLE_LINE or
///   MULTI_LINE; nothing of `gtk_entry_set_input_purpose` (email, number, phone, url and PIN
///   look like free text; a PIN entry with visibility off is a password field).
/// - Qt 5: role TEXT (PASSWORD_TEXT for echo mode Password), EDITABLE, MULTI_LINE for the
///   multi-line editors (a line edit has no SINGLE_LINE); no attributes.
/// - Chromium and Firefox: role ENTRY (PASSWORD_TEXT, SPIN_BUTTON for `type=number`), the
///   web page's `<input type>` as the attribute `text-input-type` (absent for plain text in
///   Firefox), `tag` (`input`, `textarea`); a contenteditable element is a SECTION with
///   EDITABLE and MULTI_LINE.
/// - VTE terminals: role TERMINAL.
extension AccessibleFacts {
    /// Whether the object is a field the keyboard types into: EDITABLE and not READ_ONLY, or a
    /// terminal (whose text is the terminal's, not editable, but which takes typing).
    public var isTextField: Bool {
        guard !states.contains(.defunct) else { return false }
        return role == .terminal || (states.contains(.editable) && !states.contains(.readOnly))
    }

    /// What the field is for: the role first (a password, a terminal), then the web page's
    /// `<input type>`, then roles that imply one (a spin button holds a number).
    public var purpose: TextContext.Purpose {
        if role == .passwordText { return .password }
        if role == .terminal { return .terminal }
        if let type = attributes["text-input-type"], let purpose = Self.inputTypes[type.lowercased()] { return purpose }
        if role == .spinButton { return .number }
        if role == .dateEditor { return .date }
        return .normal
    }

    /// How the field wants its text: `multiline` from the MULTI_LINE state; a password field
    /// hides its text and holds sensitive data (what GTK 3 says on Wayland for one).
    public var hints: TextContext.Hints {
        var hints: TextContext.Hints = []
        if states.contains(.multiLine) && !states.contains(.singleLine) { hints.insert(.multiline) }
        if purpose == .password { hints.formUnion([.hiddenText, .sensitiveData]) }
        return hints
    }

    /// Whether the object's text may be read: a text field that is not secure. The source asks
    /// before it reads any text, so nothing of a password field ever leaves its application.
    public var mayReadText: Bool {
        isTextField && !TextContext(purpose: purpose, hints: hints).isSecure
    }

    /// The context the object describes: `inactive` when it is no text field; otherwise its
    /// purpose, hints, application and the text before and after the caret (none for a secure
    /// field, or when the caret lies outside the text read or an offset is negative).
    public var textContext: TextContext {
        guard isTextField else { return .inactive }
        let purpose = purpose
        let hints = hints
        var before = ""
        var after = ""
        // AT-SPI's offsets are never negative; a window that says so is nonsense.
        if let window = text, mayReadText, window.start >= 0, window.caret >= 0 {
            let scalars = Array(window.text.unicodeScalars)
            // The caret as an index into the scalars read; outside them nothing is known.
            let caret = window.caret.subtractingReportingOverflow(window.start)
            if !caret.overflow, caret.partialValue >= 0, caret.partialValue <= scalars.count {
                before = Self.string(scalars[..<caret.partialValue])
                after = Self.string(scalars[caret.partialValue...])
            }
        }
        return TextContext(purpose: purpose, hints: hints, textBeforeCaret: before, textAfterCaret: after,
                           application: application)
    }

    /// HTML's `<input type>` values (what `text-input-type` holds) with a purpose of their own.
    static let inputTypes: [String: TextContext.Purpose] = [
        "email": .email, "tel": .phone, "url": .url, "number": .number, "password": .password,
        "date": .date, "month": .date, "week": .date, "time": .time, "datetime-local": .datetime, "datetime": .datetime,
    ]

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var string = String.UnicodeScalarView()
        string.append(contentsOf: scalars)
        return String(string)
    }
}
