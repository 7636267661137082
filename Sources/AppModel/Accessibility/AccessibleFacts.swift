import KeyboardCore

/// What AT-SPI 2 says about one accessible object — the focused one, on X11 — as libatspi
/// hands it over: its role and states (the protocol's wire numbers, `AtspiRole` and
/// `AtspiStateType` of at-spi2-core's `atspi-constants.h`), its attributes, its application, and
/// part of its text around the caret. Raw and untrusted: any application can say anything;
/// `textContext` (in `AccessibleFacts+TextContext.swift`) makes the keyboard's `TextContext`
/// of it, whatever it holds.
public struct AccessibleFacts: Hashable, Sendable {
    /// An `AtspiRole` value (any number: an application may send one this code does not know).
    public struct Role: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// ATSPI_ROLE_DATE_EDITOR.
        public static let dateEditor = Role(rawValue: 12)
        /// ATSPI_ROLE_PASSWORD_TEXT: a text field whose text is hidden (GTK's entry with
        /// visibility off, Qt's password line edit, a web page's `<input type=password>`).
        public static let passwordText = Role(rawValue: 40)
        /// ATSPI_ROLE_PUSH_BUTTON.
        public static let pushButton = Role(rawValue: 43)
        /// ATSPI_ROLE_SPIN_BUTTON: browsers give a web page's `<input type=number>` this role.
        public static let spinButton = Role(rawValue: 52)
        /// ATSPI_ROLE_TERMINAL (VTE's terminals: GNOME Terminal, xfce4-terminal).
        public static let terminal = Role(rawValue: 60)
        /// ATSPI_ROLE_TEXT: GTK's and Qt's text fields.
        public static let text = Role(rawValue: 61)
        /// ATSPI_ROLE_ENTRY: the browsers' text fields.
        public static let entry = Role(rawValue: 79)
    }

    /// An `AtspiStateSet`: bit n is the state `AtspiStateType` n (all defined states are below 64).
    public struct States: OptionSet, Hashable, Sendable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// ATSPI_STATE_ACTIVE (1).
        public static let active = States(rawValue: 1 << 1)
        /// ATSPI_STATE_DEFUNCT (6): the object is gone.
        public static let defunct = States(rawValue: 1 << 6)
        /// ATSPI_STATE_EDITABLE (7): its text can be changed.
        public static let editable = States(rawValue: 1 << 7)
        /// ATSPI_STATE_FOCUSED (12).
        public static let focused = States(rawValue: 1 << 12)
        /// ATSPI_STATE_MULTI_LINE (17).
        public static let multiLine = States(rawValue: 1 << 17)
        /// ATSPI_STATE_SINGLE_LINE (26).
        public static let singleLine = States(rawValue: 1 << 26)
        /// ATSPI_STATE_READ_ONLY (43): editable in kind, but not now.
        public static let readOnly = States(rawValue: 1 << 43)
    }

    /// Part of the object's text: `text`, which starts `start` code points into the object's
    /// text, and the caret, in code points from the start of the object's text (AT-SPI's
    /// offsets count Unicode scalars). Nothing promises that the caret lies inside `text`, or
    /// that `text` is as long as the offsets say.
    public struct TextWindow: Hashable, Sendable {
        public var text: String
        public var start: Int
        public var caret: Int

        public init(text: String, start: Int, caret: Int) {
            self.text = text
            self.start = start
            self.caret = caret
        }
    }

    public var role: Role
    public var states: States
    /// The object's attributes (`"text-input-type": "email"`, `"tag": "textarea"`, …).
    public var attributes: [String: String]
    /// The name of its application (the application accessible's name), if it gave one.
    public var application: String?
    /// Its text around the caret, when it was read (never for a field whose text may not be).
    public var text: TextWindow?

    public init(role: Role, states: States = [], attributes: [String: String] = [:], application: String? = nil,
                text: TextWindow? = nil) {
        self.role = role
        self.states = states
        self.attributes = attributes
        self.application = application
        self.text = text
    }

    /// How much text around the caret the source reads, in code points: four per Character the
    /// context keeps (a flag is two scalars, a family emoji up to seven), so that the context
    /// is full in all but pathological text.
    public static let textWindowBefore = 4 * TextContext.maxCharactersBeforeCaret
    public static let textWindowAfter = 4 * TextContext.maxCharactersAfterCaret
}
