/// Where everything is, in window points, for one window size and one layer of a layout:
/// the host screen on top and the keyboard (shown) along the bottom edge, like an iPhone with
/// a custom keyboard open — or, in system mode, only the keyboard, filling the window below
/// one line that names the window the keys go to.
///
/// The layout is a pure function of the window size, the mode, the layout definition and the
/// layer shown, so a resize or a layer switch reflows it and tests can check geometry for any
/// size. The keyboard spans the window's width; the へぇ button is seed 000's 170 × 180 pt
/// frame (plus its 4 pt padding) scaled uniformly by `heeScale`, in the row the layer gives
/// it.
public struct KeyboardLayout: Hashable, Sendable {
    // MARK: Metrics (points). Seed values are marked; the rest follow iOS's system keyboard.

    /// Seed 000: the へぇ button's frame, `.frame(width: 170, height: 180)`.
    public static let heeDesignSize = Size(width: 170, height: 180)
    /// Seed 000: `.padding(4)` around the button.
    public static let heePadding = 4.0
    /// The window width at which the へぇ button is drawn at its seed size (scale 1).
    public static let referenceWidth = 480.0
    /// The smallest and largest scale of the へぇ button.
    public static let heeScaleRange = 0.5...1.25
    /// The へぇ button's scale in the phone dock (Phosh, issue 31): seed 000's shape whole,
    /// 27 × 29 pt, in a 30 pt strip above the letters, so the keyboard is about 30 % of a
    /// 360 × 720 pt portrait screen (232 pt; squeekboard's is 210).
    public static let dockHeeScale = 0.16

    /// Height of a key row and the gaps around keys.
    public static let keyHeight = 40.0
    public static let keyGap = 6.0
    public static let rowGap = 8.0
    public static let keyboardSideMargin = 3.0
    public static let keyboardTopPadding = 8.0
    /// The gap between the へぇ button's row and a row of keys.
    public static let heeToRowsGap = 4.0
    public static let keyboardBottomPadding = 6.0

    /// Host screen: large navigation title with a trailing "reset count" button (as an iOS
    /// navigation bar's item), then a grouped list of five 44 pt rows (text field, status,
    /// size, close keyboard, volume).
    public static let titleTop = 12.0
    public static let titleHeight = 44.0
    public static let listTop = 68.0
    public static let listInset = 16.0
    public static let rowHeight = 44.0
    public static let hostBottomPadding = 8.0

    /// The default window size (points).
    public static let defaultWindowSize = Size(width: 480, height: 800)

    /// System mode: the height of the line above the keyboard that names the window keys go
    /// to (points).
    public static let targetLineHeight = 28.0
    /// The key rows of the built-in `en` layout (four, under the へぇ button).
    public static let standardKeyRows = 4
    /// The key rows system mode shows by default: the built-in layout's four and the desktop
    /// row.
    public static let systemKeyRows = standardKeyRows + 1
    /// System mode's default window size (points): the keyboard of `keyRows` rows (and the
    /// kana pad's candidate bar when `candidateBar`) at the へぇ button's seed 000 size (480 ×
    /// 466 for five rows, 480 × 418 for four).
    /// `phoneDock`: the phone dock's (no target line, the へぇ button at `dockHeeScale`: 480 × 232
    /// for four rows, as wide as the output once docked).
    public static func defaultSystemWindowSize(keyRows: Int = systemKeyRows, candidateBar: Bool = false,
                                               phoneDock: Bool = false) -> Size {
        if phoneDock {
            return Size(width: referenceWidth,
                        height: keyboardFixedHeight(keyRows: keyRows, candidateBar: candidateBar) + dockHeeArea)
        }
        return Size(width: referenceWidth,
                    height: targetLineHeight + keyboardFixedHeight(keyRows: keyRows, candidateBar: candidateBar) + heeAreaDesignHeight)
    }

    /// The phone dock's へぇ area: the padded button at `dockHeeScale`, whole points (30).
    static var dockHeeArea: Double { (heeAreaDesignHeight * dockHeeScale).rounded(.down) }

    /// The height of the kana pad's candidate bar, across the top of its keyboard (points; iOS's
    /// bar above the keys).
    public static let candidateBarHeight = 40.0

    /// The keyboard's height apart from the へぇ area, for `keyRows` rows of keys under it and,
    /// when `candidateBar`, the kana pad's candidate bar above it.
    static func keyboardFixedHeight(keyRows: Int, candidateBar: Bool = false) -> Double {
        (candidateBar ? candidateBarHeight : 0) + keyboardTopPadding + heeToRowsGap + Double(keyRows) * keyHeight
            + Double(max(keyRows - 1, 0)) * rowGap + keyboardBottomPadding
    }

    /// The host screen's height: title plus the list rows.
    public static var hostMinimumHeight: Double { listTop + Double(rowCount) * rowHeight + hostBottomPadding }
    /// Rows in the host screen's list.
    public static let rowCount = 5
    /// The navigation bar's reset button's width.
    public static let resetButtonWidth = 96.0
    /// The volume buttons' width.
    public static let volumeButtonWidth = 44.0

