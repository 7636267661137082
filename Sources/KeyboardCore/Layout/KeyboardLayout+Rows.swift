/// The row engine: a layer's rows of keys, gaps and covered places turned into rectangles.
extension KeyboardLayout {
    /// Rectangles for `rows` in a keyboard `width` points wide whose frame starts at `top` and
    /// is `height` tall. Key rows share the height the へぇ row (`heeArea`), the paddings and
    /// the gaps leave (40 pt each for the layout's tallest layer in its default size).
    /// Across a row, a unit is the width of a letter key when `columns` of them fill the row
    /// with `keyGap` between them; `fill` items share what the others leave, and a row
    /// without any is centred.
    static func place(_ rows: [[RowItem]], width w: Double, columns: Double, top: Double, height: Double,
                      heeArea: Double, scale: Double) -> (keys: [KeyID: Rect], order: [KeyID], keyHeight: Double, unit: Double) {
        let margin = keyboardSideMargin, gap = keyGap
        let unit = (w - 2 * margin - (columns - 1) * gap) / columns
        let keyRows = keyRowCount(rows)
        var gaps = 0.0
        for (a, b) in zip(rows, rows.dropFirst()) {
            gaps += LayerDefinition.isHeeRow(a) || LayerDefinition.isHeeRow(b) ? heeToRowsGap : rowGap
        }
        let hasHee = rows.contains(where: LayerDefinition.isHeeRow)
        let rowsRoom = height - keyboardTopPadding - keyboardBottomPadding - (hasHee ? heeArea : 0) - gaps
        let keyHeight = keyRows > 0 ? max(Self.keyHeight, (rowsRoom / Double(keyRows)).rounded(.down)) : Self.keyHeight

        var keys: [KeyID: Rect] = [:]
        var order: [KeyID] = []
        var y = top + keyboardTopPadding
        for (r, row) in rows.enumerated() {
            if r > 0 { y += LayerDefinition.isHeeRow(rows[r - 1]) || LayerDefinition.isHeeRow(row) ? heeToRowsGap : rowGap }
            if LayerDefinition.isHeeRow(row) {
                let heeWidth = heeDesignSize.width * scale
                keys[.hee] = Rect(x: (w - heeWidth) / 2, y: y + heePadding * scale, width: heeWidth,
                                  height: heeDesignSize.height * scale)
                order.append(.hee)
                y += heeArea
                continue
            }
            let available = w - 2 * margin
            var widths = itemWidths(row, available: available, unit: unit)
            var spacing = gap
            var total = widths.reduce(0, +) + Double(row.count - 1) * gap
            if total > available {
                // More narrow keys than columns: their gaps add up past the keyboard's width
                // (validation counts units only). The row is narrowed to fit, keys and gaps
                // alike, rather than run off the keyboard's edges.
                let k = available / total
                widths = widths.map { $0 * k }
                spacing = gap * k
                total = available
            }
            var x = row.contains { $0.width == .fill } ? margin : (w - total) / 2
            for (item, itemWidth) in zip(row, widths) {
                if case .key(let id, _, let span) = item {
                    let tall = Double(span - 1) * (keyHeight + rowGap)
                    keys[id] = Rect(x: x, y: y, width: itemWidth, height: keyHeight + tall)
                    order.append(id)
                }
                x += itemWidth + spacing
            }
            y += keyHeight
        }
        return (keys, order, keyHeight, unit)
    }

    /// Each item's width in points: units times `unit`, and the room left shared by the
    /// `fill` items (a key at least one unit, a gap at least nothing).
    private static func itemWidths(_ row: [RowItem], available: Double, unit: Double) -> [Double] {
        var fixed = Double(row.count - 1) * keyGap
        var fills = 0
        for item in row {
            if case .units(let units) = item.width { fixed += units * unit } else { fills += 1 }
        }
        let share = fills > 0 ? (available - fixed) / Double(fills) : 0
        return row.map { item in
            switch (item, item.width) {
            case (_, .units(let units)): units * unit
            case (.gap, .fill): max(share, 0)
            default: max(share, unit)
            }
        }
    }
}
