import KeyboardCore

/// The kana pad's tables in a layout file (issue 22): a flick key's `flick` and `cycle`, and
/// the 「゛゜小」 key's `forms`.
///
/// ```json
/// "や": {"flick": ["や", "「", "ゆ", "」", "よ"], "cycle": ["や", "ゆ", "よ", "ゃ", "ゅ", "ょ"]},
/// "わ": {"flick": ["わ", "を", "ん", "ー"], "cycle": ["わ", "を", "ん", "ゎ", "ー"]},
/// "゛゜小": {"forms": [["あ", "ぁ"], ["う", "ぅ", "ゔ"], ["か", null, "が"], ["は", null, "ば", "ぱ"]]}
/// ```
extension LayoutFile {
    /// A flick key from its `flick` array (tap, then left, up, right, down: iOS's order, with
    /// `null` or a shorter array for a direction that types nothing) and its optional `cycle`
    /// (the kana repeated taps step through, starting with the tap kana; by default the tap
    /// kana and the flicks in that order).
    /// - Throws: `Problem` at the offending entry: not an array, more than five entries, a tap
    ///   that is not a non-empty string, a flick or cycle entry that is empty or not a string,
    ///   a cycle that does not start with the tap kana.
    static func kanaKey(_ flick: (value: JSONValue, path: String), cycle: (value: JSONValue, path: String)?,
                        at path: String) throws(Problem) -> KanaKey {
        let entries = try array(flick.value, at: flick.path, of: "kana (tap, left, up, right, down)")
        guard (1...5).contains(entries.count) else {
            throw Problem(place: flick.path, reason: "expected 1 to 5 kana (tap, left, up, right, down), not \(entries.count)")
        }
        var kana: [String?] = []
        for (i, entry) in entries.enumerated() {
            let entryPath = "\(flick.path)[\(i)]"
            if entry == .null, i > 0 {
                kana.append(nil)
            } else {
                kana.append(try nonEmptyString(entry, at: entryPath))
            }
        }
        kana += Array(repeating: nil, count: 5 - kana.count)
        var cycleKana: [String]?
        if let cycle {
            var list: [String] = []
            for (i, entry) in try array(cycle.value, at: cycle.path, of: "kana").enumerated() {
                list.append(try nonEmptyString(entry, at: "\(cycle.path)[\(i)]"))
            }
            guard list.first == kana[0] else {
                throw Problem(place: cycle.path, reason: "a toggle cycle starts with the tap kana \(JSONValue.string(kana[0]!).serialized)")
            }
            cycleKana = list
        }
        let key = KanaKey(tap: kana[0]!, left: kana[1], up: kana[2], right: kana[3], down: kana[4], cycle: cycleKana)
        if let problem = key.problem { throw Problem(place: path, reason: problem) }
        return key
    }

    /// The 「゛゜小」 key's table: each entry `[base, small, ゛ form, ゜ form]`, `null` (or a
    /// shorter array) where a kana has no such form.
    /// - Throws: `Problem` at the offending entry: not an array of arrays, an entry of no or
    ///   more than four kana, a base that is not a non-empty string, a form that is empty or
    ///   not a string, a kana in two entries.
    static func kanaForms(_ value: JSONValue, at path: String) throws(Problem) -> [KanaForms] {
        var forms: [KanaForms] = []
        var seen: Set<String> = []
        for (i, entry) in try array(value, at: path, of: "forms ([base, small, ゛, ゜])").enumerated() {
            let entryPath = "\(path)[\(i)]"
            let items = try array(entry, at: entryPath, of: "kana (base, small, ゛, ゜)")
            guard (1...4).contains(items.count) else {
                throw Problem(place: entryPath, reason: "expected 1 to 4 kana (base, small, ゛, ゜), not \(items.count)")
            }
            var kana: [String?] = []
            for (k, item) in items.enumerated() {
                if item == .null, k > 0 {
                    kana.append(nil)
                } else {
                    let text = try nonEmptyString(item, at: "\(entryPath)[\(k)]")
                    guard seen.insert(text).inserted else {
                        throw Problem(place: "\(entryPath)[\(k)]", reason: "\(JSONValue.string(text).serialized) is in an earlier entry")
                    }
                    kana.append(text)
                }
            }
            kana += Array(repeating: nil, count: 4 - kana.count)
            forms.append(KanaForms(base: kana[0]!, small: kana[1], voiced: kana[2], semiVoiced: kana[3]))
        }
        return forms
    }
}