    /// The padded へぇ area's height at scale 1 (180 + 2 × 4 pt).
    static var heeAreaDesignHeight: Double { heeDesignSize.height + 2 * heePadding }

    /// The smallest host-screen window for the built-in layout.
    public static var minimumWindowSize: Size { minimumWindowSize(for: .hostScreen) }

    /// The smallest window for `mode` in which nothing overlaps: the host screen (or system
    /// mode's target line) above a keyboard of `keyRows` rows (by default the built-in
    /// layout's, with the desktop row in system mode) with the へぇ button at its smallest
    /// scale, 320 pt wide; `candidateBar`: with the kana pad's candidate bar.
    /// `phoneDock` (system mode on Phosh): no target line, the へぇ button at `dockHeeScale`.
    public static func minimumWindowSize(for mode: KeyboardMode, keyRows: Int? = nil, candidateBar: Bool = false,
                                         phoneDock: Bool = false) -> Size {
        let keyRows = keyRows ?? (mode == .system ? systemKeyRows : standardKeyRows)
        let docked = phoneDock && mode == .system
        let above = mode == .system ? (docked ? 0 : targetLineHeight) : hostMinimumHeight
        let height = above + keyboardFixedHeight(keyRows: keyRows, candidateBar: candidateBar)
            + (docked ? dockHeeArea : heeAreaDesignHeight * heeScaleRange.lowerBound)
        return Size(width: 320, height: height.rounded(.up))
    }

    /// The smallest window in which every one of `definitions` fits (the layouts the globe key
    /// switches between: the window does not change size when it switches).
    public static func minimumWindowSize(for mode: KeyboardMode, definitions: [LayoutDefinition], desktopKeys: Bool,
                                         phoneDock: Bool = false) -> Size {
        let keyRows = definitions.map { Self.keyRows(of: $0, desktopKeys: desktopKeys) }.max()
        return minimumWindowSize(for: mode, keyRows: keyRows, candidateBar: definitions.contains(where: \.hasKanaPad),
                                 phoneDock: phoneDock)
    }

    // MARK: Results

    /// The window size this layout is for (points), at least `minimumWindowSize(for: mode)`.
    public let windowSize: Size
    /// Host screen and keyboard, or (system mode) the keyboard alone.
    public let mode: KeyboardMode
    /// The layout definition's name and the layer laid out.
    public let layoutName: String
    public let layerName: String
    /// Whether the desktop row is shown under the へぇ button.
    public let showsDesktopRow: Bool
    /// The kana pad's candidate bar across the top of the keyboard (keyboard shown), or
    /// `.zero` for a layout without a kana pad.
    public let candidateBar: Rect
    /// System mode: the line naming the window keys go to, across the top; `.zero` on the
    /// host screen.
    public let targetLine: Rect
    /// The height of a row of keys: 40 pt, taller when a system-mode keyboard fills a taller
    /// window or when this layer has fewer rows than the layout's tallest.
    public let keyHeight: Double
    /// A unit across a row: the width of a letter key (points).
    public let unitWidth: Double
    /// The scale applied to the へぇ button's seed geometry.
    public let heeScale: Double
    /// The keyboard's frame when fully shown (the frame seed 001 reports).
    public let keyboardFrame: Rect
    /// The へぇ button's 170 × 180 frame after scaling (without the 4 pt padding).
    public let heeFrame: Rect
    /// Every key's drawn rectangle, keyboard shown.
    public let keys: [KeyID: Rect]
    /// The layer's keys in reading order (the へぇ button where its row is).
    public let orderedKeys: [KeyID]
    /// Host-screen rectangles.
    public let titleFrame: Rect
    public let listFrame: Rect
    public let textField: Rect
    public let statusRow: Rect
    public let sizeRow: Rect
    public let closeKeyboard: Rect
    public let volumeRow: Rect
    /// The volume row's − and ＋ buttons, at its right end.
    public let volumeDown: Rect
    public let volumeUp: Rect
    public let resetCount: Rect

