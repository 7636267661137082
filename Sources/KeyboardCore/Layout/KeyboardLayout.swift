/// Where everything is, in window points, for one window size: the host screen on top and
/// the keyboard (shown) along the bottom edge, like an iPhone with a custom keyboard open —
/// or, in system mode, only the keyboard, filling the window below one line that names the
/// window the keys go to.
///
/// The layout is a pure function of the window size (and mode), so a resize reflows it and
/// tests can check geometry for any size. The keyboard spans the window's width; the へぇ
/// button is seed 000's 170 × 180 pt frame (plus its 4 pt padding) scaled uniformly by
/// `heeScale`.
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

    /// Height of a key row and the gaps around keys.
    public static let keyHeight = 40.0
    public static let keyGap = 6.0
    public static let rowGap = 8.0
    public static let keyboardSideMargin = 3.0
    public static let keyboardTopPadding = 8.0
    public static let heeToRowsGap = 4.0
    public static let keyboardBottomPadding = 6.0
    /// Shift and backspace are this many letter keys wide.
    public static let modifierKeyWidthFactor = 1.35

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
    /// System mode's default window size (points): the keyboard at the へぇ button's seed 000
    /// size, 480 × 418.
    public static var defaultSystemWindowSize: Size {
        Size(width: referenceWidth, height: targetLineHeight + keyboardFixedHeight + heeAreaDesignHeight)
    }

    /// The keyboard's height apart from the へぇ area.
    static var keyboardFixedHeight: Double {
        keyboardTopPadding + heeToRowsGap + 4 * keyHeight + 3 * rowGap + keyboardBottomPadding
    }

    /// The host screen's height: title plus the four list rows.
    public static var hostMinimumHeight: Double { listTop + Double(rowCount) * rowHeight + hostBottomPadding }
    /// Rows in the host screen's list.
    public static let rowCount = 5
    /// The navigation bar's reset button's width.
    public static let resetButtonWidth = 96.0
    /// The volume buttons' width.
    public static let volumeButtonWidth = 44.0

    /// The padded へぇ area's height at scale 1 (180 + 2 × 4 pt).
    static var heeAreaDesignHeight: Double { heeDesignSize.height + 2 * heePadding }

    /// The smallest window in which nothing overlaps: host screen above a keyboard with the
    /// へぇ button at its smallest scale, and ten letter keys at least 26 pt wide.
    public static var minimumWindowSize: Size { minimumWindowSize(for: .hostScreen) }

    /// The smallest window for `mode` (system mode has the target line instead of the host
    /// screen).
    public static func minimumWindowSize(for mode: KeyboardMode) -> Size {
        let above = mode == .system ? targetLineHeight : hostMinimumHeight
        let height = above + keyboardFixedHeight + heeAreaDesignHeight * heeScaleRange.lowerBound
        return Size(width: 320, height: height.rounded(.up))
    }

    // MARK: Results

    /// The window size this layout is for (points), at least `minimumWindowSize(for: mode)`.
    public let windowSize: Size
    /// Host screen and keyboard, or (system mode) the keyboard alone.
    public let mode: KeyboardMode
    /// System mode: the line naming the window keys go to, across the top; `.zero` on the
    /// host screen.
    public let targetLine: Rect
    /// The height of the letter, shift, backspace, space and return keys: 40 pt, taller when
    /// a system-mode keyboard fills a taller window.
    public let keyHeight: Double
    /// The scale applied to the へぇ button's seed geometry.
    public let heeScale: Double
    /// The keyboard's frame when fully shown (the frame seed 001 reports).
    public let keyboardFrame: Rect
    /// The へぇ button's 170 × 180 frame after scaling (without the 4 pt padding).
    public let heeFrame: Rect
    /// Every key's drawn rectangle, keyboard shown.
    public let keys: [KeyID: Rect]
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

    /// Computes the layout for a window of `windowSize` points. Sizes below
    /// `minimumWindowSize(for: mode)` are laid out as if they were the minimum (SDL enforces
    /// it). In system mode the keyboard fills the window below `targetLine`: the へぇ button
    /// grows with the window up to `heeScaleRange`'s top, and the key rows share the height
    /// left over.
    public init(windowSize requested: Size, mode: KeyboardMode = .hostScreen) {
        let minimum = Self.minimumWindowSize(for: mode)
        let size = Size(width: max(requested.width, minimum.width),
                        height: max(requested.height, minimum.height))
        windowSize = size
        self.mode = mode
        let w = size.width
        let above = mode == .system ? Self.targetLineHeight : Self.hostMinimumHeight

        let byWidth = w / Self.referenceWidth
        let byHeight = (size.height - above - Self.keyboardFixedHeight) / Self.heeAreaDesignHeight
        let fitted = min(max(min(byWidth, byHeight), Self.heeScaleRange.lowerBound), Self.heeScaleRange.upperBound)
        // Rounded so the へぇ area, and with it the keyboard's height, is a whole number of
        // points (the size readout shows "(400.0, 316.0)", not a long fraction).
        let scale = max((fitted * Self.heeAreaDesignHeight).rounded(.down), 1) / Self.heeAreaDesignHeight
        heeScale = scale

        let keyboardHeight: Double
        if mode == .system {
            keyboardHeight = size.height - above
            targetLine = Rect(x: 0, y: 0, width: w, height: Self.targetLineHeight)
            let rows = keyboardHeight - (Self.keyboardFixedHeight - 4 * Self.keyHeight) - Self.heeAreaDesignHeight * scale
            keyHeight = max(Self.keyHeight, (rows / 4).rounded(.down))
        } else {
            keyboardHeight = Self.keyboardFixedHeight + Self.heeAreaDesignHeight * scale
            targetLine = .zero
            keyHeight = Self.keyHeight
        }
        let keyHeight = self.keyHeight
        let keyboardY = size.height - keyboardHeight
        keyboardFrame = Rect(x: 0, y: keyboardY, width: w, height: keyboardHeight)

        let heeWidth = Self.heeDesignSize.width * scale
        heeFrame = Rect(x: (w - heeWidth) / 2,
                        y: keyboardY + Self.keyboardTopPadding + Self.heePadding * scale,
                        width: heeWidth,
                        height: Self.heeDesignSize.height * scale)

        var keys: [KeyID: Rect] = [.hee: heeFrame]
        let margin = Self.keyboardSideMargin, gap = Self.keyGap
        let keyWidth = (w - 2 * margin - 9 * gap) / 10
        let rowsTop = keyboardY + Self.keyboardTopPadding + Self.heeAreaDesignHeight * scale + Self.heeToRowsGap
        func rowY(_ row: Int) -> Double { rowsTop + Double(row) * (keyHeight + Self.rowGap) }
        func rowStart(_ count: Int) -> Double {
            (w - (Double(count) * keyWidth + Double(count - 1) * gap)) / 2
        }
        for (row, letters) in KeyID.letterRows.enumerated() {
            let x0 = rowStart(letters.count)
            for (i, letter) in letters.enumerated() {
                keys[.letter(letter)] = Rect(x: x0 + Double(i) * (keyWidth + gap), y: rowY(row),
                                             width: keyWidth, height: keyHeight)
            }
        }
        let modifierWidth = keyWidth * Self.modifierKeyWidthFactor
        keys[.shift] = Rect(x: margin, y: rowY(2), width: modifierWidth, height: keyHeight)
        keys[.backspace] = Rect(x: w - margin - modifierWidth, y: rowY(2),
                                width: modifierWidth, height: keyHeight)
        let bottomLetters = KeyID.letterRows[2].count
        let space = Rect(x: rowStart(bottomLetters), y: rowY(3),
                         width: Double(bottomLetters) * keyWidth + Double(bottomLetters - 1) * gap,
                         height: keyHeight)
        keys[.space] = space
        if mode == .system {
            // iOS's return key: from the space bar's right end to the keyboard's edge.
            keys[.return] = Rect(x: space.maxX + gap, y: space.y, width: w - margin - space.maxX - gap, height: keyHeight)
        }
        self.keys = keys

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

    /// The host screen's keys in a stable order: へぇ, shift, backspace, space, then a–z.
    public static let keyOrder: [KeyID] =
        [.hee, .shift, .backspace, .space] + "abcdefghijklmnopqrstuvwxyz".map { KeyID.letter($0) }

    /// This layout's keys in a stable order: `keyOrder`, with return after space in system
    /// mode.
    public var orderedKeys: [KeyID] {
        mode == .system ? Array(Self.keyOrder[..<4]) + [.return] + Self.keyOrder[4...] : Self.keyOrder
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

    /// The key at `point` (window points) when the keyboard is shown and moved down by
    /// `keyboardOffset` points (during its slide). A key's touch area reaches half-way into
    /// the gaps around it, as on iOS, so a tap between two keys still hits the nearer one;
    /// the へぇ button's area includes its 4 pt padding (seed 000 attaches the gesture after
    /// `.padding(4)`).
    public func key(at point: Point, keyboardOffset: Double = 0) -> KeyID? {
        let p = Point(x: point.x, y: point.y - keyboardOffset)
        guard keyboardFrame.contains(p) else { return nil }
        var best: (key: KeyID, distance: Double)?
        for key in orderedKeys {
            guard let rect = keys[key] else { continue }
            let area = touchArea(of: key, rect: rect)
            guard area.contains(p) else { continue }
            // Exact hits win; among expanded hits the nearest centre wins.
            let d = rect.contains(p) ? -1 : hypot2(p, rect.center)
            if best == nil || d < best!.distance { best = (key, d) }
        }
        return best?.key
    }

    /// The host control at `point`, if any (never in system mode).
    public func hostControl(at point: Point) -> HostControl? {
        guard mode == .hostScreen else { return nil }
        return HostControl.allCases.first { frame(of: $0).contains(point) }
    }

    private func touchArea(of key: KeyID, rect: Rect) -> Rect {
        switch key {
        case .hee:
            let pad = Self.heePadding * heeScale
            return rect.insetBy(dx: -pad, dy: -pad)
        default:
            // Half the gap, plus a hair so that rounding cannot leave a seam between two
            // neighbours' areas (where they overlap, the nearer centre wins).
            let hair = 1e-6
            return rect.insetBy(dx: -(Self.keyGap / 2 + hair), dy: -(Self.rowGap / 2 + hair))
        }
    }

    private func hypot2(_ a: Point, _ b: Point) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }
}
