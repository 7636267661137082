/// iOS's emoji keyboard (issue 34): the catalog once the app has read it, the pages of its
/// grid, Frequently Used, the skin tone chosen for each emoji, and the layout ABC returns to.
///
/// A part of `KeyboardSession`. Its keys are a `LayoutDefinition` named `emoji` whose layers
/// are the grid's pages (`definition`): `Layouts` shows it as any layout (the globe key
/// reaches it), `Pointers` presses its keys, the bubble shows an emoji's five tones. It
/// turns pages (a sideways drag, the mouse wheel) and remembers what is chosen.
public struct EmojiPanel: Hashable, Sendable {
    /// The layout's name, as the `layouts` setting and the trace's `keyboardLayout` line say it.
    public static let layoutName = "emoji"
    /// The grid's emoji per row and rows per page: 3 rows, as many key rows as the letters
    /// have with the category bar, so the window keeps its size.
    public static let columns = 10, rows = 3
    /// Points a finger moves sideways on the grid before its press becomes a page turn.
    public static let dragDistance = 30.0

    /// The catalog, once the app has handed it in (`nil` until the emoji keyboard is first shown).
    public private(set) var catalog: EmojiCatalog?
    /// Frequently Used.
    public private(set) var recents: EmojiRecents
    /// The variant chosen for each emoji with skin tones (by its base), shown in its place.
    public private(set) var tones: [String: String] = [:]
    /// The layout ABC goes back to: the one shown before the emoji keyboard.
    public private(set) var returnLayout: String?
    /// Whether that layout is a kana pad: ABC reads あいう then, as on iOS.
    public private(set) var returnsToKana = false
    /// The keys shown: the grid's pages as layers (Frequently Used first, as it was when the
    /// keyboard opened), the category bar under each.
    public private(set) var definition: LayoutDefinition { didSet { if definition != oldValue { revision &+= 1 } } }
    /// Counts changes of what is drawn.
    public private(set) var revision = 0
    /// Where each finger on an emoji key went down (a drag sideways turns the page).
    private var dragStarts: [PointerID: Point] = [:]
    /// Frequently Used as the grid shows it (taken when the keyboard opens, as iOS does).
    private var recentsShown: [String]

    /// A panel with no catalog yet and the saved Frequently Used.
    public init(recents: [String] = []) {
        self.recents = EmojiRecents(recents)
        recentsShown = self.recents.emoji
        definition = Self.definition(catalog: EmojiCatalog([]), recents: [], tones: [:])
    }

    /// The layout the globe key's list holds for `emoji` before the catalog is read: the
    /// category bar over empty pages.
    public static let placeholder = definition(catalog: EmojiCatalog([]), recents: [], tones: [:])

    /// Whether the catalog is there to show.
    public var isLoaded: Bool { catalog != nil }

    /// The catalog arrived (the app read the data file).
    public mutating func load(_ catalog: EmojiCatalog) {
        self.catalog = catalog
        rebuild()
    }

    /// The emoji keyboard opens, coming from the layout named `from` (a kana pad: `kana`):
    /// Frequently Used is shown as it is now.
    public mutating func opened(from: String, kana: Bool = false) {
        returnLayout = from
        returnsToKana = kana
        recentsShown = recents.emoji
        dragStarts = [:]
        rebuild()
    }

    /// `text` was typed from the emoji keyboard (a key or a tone from the bubble). Unless the
    /// field is secure it goes first in Frequently Used; a skin tone is remembered for its
    /// emoji. Returns the effect saving Frequently Used, when it changed.
    public mutating func chose(_ text: String, secure: Bool) -> [KeyboardEffect] {
        guard !secure else { return [] }
        if let entry = catalog?.entry(of: text), !entry.tones.isEmpty {
            tones[entry.text] = text
            rebuild()
        }
        return recents.chose(text) ? [.emojiRecentsChanged(recents.emoji)] : []
    }

    /// A finger (or the mouse) went down on the grid at `point`, or on something else (`nil`).
    public mutating func pressed(_ pointer: PointerID, at point: Point?) { dragStarts[pointer] = point }

    /// `pointer` moved to `point`: the pages to turn when it went far enough sideways since it
    /// went down (+1 dragged left: the next page; -1 the previous), else 0. A drag turns once.
    public mutating func dragged(_ pointer: PointerID, to point: Point) -> Int {
        guard let start = dragStarts[pointer] else { return 0 }
        let dx = point.x - start.x, dy = point.y - start.y
        guard abs(dx) >= Self.dragDistance, abs(dx) > abs(dy) else { return 0 }
        dragStarts[pointer] = nil
        return dx < 0 ? 1 : -1
    }

    /// The layer `steps` pages after `layer` (before it when negative), within the pages; `nil`
    /// when that is `layer` itself.
    public func page(_ steps: Int, after layer: String) -> String? {
        let names = definition.layers.map(\.name)
        guard let at = names.firstIndex(of: layer) else { return nil }
        let next = min(max(at + steps, 0), names.count - 1)
        return next == at ? nil : names[next]
    }

    /// The category of the page named `layer`.
    public static func category(of layer: String) -> EmojiCategory? {
        EmojiCategory(rawValue: String(layer.prefix { $0 != "." }))
    }

    private mutating func rebuild() {
        definition = Self.definition(catalog: catalog ?? EmojiCatalog([]), recents: recentsShown, tones: tones,
                                     abcLabel: returnsToKana ? "あいう" : "ABC")
    }
}
