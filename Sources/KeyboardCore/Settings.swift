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
    ///   at most 16384).
    public static func decode(_ bytes: [UInt8]) throws(LoadError) -> Settings {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw LoadError(message: "not UTF-8 text") }
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw LoadError(message: error.description)
        }
        guard let fields = JSONFields(json) else { throw LoadError(message: "not a JSON object") }
        var settings = Settings()
        do {
            settings.mute = try fields.bool("mute") ?? settings.mute
            settings.volume = try fields.int("volume") ?? settings.volume
            settings.windowWidth = try fields.int("windowWidth") ?? settings.windowWidth
            settings.windowHeight = try fields.int("windowHeight") ?? settings.windowHeight
            settings.maximized = try fields.bool("maximized") ?? settings.maximized
            settings.limit = try fields.int("limit")
        } catch {
            throw LoadError(message: error.message)
        }
        if !volumeRange.contains(settings.volume) { throw LoadError(message: "\"volume\" must be 0-100") }
        if let limit = settings.limit, !limitRange.contains(limit) { throw LoadError(message: "\"limit\" must be 1-99") }
        let minimum = KeyboardLayout.minimumWindowSize
        if Double(settings.windowWidth) < minimum.width || Double(settings.windowHeight) < minimum.height
            || settings.windowWidth > 16384 || settings.windowHeight > 16384 {
            throw LoadError(message: "\"windowWidth\" and \"windowHeight\" must be from \(Int(minimum.width))x\(Int(minimum.height)) to 16384x16384")
        }
        return settings
    }

    /// The settings as pretty-printed JSON with sorted keys, ending with a newline (`limit`
    /// only when set, `maximized` only when true).
    public var encoded: [UInt8] {
        var members: [(String, JSONValue)] = [("mute", .bool(mute)), ("volume", .integer(volume)),
                                              ("windowHeight", .integer(windowHeight)), ("windowWidth", .integer(windowWidth))]
        if let limit { members.append(("limit", .integer(limit))) }
        if maximized { members.append(("maximized", .bool(true))) }
        let lines = members.sorted { $0.0 < $1.0 }.map { "  \(JSONValue.string($0.0).serialized) : \($0.1.serialized)" }
        return Array(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }

    /// The window size in points.
    public var windowSize: Size { Size(width: Double(windowWidth), height: Double(windowHeight)) }
}
