import KeyboardCore
/// How a settings file's known members become `Settings` when one of them is unusable as
/// written: the valid members are used, each invalid one is corrected (clamped into range,
/// rounded, or its default), and every correction is reported so the app can name it in one
/// warning. The file itself is left as it is: a corrected member is rewritten only when the
/// user changes that setting.
extension Settings {
    /// A member that could not be used as written and what was used instead.
    public struct Correction: Hashable, Sendable, CustomStringConvertible {
        /// The member's name (`"volume"`).
        public var field: String
        /// The value as the file has it, serialized as JSON (`150`, `"loud"`).
        public var written: String
        /// What is wrong with it (`must be 0-100`, `has the wrong type (a whole number 0-100)`).
        public var problem: String
        /// The value used instead (`100`, `none`, `false`).
        public var used: String
        /// `"volume" 150 must be 0-100, using 100`: one line.
        public var description: String { "\"\(field)\" \(written) \(problem), using \(used)" }

        /// A correction of member `field`, written as `written`, for `problem`, using `used`.
        public init(field: String, written: String, problem: String, used: String) {
            self.field = field
            self.written = written
            self.problem = problem
            self.used = used
        }
    }

    /// Reads settings from the members of a settings file's JSON object, correcting what is
    /// invalid instead of refusing the file. Members this version does not know are ignored.
    ///
    /// Rules: a number outside its range is clamped to the range (`volume` 150 → 100,
    /// `windowWidth` 20000 → 16384), except a `limit` below 1, which means no limit (0 is how
    /// people write "none"); a number with a fraction is rounded to the nearest whole number
    /// (halves away from zero: `volume` 80.5 → 81) and then clamped; a value of the wrong type
    /// (`"loud"`, `true` for a number, `1` for a flag, an array) gets the field's default.
    /// `null` is the same as an absent member. A `layout` that is not a string, or not a name
    /// a layout file can have (`LayoutFile.isValidName`), means the default, `en`; whether a
    /// layout of that name exists is the app's to check (`LayoutCatalog.choose`). A
    /// `desktopKeys` that is not `true` or `false` means the default (the row in system mode
    /// only); an `autoShow` that is not `true` or `false` means the default (on).
    /// - Returns: the settings and one `Correction` per member that was not used as written,
    ///   in the order of `Settings.keys` as read (`mute`, `volume`, `windowWidth`,
    ///   `windowHeight`, `maximized`, `limit`, `layout`, `layouts`, `flickOnly`, `desktopKeys`, `autoShow`).
    ///   `layouts` is a non-empty array of layout names, each once; otherwise the default (en,
    ///   ja-kana).
    /// - Complexity: O(n) in the number of members.
    public static func decodeCorrecting(members: [(String, JSONValue)]) -> (settings: Settings, corrections: [Correction]) {
        var values: [String: JSONValue] = [:]
        for (key, value) in members { values[key] = value }  // the last of a repeated name wins
        var settings = Settings()
        var corrections: [Correction] = []
        let minimum = KeyboardLayout.minimumWindowSize
        let sizeRange = "from \(Int(minimum.width))x\(Int(minimum.height)) to 16384x16384"

        func flag(_ key: String, _ fallback: Bool) -> Bool {
            switch values[key] {
            case nil, .null?: return fallback
            case .bool(let b)?: return b
            case let other?:
                corrections.append(Correction(field: key, written: other.serialized,
                                              problem: "has the wrong type (true or false)", used: String(fallback)))
                return fallback
            }
        }

        /// The member as a whole number in `range`, or `nil` when absent; `below` is what a
        /// number under the range becomes (the range's lower end unless said otherwise).
        func number(_ key: String, _ range: ClosedRange<Int>, rangeText: String, fallback: Int?,
                    below: Int?? = nil) -> Int? {
            let whole: Int
            var problem: String
            switch values[key] {
            case nil, .null?: return fallback
            case .integer(let i)?:
                whole = i
                problem = "must be \(rangeText)"
            case .number(let d)? where d.isFinite:
                let rounded = d.rounded(.toNearestOrAwayFromZero)
                whole = rounded >= 9.0e15 ? Int(9.0e15) : rounded <= -9.0e15 ? -Int(9.0e15) : Int(rounded)
                problem = d == rounded ? "must be \(rangeText)" : "is not a whole number (\(rangeText))"
            case let other?:
                corrections.append(Correction(field: key, written: other.serialized,
                                              problem: "has the wrong type (a whole number \(rangeText))",
                                              used: fallback.map(String.init) ?? "none"))
                return fallback
            }
            let result: Int? = whole < range.lowerBound ? (below ?? range.lowerBound) : min(whole, range.upperBound)
            if result != whole || problem.hasPrefix("is not") {
                if result == whole { problem = "is not a whole number" }
                corrections.append(Correction(field: key, written: values[key]!.serialized, problem: problem,
                                              used: result.map(String.init) ?? "none"))
            }
            return result
        }

        settings.mute = flag("mute", settings.mute)
        settings.volume = number("volume", volumeRange, rangeText: "0-100", fallback: settings.volume)!
        let width = 16384
        settings.windowWidth = number("windowWidth", Int(minimum.width)...width, rangeText: sizeRange,
                                      fallback: settings.windowWidth)!
        settings.windowHeight = number("windowHeight", Int(minimum.height)...width, rangeText: sizeRange,
                                       fallback: settings.windowHeight)!
        settings.maximized = flag("maximized", settings.maximized)
        settings.limit = number("limit", limitRange, rangeText: "1-99", fallback: nil, below: .some(nil))
        switch values["layout"] {
        case nil, .null?:
            break
        case .string(let name)? where LayoutFile.isValidName(name):
            settings.layout = name
        case .string(let name)?:
            corrections.append(Correction(field: "layout", written: JSONValue.string(name).serialized,
                                          problem: "is not a layout name (\(LayoutFile.nameRule))", used: LayoutCatalog.defaultName))
        case let other?:
            corrections.append(Correction(field: "layout", written: other.serialized,
                                          problem: "has the wrong type (a layout name)", used: LayoutCatalog.defaultName))
        }
        if let written = values["layouts"], written != .null {
            var names: [String] = []
            if case .array(let items) = written {
                for item in items {
                    guard case .string(let name) = item, LayoutFile.isValidName(name), !names.contains(name) else {
                        names = []
                        break
                    }
                    names.append(name)
                }
            }
            if names.isEmpty {
                corrections.append(Correction(field: "layouts", written: written.serialized,
                                              problem: "is not a list of layout names, each once (\(LayoutFile.nameRule))",
                                              used: Settings.defaultLayouts.joined(separator: ", ")))
            } else {
                settings.layouts = names
            }
        }
        settings.flickOnly = flag("flickOnly", settings.flickOnly)
        if let written = values["emojiRecents"], written != .null {
            var texts: [String]?
            if case .array(let items) = written, items.count <= EmojiRecents.limit {
                let strings = items.compactMap { if case .string(let text) = $0, text.count == 1 { text } else { nil } }
                if strings.count == items.count { texts = strings }
            }
            if let texts {
                settings.emojiRecents = texts
            } else {
                corrections.append(Correction(field: "emojiRecents", written: written.serialized,
                                              problem: "is not a list of at most \(EmojiRecents.limit) emoji", used: "none"))
            }
        }
        switch values["desktopKeys"] {
        case nil, .null?:
            break
        case .bool(let shown)?:
            settings.desktopKeys = shown
        case let other?:
            corrections.append(Correction(field: "desktopKeys", written: other.serialized,
                                          problem: "has the wrong type (true or false)", used: "the default (system mode only)"))
        }
        switch values["autoShow"] {
        case nil, .null?:
            break
        case .bool(let on)?:
            settings.autoShow = on
        case let other?:
            corrections.append(Correction(field: "autoShow", written: other.serialized,
                                          problem: "has the wrong type (true or false)", used: "the default (on)"))
        }
        return (settings, corrections)
    }
}
