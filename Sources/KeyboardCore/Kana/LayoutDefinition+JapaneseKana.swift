/// The built-in `ja-kana` layout: iOS's 日本語かな pad (issue 22), its 4 × 5 grid under the
/// へぇ button — `→ あ か さ ⌫` / `↶ た な は 空白` / `☆123 ま や ら 改行` / `🌐 ゛゜小 わ 、。?!`
/// (改行 two rows tall) — and a numbers layer of the same shape, the desktop row as `en`'s.
///
/// The app reads `layouts/ja-kana.json`, which a test keeps equal to this value; the core's
/// tests lay this one out. The kana tables are `KanaKey.standard` and
/// `KanaModifierTable.standard`; the numbers layer's flicks are those of iOS's number pad as
/// commonly described (1: ☆ ♪ →, 2: ¥ $ €, …).
extension LayoutDefinition {
    /// Side keys are one unit wide, the kana keys this many.
    static let kanaKeyWidth = 1.25
    /// The desktop row's keys' width in units.
    static let desktopKeyWidth = 0.68

    /// The 日本語かな layout.
    public static let japaneseKana: LayoutDefinition = {
        func kana(_ id: KeyID) -> RowItem { .key(id, width: .units(kanaKeyWidth)) }
        func grid(_ ids: [[KeyID]], left: [KeyID]) -> [[RowItem]] {
            [[.key(.hee)],
             [.key(left[0])] + ids[0].map(kana) + [.key(.backspace)],
             [.key(left[1])] + ids[1].map(kana) + [.key(.space)],
             [.key(left[2])] + ids[2].map(kana) + [.key(.return, rowSpan: 2)],
             [.key(left[3])] + ids[3].map(kana) + [.covered(.units(1))]]
        }
        let kanaLayer = LayerDefinition(name: "kana", rows: grid([["あ", "か", "さ"], ["た", "な", "は"], ["ま", "や", "ら"],
                                                                 [.kanaModifier, "わ", "、"]],
                                                                left: [.kanaNext, .kanaUndo, "123", .globe]))
        let numbersLayer = LayerDefinition(name: "numbers", rows: grid([["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["(", "0", "."]],
                                                                      left: [.kanaNext, .kanaUndo, "かな", .globe]))
        var keys: [KeyID: KeyDefinition] = [
            "123": KeyDefinition(action: .showLayer("numbers"), label: "☆123"),
            "かな": KeyDefinition(action: .showLayer("kana"), label: "あいう"),
            .space: KeyDefinition(label: "空白"),
            .return: KeyDefinition(label: "改行"),
            .kanaModifier: KeyDefinition(forms: KanaModifierTable.standard.forms),
        ]
        for key in KanaKey.standard + KanaKey.numberPad {
            keys[KeyID(key.id)] = KeyDefinition(action: .kana(key))
        }
        keys["、"]?.label = "、。?!"
        keys["("]?.label = "()[]"
        keys["."]?.label = ".,-/"
        let english = LayoutDefinition.english
        for item in english.desktopRow {
            if let id = item.keyID { keys[id] = english.keys[id] }
        }
        // The desktop row's eight keys as wide as fits beside their seven gaps down to a
        // 320 pt keyboard (a `fill` key counts a whole unit, and this grid has 5.75).
        let desktopRow = english.desktopRow.compactMap(\.keyID).map { RowItem.key($0, width: .units(desktopKeyWidth)) }
        return LayoutDefinition(name: "ja-kana", columns: 3 * kanaKeyWidth + 2, layers: [kanaLayer, numbersLayer], keys: keys,
                                desktopRow: desktopRow)
    }()
}
