/// The kana pad's candidate bar as drawn and touched: a strip across the top of the keyboard
/// (`KeyboardLayout.candidateBar`) holding the conversions of the composition in cells, left
/// to right, as iOS's bar above its keys does.
///
/// The candidates that do not fit are on further pages: the bar shows the page with the
/// candidate chosen by 次候補 (the first page when none is chosen), so stepping through them
/// turns the pages. Cells are as wide as their text at `pointSize`, estimated without a font
/// (the core draws nothing): a CJK character is one em, anything else 0.6 em — the renderer
/// draws each text centred in its cell and shrinks what would not fit.
public struct CandidateBar: Hashable, Sendable {
    /// One candidate shown: its index in the composition's candidates, text and cell (window
    /// points).
    public struct Cell: Hashable, Sendable {
        public var index: Int
        public var text: String
        public var frame: Rect

        public init(index: Int, text: String, frame: Rect) {
            self.index = index
            self.text = text
            self.frame = frame
        }
    }

    /// The candidates' text size in points (iOS's bar: about 18 pt).
    public static let pointSize = 18.0
    /// Room left and right of a candidate's text inside its cell (points).
    public static let cellPadding = 12.0
    /// The narrowest cell (points): a one-kana candidate is still easy to touch.
    public static let minimumCellWidth = 44.0

    /// The bar's rectangle (window points; `.zero` when the layout has none).
    public let frame: Rect
    /// The cells of the page shown, left to right.
    public let cells: [Cell]
    /// The chosen candidate's index (次候補), if any.
    public let selected: Int?

    /// An empty bar in `frame`.
    public init(frame: Rect = .zero) {
        self.frame = frame
        cells = []
        selected = nil
    }

    /// The bar in `frame` for `candidates`, `selected` chosen: the page that holds it.
    /// - Complexity: O(n) in the candidates' characters.
    public init(frame: Rect, candidates: [KanaCandidate], selected: Int?) {
        self.frame = frame
        self.selected = selected
        let room = frame.width - 2 * KeyboardLayout.keyboardSideMargin
        guard !candidates.isEmpty, room > 0 else {
            cells = []
            return
        }
        // Pages: as many cells as fit, each at least one.
        var pages: [[(index: Int, width: Double)]] = [[]]
        var used = 0.0
        for (index, candidate) in candidates.enumerated() {
            let width = min(max(Self.estimatedWidth(of: candidate.text) + 2 * Self.cellPadding, Self.minimumCellWidth), room)
            if used + width > room + 1e-9, !pages[pages.count - 1].isEmpty {
                pages.append([])
                used = 0
            }
            pages[pages.count - 1].append((index, width))
            used += width
        }
        let page = pages.first { $0.contains { $0.index == selected } } ?? pages[0]
        var x = frame.minX + KeyboardLayout.keyboardSideMargin
        cells = page.map { entry in
            defer { x += entry.width }
            return Cell(index: entry.index, text: candidates[entry.index].text,
                        frame: Rect(x: x, y: frame.minY, width: entry.width, height: frame.height))
        }
    }

    /// The candidate (its index) whose cell holds `point`, if any.
    public func candidate(at point: Point) -> Int? {
        cells.first { $0.frame.contains(point) }?.index
    }

    /// `text`'s width at `pointSize` as the bar estimates it: one em per wide (CJK, kana,
    /// full-width) character, 0.6 em per other character.
    public static func estimatedWidth(of text: String) -> Double {
        text.reduce(0.0) { sum, character in
            sum + (isWide(character) ? 1 : 0.6) * pointSize
        }
    }

    /// Whether `character` is drawn full-width: East Asian Wide or Fullwidth (the kana, CJK
    /// ideographs, CJK punctuation, full-width forms, Hangul).
    static func isWide(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        switch scalar {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
