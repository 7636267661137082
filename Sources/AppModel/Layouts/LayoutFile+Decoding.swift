import KeyboardCore

/// From a layout file's JSON to a `LayoutDefinition`: the file's structure and types (the
/// layout's own rules are `LayoutDefinition.validate()`'s).
extension LayoutFile {
    static let layoutFields = ["name", "columns", "layers", "desktopRow", "keys"]
    static let layerFields = ["name", "rows"]
    static let keyItemFields = ["key", "width", "rowSpan"]
    static let keyFields = ["layer", "types", "label", "alternates", "flick", "cycle", "forms"]

    /// The definition `json` describes.
    /// - Parameter expectedName: the name the file was found by, which its `name` must be.
    /// - Throws: `Problem` at the first value that is missing, unknown or of the wrong type
    ///   (`name`, `columns`, `layers`, `desktopRow` and `keys` in that order, each in file order); at `$.name` for a name that is not a layout name or not the file's;
    ///   at a key entry that reassigns a reserved key or names a key no layer has.
    static func definition(from json: JSONValue, expectedName: String?) throws(Problem) -> LayoutDefinition {
        let top = try FieldReader(json, at: "$", what: "a layout", fields: layoutFields)
        let owner = "a layout has \(list(["name", "columns", "layers"]))"
        let name = try top.required("name", owner: owner)
        let nameText = try string(name.value, at: name.path)
        guard isValidName(nameText) else {
            throw Problem(place: name.path, reason: "\(describe(name.value)) is not a layout name (\(nameRule))")
        }
        if let expectedName, nameText != expectedName {
            throw Problem(place: name.path, reason: "\(describe(name.value)) is not the file's name \"\(expectedName)\"")
        }
        let columns = try top.required("columns", owner: owner)
        let columnCount = try number(columns.value, at: columns.path)
        let layersField = try top.required("layers", owner: owner)
        var layers: [LayerDefinition] = []
        for (i, value) in try array(layersField.value, at: layersField.path, of: "layers").enumerated() {
            layers.append(try layer(from: value, at: "\(layersField.path)[\(i)]"))
        }
        // Said before the keys, which would otherwise be refused as placed in no layer.
        guard !layers.isEmpty else { throw Problem(place: layersField.path, reason: "a layout needs at least one layer") }
        var desktopRow: [RowItem] = []
        if let rowField = top.optional("desktopRow") {
            for (k, itemValue) in try array(rowField.value, at: rowField.path, of: "keys").enumerated() {
                desktopRow.append(try item(from: itemValue, at: "\(rowField.path)[\(k)]"))
            }
        }
        var keys: [KeyID: KeyDefinition] = [:]
        if let keysField = top.optional("keys") {
            guard let members = keysField.value.objectMembers else {
                throw Problem(place: keysField.path, reason: "expected an object of keys by id, not \(describe(keysField.value))")
            }
            let placed = Set(layers.flatMap(\.keyIDs) + desktopRow.compactMap(\.keyID))
            for (id, value) in members {
                let path = "\(keysField.path)[\(JSONValue.string(id).serialized)]"
                let key = KeyID(id)
                guard keys[key] == nil else { throw Problem(place: path, reason: "given twice") }
                keys[key] = try keyDefinition(of: key, from: value, at: path)
                guard placed.contains(key) else { throw Problem(place: path, reason: "no layer has key \(JSONValue.string(id).serialized)") }
            }
        }
        return LayoutDefinition(name: nameText, columns: columnCount, layers: layers, keys: keys, desktopRow: desktopRow)
    }

    /// One layer: `{"name": …, "rows": [[item, …], …]}`.
    static func layer(from value: JSONValue, at path: String) throws(Problem) -> LayerDefinition {
        let fields = try FieldReader(value, at: path, what: "a layer", fields: layerFields)
        let owner = "a layer has \(list(layerFields))"
        let name = try fields.required("name", owner: owner)
        let layerName = try string(name.value, at: name.path)
        let rowsField = try fields.required("rows", owner: owner)
        var rows: [[RowItem]] = []
        for (r, rowValue) in try array(rowsField.value, at: rowsField.path, of: "rows").enumerated() {
            let rowPath = "\(rowsField.path)[\(r)]"
            var row: [RowItem] = []
            for (k, itemValue) in try array(rowValue, at: rowPath, of: "keys").enumerated() {
                row.append(try item(from: itemValue, at: "\(rowPath)[\(k)]"))
            }
            rows.append(row)
        }
        return LayerDefinition(name: layerName, rows: rows)
    }

