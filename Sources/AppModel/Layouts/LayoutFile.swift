import KeyboardCore

/// A layout file (`layouts/NAME.json`): one JSON object that `read(_:name:)` turns into a
/// `LayoutDefinition`, refusing a bad file with the place in it and the reason.
///
/// ```json
/// { "name": "en", "columns": 10,
///   "layers": [ { "name": "letters", "rows": [ ["hee"], ["q", "w", …],
///       [{"key": "shift", "width": 1.35}, {"gap": "fill"}, "z", …, {"gap": "fill"}, {"key": "backspace", "width": 1.35}],
///       [{"key": "123", "width": 1.35}, {"key": "space", "width": "fill"}, {"key": "return", "width": 2.7}] ] }, … ],
///   "keys": { "123": {"layer": "numbers"}, "e": {"alternates": ["è", "é", …]}, "space": {"label": "Leerzeichen"} } }
/// ```
///
/// A row item is a key id (a key one unit wide), `{"key": ID, "width": N | "fill", "rowSpan":
/// 1 | 2}`, `{"gap": N | "fill"}` or `{"covered": N | "fill"}`. A key entry has any of
/// `layer` (the key shows that layer), `types` (the text it types, when not its id), `label`
/// and `alternates`. Every other field, a value of the wrong type and a missing `name`,
/// `columns`, `layers`, or layer `name` or `rows` is refused; then the layout's own rules
/// (`LayoutDefinition.validate()`) apply.
public enum LayoutFile {
    /// The largest layout file read, in bytes (1 MiB, as the settings file; the shipped
    /// layouts are 2-4 KB).
    public static let sizeLimit = 1 << 20

    /// The file name extension of layout files.
    public static let fileExtension = ".json"

    /// Why a layout file cannot be used: where in it and why.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The JSON path of the offending value (`$.layers[1].rows[2][3].width`); for text that
        /// is not JSON, `line:column` (1-based; the column counts characters); `nil` when the
        /// file as a whole is wrong (not UTF-8).
        public var place: String?
        /// Why, in one line.
        public var reason: String

        /// A problem at `place` (a JSON path or `line:column`), for `reason`. Names from the
        /// file quoted in either (a layer's, a key's) have their control characters escaped,
        /// so the problem stays one line (found by the layout-file fuzz target: a layer name
        /// with DEL).
        public init(place: String?, reason: String) {
            self.place = place?.controlsEscaped
            self.reason = reason.controlsEscaped
        }

        /// `$.layers[1].rows[2]: its keys are 11.4 units wide; a row holds 10`.
        public var description: String { place.map { "\($0): \(reason)" } ?? reason }
    }

    /// Whether `name` can name a layout: 1-64 ASCII letters, digits, `-` and `_` (it is a file
    /// name, so no `/` and no `..`).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    /// What `isValidName` accepts, for messages.
    public static let nameRule = "1-64 letters, digits, '-' and '_'"

    /// The layout in a file's bytes, checked.
    /// - Parameters:
    ///   - bytes: the file's contents; a UTF-8 byte order mark before the object is ignored.
    ///   - name: the name the file was found by (its name without `.json`), which its `name`
    ///     must match; `nil` to accept any valid name.
    /// - Throws: `Problem` for text that is not UTF-8 or not JSON (with `line:column`), for a
    ///   field that is missing, unknown or of the wrong type, and for the first broken rule of
    ///   `LayoutDefinition.validate()` (each with its JSON path).
    /// - Complexity: O(n) in the file's size.
    public static func read(_ bytes: [UInt8], name: String? = nil) throws(Problem) -> LayoutDefinition {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: body, as: UTF8.self) else {
            throw Problem(place: nil, reason: "not UTF-8 text")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw Problem(place: lineAndColumn(of: error.offset, in: body), reason: "not valid JSON (\(error.reason))")
        }
        let definition = try definition(from: json, expectedName: name)
        do {
            try definition.validate()
        } catch {
            throw Problem(place: error.path, reason: error.reason)
        }
        return definition
    }

    /// `line:column` (both from 1) of byte `offset` in `bytes`; the column counts characters.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> String {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return "\(line):\(column)"
    }
}
