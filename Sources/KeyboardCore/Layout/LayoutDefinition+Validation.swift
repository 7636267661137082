/// The rules a layout must follow, checked before it is used: a bad layout file is refused
/// with the place in it (a JSON path: `$.layers[1].rows[2]`) and the reason, and the app
/// falls back to the built-in `en`.
extension LayoutDefinition {
    /// A broken rule: where (a JSON path into the layout file) and why.
    public struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        /// The JSON path of the offending value, e.g. `$.layers[0].rows[3][2]`.
        public var path: String
        /// Why, in one line.
        public var reason: String

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        public var description: String { "\(path): \(reason)" }
    }

    /// Checks every rule: at least one layer; layer names unique; in every layer the へぇ
    /// button alone in one row; no key id twice in a layer; no row wider than `columns`
    /// units (a `fill` key counts at least one unit); a key reaching down (`rowSpan` 2)
    /// over a row with a `covered` item of its width below it, and no row span beyond 2;
    /// `showLayer` naming a layer that exists; every layer reachable from the first; and
    /// alternates only on keys that type characters.
    /// - Throws: `Invalid` for the first broken rule, in file order.
    public func validate() throws(Invalid) {
        guard !layers.isEmpty else { throw Invalid(path: "$.layers", reason: "a layout needs at least one layer") }
        guard columns >= 1, columns <= 40 else {
            throw Invalid(path: "$.columns", reason: "\(Self.number(columns)) is not between 1 and 40")
        }
        var names: Set<String> = []
        for (i, layer) in layers.enumerated() {
            let path = "$.layers[\(i)]"
            guard !layer.name.isEmpty else { throw Invalid(path: "\(path).name", reason: "a layer needs a name") }
            guard names.insert(layer.name).inserted else {
                throw Invalid(path: "\(path).name", reason: "another layer is already named \"\(layer.name)\"")
            }
            try validate(layer, at: path)
        }
        for (id, definition) in keys.sorted(by: { $0.key.name < $1.key.name }) {
            let path = "$.keys[\(Self.quoted(id.name))]"
            if case .showLayer(let name)? = definition.action, layer(named: name) == nil {
                throw Invalid(path: "\(path).layer", reason: "no layer is named \"\(name)\"")
            }
            if !definition.alternates.isEmpty, action(of: id).text == nil {
                throw Invalid(path: "\(path).alternates", reason: "only a key that types characters has alternates")
            }
            if definition.alternates.contains(where: \.isEmpty) {
                throw Invalid(path: "\(path).alternates", reason: "an alternate is empty")
            }
        }
        try checkDesktopRow()
        try checkReachability()
    }

    /// The desktop row's keys fit a row and are in no layer (it is shown in every layer).
    private func checkDesktopRow() throws(Invalid) {
        guard !desktopRow.isEmpty else { return }
        var seen: Set<KeyID> = []
        try checkRow(desktopRow, at: "$.desktopRow", in: "the desktop row", seen: &seen)
        for (k, item) in desktopRow.enumerated() {
            guard let id = item.keyID else { continue }
            let path = "$.desktopRow[\(k)]"
            if id == .hee { throw Invalid(path: path, reason: "the hee button has a row of its own") }
            if case .key(_, _, let span) = item, span != 1 { throw Invalid(path: path, reason: "the desktop row is one row high") }
            if let layer = layers.first(where: { $0.keyIDs.contains(id) }) {
                throw Invalid(path: path, reason: "key \"\(id.name)\" is in layer \"\(layer.name)\" and in the desktop row")
            }
        }
    }

    private func validate(_ layer: LayerDefinition, at path: String) throws(Invalid) {
        guard !layer.rows.isEmpty else { throw Invalid(path: "\(path).rows", reason: "a layer needs at least one row") }
        var seen: Set<KeyID> = []
        var heeRows = 0
        for (r, row) in layer.rows.enumerated() {
            let rowPath = "\(path).rows[\(r)]"
            try checkRow(row, at: rowPath, in: "layer \"\(layer.name)\"", seen: &seen)
            for (k, item) in row.enumerated() {
                guard case .key(let id, _, let span) = item else { continue }
                let itemPath = "\(rowPath)[\(k)]"
                if id == .hee {
                    guard row.count == 1 else { throw Invalid(path: itemPath, reason: "the hee button has a row of its own") }
                    heeRows += 1
                }
                if span == 2 { try checkCovered(item, at: k, inRow: r, of: layer, path: itemPath) }
            }
        }
        guard heeRows == 1 else {
            throw Invalid(path: "\(path).rows", reason: "layer \"\(layer.name)\" has no row with the hee button")
        }
    }

    /// One row's rules: not empty, widths above 0 and within `columns`, key ids not empty and
    /// not already `seen` in the same `place`, row spans of 1 or 2, and the row no wider than
    /// `columns` units (a `fill` key counts one unit, a `fill` gap nothing).
    private func checkRow(_ row: [RowItem], at rowPath: String, in place: String, seen: inout Set<KeyID>) throws(Invalid) {
        guard !row.isEmpty else { throw Invalid(path: rowPath, reason: "an empty row") }
        for (k, item) in row.enumerated() {
            let itemPath = "\(rowPath)[\(k)]"
            if case .units(let units) = item.width, !(units > 0 && units <= columns) {
                throw Invalid(path: itemPath, reason: "width \(Self.number(units)) is not above 0 and at most \(Self.number(columns))")
            }
            guard case .key(let id, _, let span) = item else { continue }
            guard !id.name.isEmpty else { throw Invalid(path: itemPath, reason: "a key needs an id") }
            guard seen.insert(id).inserted else {
                throw Invalid(path: itemPath, reason: "key \"\(id.name)\" is in \(place) twice")
            }
            guard (1...2).contains(span) else { throw Invalid(path: itemPath, reason: "rowSpan \(span) is not 1 or 2") }
        }
        let units = row.reduce(0.0) { sum, item in
            switch (item, item.width) {
            case (_, .units(let u)): sum + u
            case (.gap, .fill): sum
            default: sum + 1
            }
        }
        if units > columns + 1e-9 {
            throw Invalid(path: rowPath, reason: "its keys are \(Self.number(units)) units wide; a row holds \(Self.number(columns))")
        }
    }

    /// A key reaching down over the next row needs a `covered` item of the same width at the
    /// same place there (the same widths before it).
    private func checkCovered(_ item: RowItem, at k: Int, inRow r: Int, of layer: LayerDefinition,
                              path: String) throws(Invalid) {
        let row = layer.rows[r]
        guard r + 1 < layer.rows.count else { throw Invalid(path: path, reason: "rowSpan 2 on the last row") }
        let below = layer.rows[r + 1]
        guard k < below.count, below[k] == .covered(item.width),
              Array(below[..<k].map(\.width)) == Array(row[..<k].map(\.width)) else {
            throw Invalid(path: "\(path)", reason: "rowSpan 2 needs a \"covered\" item of the same width under it in the next row")
        }
    }

    /// Every layer can be reached from the first through `showLayer` keys.
    private func checkReachability() throws(Invalid) {
        var reached: Set<String> = [layers[0].name]
        var queue = [layers[0]]
        while let layer = queue.popLast() {
            for id in layer.keyIDs {
                if case .showLayer(let name) = action(of: id), reached.insert(name).inserted, let next = self.layer(named: name) {
                    queue.append(next)
                }
            }
        }
        for (i, layer) in layers.enumerated() where !reached.contains(layer.name) {
            throw Invalid(path: "$.layers[\(i)]", reason: "layer \"\(layer.name)\" cannot be reached: no key shows it")
        }
    }

    /// `n` without a needless ".0".
    static func number(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
