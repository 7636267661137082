import KeyboardCore

/// Typed reading of a layout file's JSON values, each refusal naming the value's JSON path.
extension LayoutFile {
    /// A JSON object of a layout file whose members have been checked against the fields it
    /// may have: none unknown, none given twice.
    struct FieldReader {
        /// The object's JSON path (`$.layers[1]`).
        let path: String
        private let members: [String: JSONValue]

        /// Reads `value` at `path` as an object `what` (`"a layer"`) with at most `fields`.
        /// - Throws: `Problem` when it is not an object, has a field not in `fields` (at the
        ///   field's path) or a field twice.
        init(_ value: JSONValue, at path: String, what: String, fields: [String]) throws(Problem) {
            guard let list = value.objectMembers else {
                throw Problem(place: path, reason: "expected \(what) (a JSON object), not \(LayoutFile.describe(value))")
            }
            var members: [String: JSONValue] = [:]
            for (key, member) in list {
                let memberPath = LayoutFile.member(key, of: path)
                guard fields.contains(key) else {
                    throw Problem(place: memberPath, reason: "unknown field (\(what) has \(LayoutFile.list(fields)))")
                }
                guard members.updateValue(member, forKey: key) == nil else {
                    throw Problem(place: memberPath, reason: "given twice")
                }
            }
            self.path = path
            self.members = members
        }

        /// Whether the object has field `key`.
        func has(_ key: String) -> Bool { members[key] != nil }

        /// Field `key`'s value and path, or `nil` when absent.
        func optional(_ key: String) -> (value: JSONValue, path: String)? {
            members[key].map { ($0, LayoutFile.member(key, of: path)) }
        }

        /// Field `key`'s value and path.
        /// - Throws: `Problem` at the field's path when it is absent; `owner` says what needs it.
        func required(_ key: String, owner: String) throws(Problem) -> (value: JSONValue, path: String) {
            guard let found = optional(key) else {
                throw Problem(place: LayoutFile.member(key, of: path), reason: "missing (\(owner))")
            }
            return found
        }
    }

    /// `value` as a string.
    /// - Throws: `Problem` at `path` when it is another type.
    static func string(_ value: JSONValue, at path: String) throws(Problem) -> String {
        guard case .string(let text) = value else {
            throw Problem(place: path, reason: "expected a string, not \(describe(value))")
        }
        return text
    }

    /// `value` as a non-empty string.
    /// - Throws: `Problem` at `path` when it is another type or empty.
    static func nonEmptyString(_ value: JSONValue, at path: String) throws(Problem) -> String {
        let text = try string(value, at: path)
        guard !text.isEmpty else { throw Problem(place: path, reason: "empty") }
        return text
    }

    /// `value` as a number (an integer or a fraction).
    /// - Throws: `Problem` at `path` when it is another type.
    static func number(_ value: JSONValue, at path: String) throws(Problem) -> Double {
        switch value {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: throw Problem(place: path, reason: "expected a number, not \(describe(value))")
        }
    }

    /// `value` as a whole number small enough to be a count (an integral `2.0` counts).
    /// - Throws: `Problem` at `path` when it is another type or has a fraction.
    static func wholeNumber(_ value: JSONValue, at path: String) throws(Problem) -> Int {
        switch value {
        case .integer(let i): return i
        case .number(let d) where d == d.rounded() && abs(d) < 1e9: return Int(d)
        default: throw Problem(place: path, reason: "expected a whole number, not \(describe(value))")
        }
    }

    /// `value` as a width: a number of units or `"fill"`.
    /// - Throws: `Problem` at `path` when it is anything else.
    static func width(_ value: JSONValue, at path: String) throws(Problem) -> KeyWidth {
        switch value {
        case .integer(let i): return .units(Double(i))
        case .number(let d): return .units(d)
        case .string("fill"): return .fill
        default: throw Problem(place: path, reason: "expected a number of units or \"fill\", not \(describe(value))")
        }
    }

    /// `value` as an array.
    /// - Throws: `Problem` at `path` when it is another type; `what` names the items.
    static func array(_ value: JSONValue, at path: String, of what: String) throws(Problem) -> [JSONValue] {
        guard case .array(let items) = value else {
            throw Problem(place: path, reason: "expected an array of \(what), not \(describe(value))")
        }
        return items
    }

    /// The JSON path of member `key` of the object at `path`: `$.layers` for a plain name,
    /// `$.keys["#+="]` for any other.
    static func member(_ key: String, of path: String) -> String {
        let plain = !key.isEmpty && key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: false
            }
        } && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(key.utf8.first!)
        return plain ? "\(path).\(key)" : "\(path)[\(JSONValue.string(key).serialized)]"
    }

    /// A value as a message shows it: a string or a number as JSON (at most 40 characters),
    /// an array or object by its kind.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array: return "an array"
        case .object: return "an object"
        case .null: return "null"
        default:
            let text = value.serialized
            return text.count <= 40 ? text : String(text.prefix(39)) + "…"
        }
    }

    /// `["a", "b", "c"]` as `"a", "b" and "c"` (or `conjunction` for "and").
    static func list(_ fields: [String], _ conjunction: String = "and") -> String {
        let quoted = fields.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "no fields" }
        return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + quoted.last!
    }
}
