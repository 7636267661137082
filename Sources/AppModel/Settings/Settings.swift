import KeyboardCore
/// What HeeKeyboard remembers between runs, stored as JSON in
/// `$XDG_CONFIG_HOME/hee-keyboard/settings.json` (default `~/.config/...`).
///
/// Every field is optional in the file; a missing one takes its default, so files written by
/// older versions still load.
public struct Settings: Hashable, Sendable {
    /// Never open an audio device.
    public var mute = false
    /// Playback volume, 0...100 (percent).
    public var volume = 100
    /// Window size in points: the normal (unmaximized) size.
    public var windowWidth = Int(KeyboardLayout.defaultWindowSize.width)
    public var windowHeight = Int(KeyboardLayout.defaultWindowSize.height)
    /// Whether the window was maximized (it opens maximized; `windowWidth` × `windowHeight` is
    /// the size it returns to).
    public var maximized = false
    /// The show's limit (presses per person), 1...99, or `nil` for none.
    public var limit: Int?
    /// The keyboard layout's name (`de`: `layouts/de.json`), or `nil` for the default, `en`.
    /// The globe key saves its choice here.
    public var layout: String?
    /// The layouts the globe key (🌐) switches between, in its order, or `nil` for the
    /// default, `defaultLayouts` (issue 22). One layout: no globe key.
    public var layouts: [String]?
    /// The kana pad's 「フリックのみ」 (flick only): repeated taps on a kana key type it again
    /// instead of stepping it (あ→い→う).
    public var flickOnly = false

    /// The layouts the globe key switches between by default: English, 日本語かな and the emoji keyboard.
    public static let defaultLayouts = ["en", "ja-kana", "emoji"]
    /// The emoji keyboard's Frequently Used (issue 34): the last emoji chosen, most recent
    /// first, at most `EmojiRecents.limit`; never from a secure field.
    public var emojiRecents: [String]?
    /// Whether the desktop row (esc tab ctrl alt ← ↓ ↑ →, issue 21) is shown under the へぇ
    /// button: `true` in both modes, `false` in neither, `nil` (absent) in system mode only.
    public var desktopKeys: Bool?
    /// System mode hides the keyboard while no text field has the focus and shows it when one
    /// gets it, where the platform tells (issue 30): `true` or `false`, `nil` (absent) on.
    public var autoShow: Bool?

    public init() {}

    /// The valid volume range.
    public static let volumeRange = 0...100
    /// The valid limit range (the counter has two digits).
    public static let limitRange = 1...99

    /// Why a settings file could not be used.
    public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads settings from a file's bytes.
    /// - Throws: `LoadError` when the bytes are not a JSON object of the right fields, or a
    ///   value is out of range (volume 0...100, limit 1...99, window at least the minimum and
    ///   at most 16384, a layout name of letters, digits, `-` and `_`).
    public static func decode(_ bytes: [UInt8]) throws(LoadError) -> Settings {
        try decode(members: try SettingsDocument(parsing: bytes).members)
    }

    /// Reads settings from the members of a settings file's JSON object, refusing any member
    /// that `decodeCorrecting(members:)` would have to correct. Members this version does not
    /// know are ignored (a save keeps them: `SettingsDocument`).
    /// - Throws: `LoadError` naming the first known member that has the wrong type or is out
    ///   of range.
    public static func decode(members: [(String, JSONValue)]) throws(LoadError) -> Settings {
        let (settings, corrections) = decodeCorrecting(members: members)
        if let first = corrections.first { throw LoadError(message: first.description) }
        return settings
    }

    /// Every member name this version reads and writes. A field added to `Settings` is added
    /// here, to `decode(members:)` and to `members`.
    public static let keys: Set<String> = ["mute", "volume", "windowWidth", "windowHeight", "limit", "maximized", "layout",
                                           "layouts", "flickOnly", "desktopKeys", "autoShow", "emojiRecents"]

    /// The settings as JSON object members, one per field (`limit`, `layout` and `desktopKeys`
    /// only when set, `maximized` only when true: an absent member means the default).
    public var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("mute", .bool(mute)), ("volume", .integer(volume)),
                                              ("windowHeight", .integer(windowHeight)), ("windowWidth", .integer(windowWidth))]
        if let limit { members.append(("limit", .integer(limit))) }
        if maximized { members.append(("maximized", .bool(true))) }
        if let layout { members.append(("layout", .string(layout))) }
        if let layouts { members.append(("layouts", .array(layouts.map { .string($0) }))) }
        if flickOnly { members.append(("flickOnly", .bool(true))) }
        if let desktopKeys { members.append(("desktopKeys", .bool(desktopKeys))) }
        if let autoShow { members.append(("autoShow", .bool(autoShow))) }
        if let emojiRecents { members.append(("emojiRecents", .array(emojiRecents.map { .string($0) }))) }
        return members
    }

    /// The settings as pretty-printed JSON with sorted keys, ending with a newline (`limit`
    /// only when set): what a new settings file holds.
    public var encoded: [UInt8] {
        var document = SettingsDocument()
        document.update(from: nil, to: self)
        return document.encoded
    }

    /// The window size in points.
    public var windowSize: Size { Size(width: Double(windowWidth), height: Double(windowHeight)) }
}
