import FoundationEssentials

/// What HeeKeyboard remembers between runs, stored as JSON in
/// `$XDG_CONFIG_HOME/hee-keyboard/settings.json` (default `~/.config/...`).
///
/// Every field is optional in the file; a missing one takes its default, so files written by
/// older versions still load.
public struct Settings: Hashable, Sendable, Codable {
    /// Never open an audio device.
    public var mute = false
    /// Playback volume, 0...100 (percent).
    public var volume = 100
    /// Window size in points.
    public var windowWidth = Int(KeyboardLayout.defaultWindowSize.width)
    public var windowHeight = Int(KeyboardLayout.defaultWindowSize.height)
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

    private enum CodingKeys: String, CodingKey {
        case mute, volume, windowWidth, windowHeight, limit
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mute = try c.decodeIfPresent(Bool.self, forKey: .mute) ?? false
        volume = try Self.wholeNumber(c, .volume) ?? 100
        windowWidth = try Self.wholeNumber(c, .windowWidth) ?? Int(KeyboardLayout.defaultWindowSize.width)
        windowHeight = try Self.wholeNumber(c, .windowHeight) ?? Int(KeyboardLayout.defaultWindowSize.height)
        limit = try Self.wholeNumber(c, .limit)
    }

    /// An optional whole number. JSONDecoder reports a fraction (`50.5`) or a number too large
    /// for `Int` as invalid JSON without naming the key; this reports a type mismatch at it.
    private static func wholeNumber(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int? {
        guard let value = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.rounded() == value, abs(value) <= 1e15 else {
            throw DecodingError.typeMismatch(Int.self, .init(codingPath: c.codingPath + [key], debugDescription: "not a whole number"))
        }
        return Int(value)
    }

    /// Reads settings from a file's bytes.
    /// - Throws: `LoadError` when the bytes are not a JSON object of the right fields, or a
    ///   value is out of range (volume 0...100, limit 1...99, window at least the minimum and
    ///   at most 16384).
    public static func decode(_ bytes: [UInt8]) throws(LoadError) -> Settings {
        let settings: Settings
        do {
            settings = try JSONDecoder().decode(Settings.self, from: Data(bytes))
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                // An empty path: the file itself is an array, a number, a string or null.
                guard let key = context.codingPath.last?.stringValue else { throw LoadError(message: "not a JSON object") }
                throw LoadError(message: "\"\(key)\" has the wrong type")
            default:
                throw LoadError(message: "not a JSON object")
            }
        } catch {
            throw LoadError(message: "not a JSON object")
        }
        if !volumeRange.contains(settings.volume) { throw LoadError(message: "\"volume\" must be 0-100") }
        if let limit = settings.limit, !limitRange.contains(limit) { throw LoadError(message: "\"limit\" must be 1-99") }
        let minimum = KeyboardLayout.minimumWindowSize
        if Double(settings.windowWidth) < minimum.width || Double(settings.windowHeight) < minimum.height
            || settings.windowWidth > 16384 || settings.windowHeight > 16384 {
            throw LoadError(message: "\"windowWidth\" and \"windowHeight\" must be at least \(Int(minimum.width))x\(Int(minimum.height))")
        }
        return settings
    }

    /// The settings as pretty-printed JSON with sorted keys, ending with a newline.
    public var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mute, forKey: .mute)
        try c.encode(volume, forKey: .volume)
        try c.encode(windowWidth, forKey: .windowWidth)
        try c.encode(windowHeight, forKey: .windowHeight)
        try c.encodeIfPresent(limit, forKey: .limit)
    }

    /// The window size in points.
    public var windowSize: Size { Size(width: Double(windowWidth), height: Double(windowHeight)) }
}
