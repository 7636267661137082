/// A keyboard layout as a layout file defines it: its layers (named views, each rows of
/// keys), the widths of the keys, what each key does, its label and its long-press
/// alternates, and where the へぇ button is. Pure data: `KeyboardLayout` turns one layer into
/// rectangles for a window size, `validate()` checks the rules a file must follow, and the
/// app reads files into it (`LayoutFile` in AppModel).
///
/// Widths are in *units*: one unit is the width of a letter key, and a row holds `columns`
/// units plus the gaps between its keys (iPhone English: 10).
public struct LayoutDefinition: Hashable, Sendable {
    /// The layout's name, as `--layout` and the settings file name it (`en`, `de`).
    public var name: String
    /// Units across a row.
    public var columns: Double
    /// The layers; the first is shown first (the letters).
    public var layers: [LayerDefinition]
    /// The keys the file says something about (action, label, alternates), by id. A key not
    /// here types its id (`"q"` types q) or, for a reserved id, does what it names.
    public var keys: [KeyID: KeyDefinition]
    /// The desktop's keys (`esc` `tab` `ctrl` `alt` and the arrows), a row shown under the へぇ
    /// button in every layer when the app asks for it (system mode; issue 21). Empty: none.
    public var desktopRow: [RowItem]

    /// A layout named `name` with `columns` units per row.
    public init(name: String, columns: Double, layers: [LayerDefinition], keys: [KeyID: KeyDefinition] = [:],
                desktopRow: [RowItem] = []) {
        self.name = name
        self.columns = columns
        self.layers = layers
        self.keys = keys
        self.desktopRow = desktopRow
    }

    /// `layer`'s rows as shown: with the desktop row under the へぇ button's row (or on top,
    /// if the layer has none) when `desktopKeys` is set and the layout has one.
    public func rows(of layer: LayerDefinition, desktopKeys: Bool) -> [[RowItem]] {
        guard desktopKeys, !desktopRow.isEmpty else { return layer.rows }
        var rows = layer.rows
        let at = rows.firstIndex(where: LayerDefinition.isHeeRow).map { $0 + 1 } ?? 0
        rows.insert(desktopRow, at: at)
        return rows
    }

    /// The layer shown first.
    public var firstLayer: LayerDefinition { layers[0] }

    /// The layer named `name`, if the layout has one.
    public func layer(named name: String) -> LayerDefinition? { layers.first { $0.name == name } }

    /// What `key` does: a reserved id's own action, else the file's, else typing its id.
    public func action(of key: KeyID) -> KeyAction {
        if let reserved = KeyAction.reservedIDs[key] { return reserved }
        return keys[key]?.action ?? .character(key.name)
    }

    /// The long-press alternates of `key` (empty: none).
    public func alternates(of key: KeyID) -> [String] { keys[key]?.alternates ?? [] }

    /// The label the file gives `key`, if any (otherwise the keyboard draws its id, or the
    /// reserved keys' icons and words).
    public func label(of key: KeyID) -> String? { keys[key]?.label }
}

/// What a layout file says about one key.
public struct KeyDefinition: Hashable, Sendable {
    /// What it does (`nil`: the default for its id).
    public var action: KeyAction? { didSet { kanaTable = Self.kanaTable(of: action) } }
    /// What is drawn on it (`nil`: its id, or the reserved keys' icons and words).
    public var label: String?
    /// Its long-press alternates, in the order the bubble shows them (iOS: `e` → è é ê ë ē ė ę).
    public var alternates: [String]
    /// The 「゛゜小」 key's table (issue 22), when the file gives one.
    public var forms: [KanaForms]?

    /// A kana key's table once more, outside the `KeyAction` enum: Swift keeps a multi-payload
    /// enum's case in spare bits of its payload's pointers, which LeakSanitizer's scan does not
    /// recognise, so a table's heap storage (its toggle cycle) held only in `action` read as
    /// leaked at exit under `make sanitize` while a layout was still in use. A copy in a plain
    /// optional keeps its pointers as they are. (Derived from `action`, so equality is not
    /// changed by it.)
    private var kanaTable: KanaKey?

    public init(action: KeyAction? = nil, label: String? = nil, alternates: [String] = [], forms: [KanaForms]? = nil) {
        self.action = action
        self.label = label
        self.alternates = alternates
        self.forms = forms
        kanaTable = Self.kanaTable(of: action)
    }

    private static func kanaTable(of action: KeyAction?) -> KanaKey? {
        if case .kana(let table)? = action { table } else { nil }
    }
}

/// One layer (view) of a layout: rows of keys, top row first. The row holding only the
/// `hee` key is where the へぇ button is: it is as tall as the button's seed frame (scaled),
/// and every layer has one.
public struct LayerDefinition: Hashable, Sendable {
    /// The layer's name (`letters`, `numbers`, `symbols`), as `showLayer` actions and the
    /// trace's `layer` line name it.
    public var name: String
    /// The rows, top first.
    public var rows: [[RowItem]]

    public init(name: String, rows: [[RowItem]]) {
        self.name = name
        self.rows = rows
    }

    /// Every key of the layer in reading order (rows top to bottom, left to right).
    public var keyIDs: [KeyID] {
        rows.flatMap { row in row.compactMap { if case .key(let id, _, _) = $0 { id } else { nil } } }
    }

    /// Whether `row` is the へぇ button's row.
    public static func isHeeRow(_ row: [RowItem]) -> Bool {
        row.count == 1 && row.first?.keyID == .hee
    }
}

/// One place in a row: a key, or empty room between keys.
public enum RowItem: Hashable, Sendable {
    /// A key `width` wide. `rowSpan` 2 makes it reach down over the next row, where a
    /// `.covered` item of the same width keeps its place (iOS's tall 改行 key).
    case key(KeyID, width: KeyWidth = .units(1), rowSpan: Int = 1)
    /// Empty room (iOS leaves room between shift and z).
    case gap(KeyWidth)
    /// The place of a key from the row above that reaches down over this row.
    case covered(KeyWidth)

    /// The key's id, for a key.
    public var keyID: KeyID? {
        if case .key(let id, _, _) = self { id } else { nil }
    }

    /// The item's width.
    public var width: KeyWidth {
        switch self {
        case .key(_, let width, _), .gap(let width), .covered(let width): width
        }
    }
}

/// How wide an item of a row is.
public enum KeyWidth: Hashable, Sendable {
    /// This many units (a letter key is 1).
    case units(Double)
    /// An equal share of what the row's other items leave (iOS's space bar), at least one
    /// unit.
    case fill
}
