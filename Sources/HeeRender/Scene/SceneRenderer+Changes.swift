import KeyboardCore

/// System mode's frames drawn by their changes: the keyboard is a layer that changes only
/// with the layout, scale, faces, slide and target line (`SystemFrame.Base`), under items
/// (`SceneItem`: the pressed keys, the へぇ button, callouts, the bubble) each with what it
/// looks like. A frame redraws only the rectangles where an item appeared, went or changed
/// its look, each rectangle completely (background, layer, every item over it) and clipped
/// to it, so its pixels are exactly the full frame's.
///
/// Drawing the whole frame (1280 × 466 pixels, the へぇ button's blended shadows) took about
/// 1.1 ms here and its copy into the compositor's buffer another 0.45 ms, on the path of
/// the next press; a letter's press now redraws its key and callout.
extension SceneRenderer {
    /// One thing drawn over the keyboard's layer.
    struct SceneItem {
        enum ID: Hashable {
            case pressedKey(KeyID), hee, callout(KeyID), bubble, candidateBar, flickGuide
        }

        let id: ID
        /// Everything its pixels depend on.
        let look: [AnyHashable]
        let draw: () throws(SDLError) -> Void

        init(_ id: ID, look: [AnyHashable], draw: @escaping () throws(SDLError) -> Void) {
            self.id = id
            self.look = look
            self.draw = draw
        }
    }

    /// What a system-mode frame showed: its base, and each item's look and the pixels it
    /// covered.
    struct SystemFrame {
        struct Base: Hashable {
            var layout: KeyboardLayout, scale: Double, faces: [KeyID: KeyFace], offset: Double, targetLine: String
            /// The kana pad's composition, shown on the target line's place.
            var composition: String?
            var width: Int, height: Int
        }

        var base: Base
        var items: [SceneItem.ID: (look: [AnyHashable], extent: PixelRect?)]
    }

    /// The most rectangles a frame redraws one by one; more are drawn as their bounding box.
    static let maximumChangedRects = 6

    /// Draws system mode's whole frame and notes what it showed.
    func drawSystemFrame(_ scene: Scene, _ s: Double) throws(SDLError) {
        let faces = scene.faces
        try renderer.clear(Palette.keyboardBackground)
        try drawTargetLine(scene, s)
        try drawKeyboardLayer(scene, s, faces)
        var items: [SceneItem.ID: (look: [AnyHashable], extent: PixelRect?)] = [:]
        for item in keyboardItems(scene, s, faces) {
            items[item.id] = (item.look, try renderer.bounds(of: item.draw))
        }
        lastSystemFrame = SystemFrame(base: try base(of: scene, s, faces), items: items)
    }

    /// Draws `scene` (system mode) into a target that still holds the last frame this
    /// renderer drew, redrawing only what changed. Any other scene, or one whose base
    /// changed, is drawn whole.
    /// - Parameter pixelScale: pixels per point (renderer output size ÷ window size).
    /// - Returns: the rectangles (pixels) redrawn, empty when nothing changed; `nil` when the
    ///   whole frame was drawn.
    /// - Throws: `SDLError` when a drawing call fails.
    public func drawChanges(_ scene: Scene, pixelScale s: Double) throws(SDLError) -> [PixelRect]? {
        let faces = scene.faces
        guard scene.layout.mode == .system, let last = lastSystemFrame, try base(of: scene, s, faces) == last.base else {
            try draw(scene, pixelScale: s)
            return nil
        }
        let items = keyboardItems(scene, s, faces)
        var shown = last.items
        var changed: [PixelRect] = []
        var present = Set<SceneItem.ID>()
        for item in items {
            present.insert(item.id)
            if let old = last.items[item.id], old.look == item.look { continue }
            if let extent = last.items[item.id]?.extent { changed.append(extent) }
            let extent = try renderer.bounds(of: item.draw, dryRun: true)
            if let extent { changed.append(extent) }
            shown[item.id] = (item.look, extent)
        }
        for (id, old) in last.items where !present.contains(id) {
            if let extent = old.extent { changed.append(extent) }
            shown[id] = nil
        }
        let output = PixelRect(x: 0, y: 0, width: last.base.width, height: last.base.height)
        let rects = Self.merged(changed.map { $0.intersection(output) }.filter { !$0.isEmpty })
        for rect in rects {
            try renderer.clipping(to: rect) { () throws(SDLError) in
                try renderer.fill(rect, Palette.keyboardBackground)
                if rect.intersects(px(scene.layout.targetLine, s)) { try drawTargetLine(scene, s) }
                try drawKeyboardLayer(scene, s, faces)
                for item in items where shown[item.id]?.extent?.intersects(rect) == true { try item.draw() }
            }
        }
        lastSystemFrame = SystemFrame(base: last.base, items: shown)
        return rects
    }

