/// Which key or host control a point is on.
extension KeyboardLayout {
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
        if key == .hee {
            let pad = Self.heePadding * heeScale
            return rect.insetBy(dx: -pad, dy: -pad)
        }
        // Half the gap, plus a hair so that rounding cannot leave a seam between two
        // neighbours' areas (where they overlap, the nearer centre wins).
        let hair = 1e-6
        return rect.insetBy(dx: -(Self.keyGap / 2 + hair), dy: -(Self.rowGap / 2 + hair))
    }

    private func hypot2(_ a: Point, _ b: Point) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }
}