    /// Computes the layout of `layer` (by name; the definition's first layer when it has none
    /// of that name) of `definition` for a window of `windowSize` points, with the desktop
    /// row under the へぇ button when `desktopKeys` is set (by default in system mode only). Sizes below the
    /// minimum for the definition's rows are laid out as if they were the minimum (SDL
    /// enforces it). In system mode the keyboard fills the window below `targetLine`: the へぇ
    /// button grows with the window up to `heeScaleRange`'s top, and the key rows share the
    /// height left over.
    /// `phoneDock` (system mode on Phosh, issue 31): no target line, and the へぇ button stays at
    /// `dockHeeScale` in its strip above the letters, the key rows sharing the rest.
    public init(windowSize requested: Size, mode: KeyboardMode = .hostScreen,
                definition: LayoutDefinition = .english, layer: String? = nil, desktopKeys: Bool? = nil,
                phoneDock: Bool = false) {
        let docked = phoneDock && mode == .system
        let desktopKeys = desktopKeys ?? (mode == .system)
        let shown = layer.flatMap { definition.layer(named: $0) } ?? definition.firstLayer
        let keyRows = Self.keyRows(of: definition, desktopKeys: desktopKeys)
        let hasBar = definition.hasKanaPad
        let barHeight = hasBar ? Self.candidateBarHeight : 0
        let minimum = Self.minimumWindowSize(for: mode, keyRows: keyRows, candidateBar: hasBar, phoneDock: docked)
        let size = Size(width: max(requested.width, minimum.width), height: max(requested.height, minimum.height))
        windowSize = size
        self.mode = mode
        layoutName = definition.name
        layerName = shown.name
        showsDesktopRow = desktopKeys && !definition.desktopRow.isEmpty
        let w = size.width
        let above = mode == .system ? (docked ? 0 : Self.targetLineHeight) : Self.hostMinimumHeight
        let fixed = Self.keyboardFixedHeight(keyRows: keyRows, candidateBar: hasBar)

        let byWidth = w / Self.referenceWidth
        let byHeight = (size.height - above - fixed) / Self.heeAreaDesignHeight
        let fitted = docked ? Self.dockHeeScale
            : min(max(min(byWidth, byHeight), Self.heeScaleRange.lowerBound), Self.heeScaleRange.upperBound)
        // Rounded so the へぇ area, and with it the keyboard's height, is a whole number of
        // points (the size readout shows "(400.0, 316.0)", not a long fraction).
        let scale = max((fitted * Self.heeAreaDesignHeight).rounded(.down), 1) / Self.heeAreaDesignHeight
        heeScale = scale
        let heeArea = Self.heeAreaDesignHeight * scale

        let keyboardHeight = mode == .system ? size.height - above : fixed + heeArea
        targetLine = mode == .system && !docked ? Rect(x: 0, y: 0, width: w, height: Self.targetLineHeight) : .zero
        let keyboardY = size.height - keyboardHeight
        keyboardFrame = Rect(x: 0, y: keyboardY, width: w, height: keyboardHeight)
        candidateBar = hasBar ? Rect(x: 0, y: keyboardY, width: w, height: barHeight) : .zero

        let placed = Self.place(definition.rows(of: shown, desktopKeys: desktopKeys), width: w, columns: definition.columns,
                                top: keyboardY + barHeight, height: keyboardHeight - barHeight, heeArea: heeArea, scale: scale)
        keyHeight = placed.keyHeight
        unitWidth = placed.unit
        keys = placed.keys
        orderedKeys = placed.order
        heeFrame = placed.keys[.hee] ?? .zero

        guard mode == .hostScreen else {
            // No host screen: its controls are nowhere.
            (titleFrame, listFrame, textField, statusRow, sizeRow) = (.zero, .zero, .zero, .zero, .zero)
            (closeKeyboard, volumeRow, volumeUp, volumeDown, resetCount) = (.zero, .zero, .zero, .zero, .zero)
            return
        }
        titleFrame = Rect(x: 20, y: Self.titleTop, width: w - 40 - Self.resetButtonWidth, height: Self.titleHeight)
        let list = Rect(x: Self.listInset, y: Self.listTop, width: w - 2 * Self.listInset,
                        height: Double(Self.rowCount) * Self.rowHeight)
        listFrame = list
        func row(_ i: Int) -> Rect {
            Rect(x: list.x, y: list.y + Double(i) * Self.rowHeight, width: list.width, height: Self.rowHeight)
        }
        textField = row(0)
        statusRow = row(1)
        sizeRow = row(2)
        closeKeyboard = row(3)
        volumeRow = row(4)
        volumeUp = Rect(x: volumeRow.maxX - Self.volumeButtonWidth, y: volumeRow.y,
                        width: Self.volumeButtonWidth, height: Self.rowHeight)
        volumeDown = volumeUp.offsetBy(dx: -Self.volumeButtonWidth)
        resetCount = Rect(x: w - Self.listInset - Self.resetButtonWidth, y: Self.titleTop,
                          width: Self.resetButtonWidth, height: Self.titleHeight)
    }

    /// The rows of keys of `definition`'s tallest layer, with the desktop row when
    /// `desktopKeys` is set: what the keyboard's height and the window's minimum are made for.
    public static func keyRows(of definition: LayoutDefinition, desktopKeys: Bool) -> Int {
        definition.layers.map { keyRowCount(definition.rows(of: $0, desktopKeys: desktopKeys)) }.max() ?? standardKeyRows
    }

    /// The rows of keys among `rows` (all but the へぇ button's).
    static func keyRowCount(_ rows: [[RowItem]]) -> Int {
        rows.filter { !LayerDefinition.isHeeRow($0) }.count
    }

    /// The rectangle of a host control.
    public func frame(of control: HostControl) -> Rect {
        switch control {
        case .textField: textField
        case .closeKeyboard: closeKeyboard
        case .volumeDown: volumeDown
        case .volumeUp: volumeUp
        case .resetCount: resetCount
        }
    }
}