    /// The frame's base: what the layer and target line depend on, and the target's size.
    private func base(of scene: Scene, _ s: Double, _ faces: [KeyID: KeyFace]) throws(SDLError) -> SystemFrame.Base {
        let (w, h) = try renderer.outputSize()
        return SystemFrame.Base(layout: scene.layout, scale: s, faces: faces, offset: scene.keyboardOffset,
                                targetLine: scene.targetLine, composition: scene.kanaComposition, width: w, height: h)
    }

    /// `rects` with overlapping ones joined (a pixel is drawn once), at most
    /// `maximumChangedRects` of them.
    static func merged(_ rects: [PixelRect]) -> [PixelRect] {
        var result: [PixelRect] = []
        for rect in rects {
            var joined = rect
            var i = 0
            while i < result.count {
                if result[i].intersects(joined) {
                    joined = joined.union(result.remove(at: i))
                    i = 0
                } else {
                    i += 1
                }
            }
            result.append(joined)
        }
        if result.count > maximumChangedRects { return [result.dropFirst().reduce(result[0]) { $0.union($1) }] }
        return result
    }

    /// What is drawn over the keyboard's layer, in order: the pressed keys, the へぇ button,
    /// the callouts (last: they rise above the row and may cover the へぇ button, as on iOS;
    /// a key whose alternates bubble is open shows the bubble instead), the bubble, the kana
    /// pad's candidate bar and its flick guide.
    func keyboardItems(_ scene: Scene, _ s: Double, _ faces: [KeyID: KeyFace]) -> [SceneItem] {
        let layout = scene.layout
        let dy = scene.keyboardOffset
        var items: [SceneItem] = []
        for key in layout.orderedKeys where key != .hee && scene.pressedKeys.contains(key) {
            guard let rect = layout.keys[key], let face = faces[key] else { continue }
            let r = px(rect.offsetBy(dy: dy), s)
            items.append(SceneItem(.pressedKey(key), look: [AnyHashable(face), AnyHashable(r), AnyHashable(s)]) { () throws(SDLError) in
                try self.keys.draw(face, in: r, s: s, pressed: true)
            })
        }
        let frame = layout.heeFrame.offsetBy(dy: dy)
        let origin = (frame.x * s, frame.y * s), k = layout.heeScale * s
        let heeLook: [AnyHashable] = [origin.0, origin.1, k, scene.capPress, scene.counterText, scene.isCounterFull]
        items.append(SceneItem(.hee, look: heeLook) { () throws(SDLError) in
            try self.hee.draw(origin: origin, pixelsPerPoint: k, capPress: scene.capPress, counterText: scene.counterText,
                              isFull: scene.isCounterFull)
        })
        let bounds = px(layout.keyboardFrame.offsetBy(dy: dy), s)
        for key in scene.pressedKeys.sorted() where key != scene.bubble?.key {
            guard let rect = layout.keys[key], let callout = faces[key]?.callout else { continue }
            let r = px(rect.offsetBy(dy: dy), s)
            items.append(SceneItem(.callout(key), look: [AnyHashable(callout), AnyHashable(r), AnyHashable(bounds), AnyHashable(s)])
                         { () throws(SDLError) in
                try self.keys.drawCallout(callout, key: r, bounds: bounds, s: s)
            })
        }
        if let bubble = scene.bubble, let rect = layout.keys[bubble.key] {
            let r = px(rect.offsetBy(dy: dy), s)
            items.append(SceneItem(.bubble, look: [AnyHashable(bubble), AnyHashable(r), AnyHashable(dy), AnyHashable(s)])
                         { () throws(SDLError) in
                try self.bubbles.draw(bubble, key: r, s: s) { self.px($0.offsetBy(dy: dy), s) }
            })
        }
        if scene.hasKanaPad {
            let bar = scene.candidateBar
            items.append(SceneItem(.candidateBar, look: [AnyHashable(bar), AnyHashable(dy), AnyHashable(s)]) { () throws(SDLError) in
                try self.kana.drawCandidateBar(bar, s: s) { self.px($0.offsetBy(dy: dy), s) }
            })
        }
        if let held = scene.flickGuide, let rect = layout.keys[held.key] {
            let r = px(rect.offsetBy(dy: dy), s)
            items.append(SceneItem(.flickGuide, look: [AnyHashable(held), AnyHashable(r), AnyHashable(bounds), AnyHashable(s)])
                         { () throws(SDLError) in
                try self.kana.drawGuide(held.guide, key: r, bounds: bounds, s: s)
            })
        }
        return items
    }

}
