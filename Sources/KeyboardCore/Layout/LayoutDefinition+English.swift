/// The built-in `en` layout: the iPhone's English keyboard (letters, numbers, symbols, with
/// iOS's English long-press alternates), the へぇ button above the keys, and the desktop row
/// (`esc` `tab` `ctrl` `alt` ← ↓ ↑ →) that system mode shows under it.
///
/// The app reads layouts from files (`layouts/en.json` is this layout as a file, and a test
/// keeps the two equal); this copy is what it falls back on when a layout file is bad, and
/// what the core's tests lay out.
extension LayoutDefinition {
    /// Shift and backspace (and the layer key in shift's place) are this many units wide.
    static let modifierWidth = 1.35
    /// The return key's width in units.
    static let returnWidth = 2.7

    /// The iPhone English layout.
    public static let english: LayoutDefinition = {
        func keys(_ text: String) -> [RowItem] { text.map { .key(KeyID(String($0))) } }
        func wide(_ id: KeyID, _ width: Double) -> RowItem { .key(id, width: .units(width)) }
        let bottom = { (layerKey: KeyID) -> [RowItem] in
            [wide(layerKey, modifierWidth), .key(.space, width: .fill), wide(.return, returnWidth)]
        }
        let punctuation: [RowItem] = ".,?!'".map { .key(KeyID(String($0)), width: .fill) }
        let letters = LayerDefinition(name: "letters", rows: [
            [.key(.hee)],
            keys("qwertyuiop"),
            keys("asdfghjkl"),
            [wide(.shift, modifierWidth), .gap(.fill)] + keys("zxcvbnm") + [.gap(.fill), wide(.backspace, modifierWidth)],
            bottom("123"),
        ])
        let numbers = LayerDefinition(name: "numbers", rows: [
            [.key(.hee)],
            keys("1234567890"),
            keys("-/:;()$&@\""),
            [wide("#+=", modifierWidth)] + punctuation + [wide(.backspace, modifierWidth)],
            bottom("ABC"),
        ])
        let symbols = LayerDefinition(name: "symbols", rows: [
            [.key(.hee)],
            keys("[]{}#%^*+="),
            keys("_\\|~<>€£¥•"),
            [wide("123", modifierWidth)] + punctuation + [wide(.backspace, modifierWidth)],
            bottom("ABC"),
        ])
        var definitions: [KeyID: KeyDefinition] = [
            "123": KeyDefinition(action: .showLayer("numbers")),
            "#+=": KeyDefinition(action: .showLayer("symbols")),
            "ABC": KeyDefinition(action: .showLayer("letters")),
        ]
        let alternates: [(KeyID, String)] = [
            ("e", "èéêëēėę"), ("a", "àáâäæãåā"), ("c", "çćč"), ("i", "îïíīįì"), ("l", "ł"), ("n", "ñń"),
            ("o", "ôöòóœøōõ"), ("s", "ßśš"), ("u", "ûüùúū"), ("y", "ÿ"), ("z", "žźż"),
            ("-", "–—•"), ("$", "€£¥₩¢₽"), (".", "…"), ("?", "¿"), ("!", "¡"), ("'", "‘’"), ("\"", "“”„«»"),
            ("0", "°"),
        ]
        for (key, choices) in alternates {
            definitions[key, default: KeyDefinition()].alternates = choices.map { String($0) }
        }
        let desktop: [(KeyID, String)] = [("esc", "esc"), ("tab", "tab"), ("ctrl", "ctrl"), ("alt", "alt"),
                                          ("left", "←"), ("down", "↓"), ("up", "↑"), ("right", "→")]
        for (key, label) in desktop { definitions[key] = KeyDefinition(label: label) }
        return LayoutDefinition(name: "en", columns: 10, layers: [letters, numbers, symbols], keys: definitions,
                                desktopRow: desktop.map { .key($0.0, width: .fill) })
    }()
}
