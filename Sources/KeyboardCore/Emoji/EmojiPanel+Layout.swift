/// The emoji keyboard's keys as a layout (issue 34): a layer per page of the grid, named by
/// its category and page (`smileys`, `smileys.2`; Frequently Used is `recents`), each with the
/// へぇ button on top, 3 rows of 10 emoji and the category bar (ABC, 🌐 — the next of the
/// globe key's layouts, as iOS's emoji keyboard has —, the nine categories, ⌫).
extension EmojiPanel {
    /// ABC: back to the layout shown before (iOS's ABC / あいう key).
    public static let abcKey = KeyID("emoji:abc")

    /// The layout of `catalog`'s emoji with `recents` as Frequently Used and the chosen
    /// `tones` in their bases' places; the ABC key reads `abcLabel`.
    static func definition(catalog: EmojiCatalog, recents: [String], tones: [String: String],
                           abcLabel: String = "ABC") -> LayoutDefinition {
        var keys: [KeyID: KeyDefinition] = [Self.abcKey: KeyDefinition(action: .previousLayout, label: abcLabel)]
        var layers: [LayerDefinition] = []
        for category in EmojiCategory.allCases {
            keys[category.keyID] = KeyDefinition(action: .showLayer(category.rawValue), label: category.icon)
        }
        let bar: [RowItem] = [.key(Self.abcKey, width: .units(1.25)), .key(.globe, width: .units(1))]
            + EmojiCategory.allCases.map { .key($0.keyID, width: .units(0.75)) }
            + [.key(.backspace, width: .units(1))]
        for category in EmojiCategory.allCases {
            let texts: [String] = category == .recents
                ? recents
                : (catalog.byCategory[category] ?? []).map { tones[$0.text] ?? $0.text }
            let pages = stride(from: 0, to: max(texts.count, 1), by: columns * rows).map {
                Array(texts[$0 ..< min($0 + columns * rows, texts.count)])
            }
            for (p, page) in pages.enumerated() {
                var rowsOfPage: [[RowItem]] = [[.key(.hee)]]
                for r in 0 ..< rows {
                    let row = page.dropFirst(r * columns).prefix(columns)
                    let items: [RowItem] = row.map { text in
                        let id = keyID(of: text)
                        let tonesOfText = catalog.entry(of: text)?.tones ?? []
                        if id.name != text || !tonesOfText.isEmpty {
                            keys[id] = KeyDefinition(action: .character(text), alternates: tonesOfText)
                        }
                        return .key(id)
                    }
                    rowsOfPage.append(items + Array(repeating: .gap(.units(1)), count: columns - items.count))
                }
                rowsOfPage.append(bar)
                layers.append(LayerDefinition(name: p == 0 ? category.rawValue : "\(category.rawValue).\(p + 1)",
                                              rows: rowsOfPage))
            }
        }
        return LayoutDefinition(name: layoutName, columns: Double(columns), layers: layers, keys: keys)
    }

    /// The key of an emoji: the emoji itself (the trace names the key by what it types), or
    /// `emoji:` and it for an emoji that is a reserved id (🌐 is the globe key).
    public static func keyID(of text: String) -> KeyID {
        KeyAction.reservedIDs[KeyID(text)] == nil ? KeyID(text) : KeyID("emoji:\(text)")
    }
}
