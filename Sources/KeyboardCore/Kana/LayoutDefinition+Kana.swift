/// What a layout says about the kana pad (issue 22) and the globe key.
extension LayoutDefinition {
    /// Whether the layout has flick keys (a kana pad): its keyboard then has a candidate bar
    /// above the へぇ button, and its space and return keys become 次候補 and 確定 while
    /// composing.
    public var hasKanaPad: Bool {
        layers.contains { layer in layer.keyIDs.contains { action(of: $0).isFlicked } }
    }

    /// The 「゛゜小」 key's table: the file's `forms`, else the standard hiragana table.
    public var kanaModifiers: KanaModifierTable {
        keys[.kanaModifier]?.forms.map(KanaModifierTable.init) ?? .standard
    }

    /// The flick table of `key`, when it is a flick key of the kana pad.
    public func kanaKey(_ key: KeyID) -> KanaKey? {
        if case .kana(let table) = action(of: key) { table } else { nil }
    }

    /// The layout with iOS's globe key beside the layer key (`123`, `ABC`) of each layer's
    /// lowest row that has one (the bottom row, or the one above rows a layout file added
    /// below it), as wide as that key: what iOS shows when more than one keyboard is enabled.
    /// A layout that already has a globe key, or a layer with no layer key or no room for
    /// one more, is left as it is.
    public func withGlobeKey() -> LayoutDefinition {
        guard !layers.contains(where: { $0.keyIDs.contains(.globe) }) else { return self }
        let isLayerKey = { (item: RowItem) in
            item.keyID.map { if case .showLayer = action(of: $0) { true } else { false } } ?? false
        }
        var copy = self
        for i in copy.layers.indices {
            guard let r = copy.layers[i].rows.lastIndex(where: { $0.contains(where: isLayerKey) }) else { continue }
            var row = copy.layers[i].rows[r]
            let at = row.firstIndex(where: isLayerKey)!
            row.insert(.key(.globe, width: row[at].width), at: at + 1)
            var candidate = copy
            candidate.layers[i].rows[r] = row
            if (try? candidate.validate()) != nil { copy = candidate }
        }
        return copy
    }
}
