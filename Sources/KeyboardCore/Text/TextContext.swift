/// What the focused text field of another application is, as far as the platform tells
/// (issue 30): whether one has the focus at all, what it is for (its purpose and hints, the
/// words of the Wayland text-input-v3 protocol, which input-method-v2 hands on unchanged), the
/// text around its caret and the application it belongs to. iOS gives a keyboard the same
/// facts as `textDocumentProxy`'s `documentContextBeforeInput` / `…AfterInput`,
/// `keyboardType` and `isSecureTextEntry`.
///
/// A value, bounded and safe to keep: at most `maxCharactersBeforeCaret` Characters before the
/// caret and `maxCharactersAfterCaret` after it (Onboard reads about as much), and no text at
/// all for a secure field (`isSecure`: a password or PIN purpose, or the `hiddenText` or
/// `sensitiveData` hint) — whatever the platform offered, the initializer drops it.
///
/// Made by each platform's context source (AT-SPI 2 on X11, input-method-v2 on Wayland); pure:
/// no platform type appears here.
public struct TextContext: Hashable, Sendable {
    /// What the field is for: text-input-v3's `content_purpose`, with its values (`rawValue`).
    public enum Purpose: UInt32, CaseIterable, Hashable, Sendable {
        case normal = 0, alpha, digits, number, phone, url, email, name, password, pin, date, time, datetime, terminal

        /// The protocol's name of the purpose (`"datetime"`, `"terminal"`), as the trace writes it.
        public var name: String { "\(self)" }
    }

    /// How the field wants its text: text-input-v3's `content_hint` bit set, with its bit
    /// values. Bits the protocol does not define are never kept (`init(protocolBits:)`).
    public struct Hints: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The protocol's bits only; any other bit of `bits` is dropped.
        public init(protocolBits bits: UInt32) { rawValue = bits & Self.all.rawValue }

        public static let completion = Hints(rawValue: 0x1)
        public static let spellcheck = Hints(rawValue: 0x2)
        public static let autoCapitalization = Hints(rawValue: 0x4)
        public static let lowercase = Hints(rawValue: 0x8)
        public static let uppercase = Hints(rawValue: 0x10)
        public static let titlecase = Hints(rawValue: 0x20)
        public static let hiddenText = Hints(rawValue: 0x40)
        public static let sensitiveData = Hints(rawValue: 0x80)
        public static let latin = Hints(rawValue: 0x100)
        public static let multiline = Hints(rawValue: 0x200)

        /// Every hint, in bit order, with the protocol's name for it.
        public static let named: [(hint: Hints, name: String)] = [
            (.completion, "completion"), (.spellcheck, "spellcheck"), (.autoCapitalization, "auto_capitalization"),
            (.lowercase, "lowercase"), (.uppercase, "uppercase"), (.titlecase, "titlecase"),
            (.hiddenText, "hidden_text"), (.sensitiveData, "sensitive_data"), (.latin, "latin"), (.multiline, "multiline"),
        ]
        /// The union of every hint the protocol defines.
        public static let all = Hints(rawValue: named.reduce(0) { $0 | $1.hint.rawValue })

        /// The protocol's names of the hints set, in bit order (`["spellcheck", "multiline"]`).
        public var names: [String] { Self.named.filter { contains($0.hint) }.map(\.name) }
    }

    /// The most text kept before the caret, in Characters (extended grapheme clusters).
    public static let maxCharactersBeforeCaret = 256
    /// The most text kept after the caret, in Characters.
    public static let maxCharactersAfterCaret = 100
    /// The longest application name kept, in Characters.
    public static let maxApplicationCharacters = 128

    /// No text field has the focus (or the platform cannot tell which has).
    public static let inactive = TextContext()

    /// Whether a text field has the focus.
    public let isActive: Bool
    public let purpose: Purpose
    public let hints: Hints
    /// The field's text before the caret: its last `maxCharactersBeforeCaret` Characters at
    /// most; empty for a secure field.
    public let textBeforeCaret: String
    /// The field's text after the caret: its first `maxCharactersAfterCaret` Characters at most;
    /// empty for a secure field.
    public let textAfterCaret: String
    /// The name of the application the field belongs to, on one line (controls and line breaks
    /// made spaces, at most `maxApplicationCharacters` Characters); `nil` when not known.
    public let application: String?

    /// Whether what is typed must stay unseen: a password or PIN, or a field that hides or
    /// marks its text sensitive. Then no text is kept, traced, recorded or learned.
    public var isSecure: Bool { Self.isSecure(purpose: purpose, hints: hints) }

    /// A focused field. Text beyond the bounds is cut (the end of `textBeforeCaret`, the start
    /// of `textAfterCaret` stay); a secure field keeps none.
    public init(purpose: Purpose = .normal, hints: Hints = [], textBeforeCaret: String = "", textAfterCaret: String = "",
                application: String? = nil) {
        isActive = true
        self.purpose = purpose
        self.hints = Hints(protocolBits: hints.rawValue)
        let secure = Self.isSecure(purpose: purpose, hints: hints)
        self.textBeforeCaret = secure ? "" : String(textBeforeCaret.suffix(Self.maxCharactersBeforeCaret))
        self.textAfterCaret = secure ? "" : String(textAfterCaret.prefix(Self.maxCharactersAfterCaret))
        self.application = application.flatMap(Self.oneLine)
    }

    /// A focused field described by the protocol's raw values (`content_type`'s `purpose` and
    /// `hint`): an unknown purpose is `normal`, unknown hint bits are dropped.
    public init(purposeValue: UInt32, hintBits: UInt32, textBeforeCaret: String = "", textAfterCaret: String = "",
                application: String? = nil) {
        self.init(purpose: Purpose(rawValue: purposeValue) ?? .normal, hints: Hints(protocolBits: hintBits),
                  textBeforeCaret: textBeforeCaret, textAfterCaret: textAfterCaret, application: application)
    }

    private init() {
        isActive = false
        purpose = .normal
        hints = []
        textBeforeCaret = ""
        textAfterCaret = ""
        application = nil
    }

    /// Whether `other` is the same as this in everything a `context` trace line shows
    /// (activity, purpose, hints, application; secureness follows from them): the text aside.
    public func describesSameField(as other: TextContext) -> Bool {
        isActive == other.isActive && purpose == other.purpose && hints == other.hints && application == other.application
    }

    private static func isSecure(purpose: Purpose, hints: Hints) -> Bool {
        purpose == .password || purpose == .pin || hints.contains(.hiddenText) || hints.contains(.sensitiveData)
    }

    /// `name` on one line and bounded; `nil` when nothing visible is left.
    private static func oneLine(_ name: String) -> String? {
        let line = String(name.prefix(maxApplicationCharacters).map { character in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.isWhitespace } ? " " : character
        })
        let trimmed = line.trimmingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }
}

private extension String {
    /// Without spaces at either end.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else { return "" }
        return String(self[first...last])
    }
}

extension TextContext {
    /// What kind of field it is, as the line above the keys names it (`nil` when no field
    /// has the focus): its purpose, `.password` for any secure field that is not a PIN. Never
    /// anything of its text.
    public var kind: Purpose? {
        guard isActive else { return nil }
        if isSecure, purpose != .pin { return .password }
        return purpose
    }
}