    /// One place in a row: `"q"`, `{"key": …, "width": …, "rowSpan": …}`, `{"gap": …}` or
    /// `{"covered": …}`.
    static func item(from value: JSONValue, at path: String) throws(Problem) -> RowItem {
        if case .string(let id) = value { return .key(KeyID(id)) }
        let kinds = ["key", "gap", "covered"]
        guard let members = value.objectMembers else {
            throw Problem(place: path, reason: "expected a key id or an object with \(list(kinds, "or")), not \(describe(value))")
        }
        let given = kinds.filter { kind in members.contains { $0.0 == kind } }
        guard given.count == 1, let kind = given.first else {
            throw Problem(place: path, reason: given.isEmpty ? "a row item needs \(list(kinds, "or"))"
                          : "a row item has only one of \(list(kinds, "or")), not \(list(given))")
        }
        switch kind {
        case "gap", "covered":
            let fields = try FieldReader(value, at: path, what: "a \(kind)", fields: [kind])
            let width = try fields.required(kind, owner: "a \(kind) has its width")
            let units = try self.width(width.value, at: width.path)
            return kind == "gap" ? .gap(units) : .covered(units)
        default:
            let fields = try FieldReader(value, at: path, what: "a key", fields: keyItemFields)
            let id = try fields.required("key", owner: "a key has an id")
            let keyID = try string(id.value, at: id.path)
            let width = try fields.optional("width").map { field throws(Problem) in try self.width(field.value, at: field.path) }
            let span = try fields.optional("rowSpan").map { field throws(Problem) in try wholeNumber(field.value, at: field.path) }
            return .key(KeyID(keyID), width: width ?? .units(1), rowSpan: span ?? 1)
        }
    }

    /// What the file says about key `key`: `{"layer": …, "types": …, "label": …, "alternates": […]}`.
    static func keyDefinition(of key: KeyID, from value: JSONValue, at path: String) throws(Problem) -> KeyDefinition {
        let fields = try FieldReader(value, at: path, what: "a key entry", fields: keyFields)
        var definition = KeyDefinition()
        if fields.has("layer"), fields.has("types") {
            throw Problem(place: LayoutFile.member("types", of: path), reason: "a key either shows a layer or types text, not both")
        }
        if let layer = fields.optional("layer") {
            definition.action = .showLayer(try nonEmptyString(layer.value, at: layer.path))
        }
        if let types = fields.optional("types") {
            definition.action = .character(try nonEmptyString(types.value, at: types.path))
        }
        if let flick = fields.optional("flick") {
            if let other = ["layer", "types"].first(where: fields.has) {
                throw Problem(place: LayoutFile.member("flick", of: path), reason: "a key either flicks kana or \(other == "layer" ? "shows a layer" : "types text"), not both")
            }
            definition.action = .kana(try kanaKey(flick, cycle: fields.optional("cycle"), at: path))
        } else if let cycle = fields.optional("cycle") {
            throw Problem(place: cycle.path, reason: "only a flick key (one with \"flick\") has a toggle cycle")
        }
        if definition.action != nil, KeyAction.reservedIDs[key] != nil {
            let field = ["layer", "types", "flick"].first(where: fields.has) ?? "types"
            throw Problem(place: LayoutFile.member(field, of: path),
                          reason: "\"\(key.name)\" is the keyboard's own key; a layout file gives it a label only")
        }
        if let label = fields.optional("label") {
            definition.label = try nonEmptyString(label.value, at: label.path)
        }
        if let forms = fields.optional("forms") {
            guard key == .kanaModifier else {
                throw Problem(place: forms.path, reason: "only the \"゛゜小\" key has forms")
            }
            definition.forms = try kanaForms(forms.value, at: forms.path)
        }
        if let alternates = fields.optional("alternates") {
            for (i, choice) in try array(alternates.value, at: alternates.path, of: "strings").enumerated() {
                definition.alternates.append(try string(choice, at: "\(alternates.path)[\(i)]"))
            }
        }
        return definition
    }
}
