import KeyboardCore
/// A settings file's JSON object as the user keeps it: the members this version knows and
/// every other one (written by a newer version, or by hand), in the file's order.
///
/// Saving goes through a document so that a save changes only what the app changed: the
/// fields that differ from what was loaded are replaced, everything else — unknown members
/// included — is written back as it was read.
public struct SettingsDocument: Hashable, Sendable {
    /// The object's members in file order (a repeated name appears as often as in the file;
    /// readers use its last value).
    public private(set) var members: [(String, JSONValue)]

    /// Whether two documents hold the same members with the same values, in the same order.
    public static func == (lhs: SettingsDocument, rhs: SettingsDocument) -> Bool {
        JSONValue.object(lhs.members) == JSONValue.object(rhs.members)
    }

    /// Hashes the members as `==` compares them.
    public func hash(into hasher: inout Hasher) { hasher.combine(JSONValue.object(members)) }

    /// An empty document (`{}`): what there is when no file exists.
    public init() { members = [] }

    /// The document in a file's bytes. A UTF-8 byte order mark before the object (some editors
    /// write one) is ignored, as RFC 8259 allows; a save writes the file without it.
    /// - Throws: `Settings.LoadError` when the bytes are not UTF-8 text holding one JSON object.
    /// - Complexity: O(n) in the number of bytes.
    public init(parsing bytes: [UInt8]) throws(Settings.LoadError) {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            throw Settings.LoadError(message: "not UTF-8 text")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw Settings.LoadError(message: error.description)
        }
        guard let members = json.objectMembers else { throw Settings.LoadError(message: "not a JSON object") }
        self.members = members
    }

    /// The settings the document holds.
    /// - Throws: `Settings.LoadError` when a known member has the wrong type or is out of range.
    public func settings() throws(Settings.LoadError) -> Settings {
        try Settings.decode(members: members)
    }

    /// The settings the document holds, with invalid members corrected instead of refused
    /// (see `Settings.decodeCorrecting(members:)`): what the app loads.
    public var correctedSettings: (settings: Settings, corrections: [Settings.Correction]) {
        Settings.decodeCorrecting(members: members)
    }

    /// Writes the fields of `new` that differ from `old` into the document; with `old` `nil`,
    /// every field of `new`. A field whose new value is the default that is written as an
    /// absent member (`limit` none) is removed. Members of other names are left alone.
    public mutating func update(from old: Settings?, to new: Settings) {
        let before = Dictionary(old?.members ?? [], uniquingKeysWith: { $1 })
        let after = Dictionary(new.members, uniquingKeysWith: { $1 })
        for key in Settings.keys.sorted() where old == nil || before[key] != after[key] {
            set(key, after[key])
        }
    }

    /// Sets member `key` to `value` (`nil` removes it): in place of its first occurrence, or
    /// appended; further occurrences are removed.
    public mutating func set(_ key: String, _ value: JSONValue?) {
        guard let first = members.firstIndex(where: { $0.0 == key }) else {
            if let value { members.append((key, value)) }
            return
        }
        if let value {
            members[first].1 = value
            var index = members.count - 1
            while index > first {
                if members[index].0 == key { members.remove(at: index) }
                index -= 1
            }
        } else {
            members.removeAll { $0.0 == key }
        }
    }

    /// The document as pretty-printed JSON: one member per line in document order, ending with
    /// a newline. Nested values of unknown members are written compactly on their line.
    public var encoded: [UInt8] {
        if members.isEmpty { return Array("{}\n".utf8) }
        let lines = members.map { "  \(JSONValue.string($0.0).serialized) : \($0.1.serialized)" }
        return Array(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }
}
