import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Issue 6: the host screen in Japanese (seed 001) and English, the 「満へぇ」 label at the
    /// show's limit, and the app icon.
    @Suite struct Languages {
        let harness: RenderHarness
        init() throws { harness = try RenderHarness() }

        /// The pixels inside `rect` (points; the harness draws at 1 pixel per point).
        func pixels(_ rect: Rect) -> [RGBA8] {
            var result: [RGBA8] = []
            for y in max(Int(rect.minY), 0)..<min(Int(rect.maxY), harness.surface.height) {
                for x in max(Int(rect.minX), 0)..<min(Int(rect.maxX), harness.surface.width) {
                    result.append(harness.surface.pixel(x: x, y: y))
                }
            }
            return result
        }

        /// Renders `session` at 1 s in `language`; returns the scene.
        @discardableResult
        func render(_ session: KeyboardSession, _ language: Language) throws -> Scene {
            let scene = Scene(session: session, at: .seconds(1), language: language)
            try harness.render(scene)
            return scene
        }

        /// Horizontal extent of non-white ink in `rect` (points), or `nil` when it is blank.
        func inkExtent(_ rect: Rect) -> (minX: Int, maxX: Int)? {
            var lo = Int.max, hi = Int.min
            for y in Int(rect.minY) + 1..<Int(rect.maxY) - 1 {
                for x in Int(rect.minX)..<Int(rect.maxX) where distance(harness.surface.pixel(x: x, y: y), Palette.row.rgba8) > 24 {
                    lo = min(lo, x)
                    hi = max(hi, x)
                }
            }
            return lo <= hi ? (lo, hi) : nil
        }

        @Test func stringsFollowTheLanguage() {
            let session = RenderHarness.launchedSession()
            let ja = Scene(session: session, at: .seconds(1), language: .ja)
            let en = Scene(session: session, at: .seconds(1), language: .en)
            #expect(ja.statusText == "開いている" && en.statusText == "Shown")
            #expect(ja.strings.title == "キーボード監視" && en.strings.title == "Keyboard Monitor")
            #expect(ja.strings.statusLabel == "状態" && en.strings.statusLabel == "Status")
            #expect(ja.strings.sizeLabel == "サイズ" && en.strings.sizeLabel == "Size")
            #expect(ja.strings.closeKeyboard == "キーボードを閉じる" && en.strings.closeKeyboard == "Close keyboard")
            #expect(ja.strings.windowTitle == "へぇキーボード" && en.strings.windowTitle == "Hee Keyboard")
            #expect(ja.sizeText == en.sizeText)
            #expect(Scene(session: session, at: .seconds(1)).strings == HostScreenText.japanese, "Japanese by default")
        }

        @Test func hiddenStatusInBothLanguages() {
            var session = RenderHarness.launchedSession()
            _ = session.handle(.escape, at: .seconds(1))
            _ = session.handle(.tick, at: .seconds(2))
            #expect(Scene(session: session, at: .seconds(2), language: .ja).statusText == "閉じている")
            #expect(Scene(session: session, at: .seconds(2), language: .en).statusText == "Hidden")
        }

        @Test func labelRowsDrawDifferentPixels() throws {
            let session = RenderHarness.launchedSession()
            let jaScene = try render(session, .ja)
            let layout = jaScene.layout
            let rows: [(String, Rect)] = [("title", layout.titleFrame), ("status", layout.statusRow), ("size", layout.sizeRow),
                                          ("close", layout.closeKeyboard), ("volume", layout.volumeRow)]
            let ja = rows.map { pixels($0.1) }
            // The keyboard above its bottom row is the same in both languages; the return key
            // reads 改行 / return.
            let returnKey = try #require(layout.keys[.return])
            let aboveBottomRow = Rect(x: 0, y: layout.keyboardFrame.minY, width: layout.keyboardFrame.width,
                                      height: returnKey.minY - layout.keyboardFrame.minY)
            let jaKeyboard = pixels(aboveBottomRow)
            let jaReturn = pixels(returnKey)
            let jaField = pixels(layout.textField)
            try render(session, .en)
            for (i, row) in rows.enumerated() {
                let d = differingPixels(ja[i], pixels(row.1))
                #expect(d > 30, "\(row.0) row: \(d) pixels differ")
            }
            #expect(differingPixels(jaKeyboard, pixels(aboveBottomRow)) == 0, "keyboard is the same")
            #expect(differingPixels(jaReturn, pixels(returnKey)) > 30, "return reads 改行 / return")
            #expect(differingPixels(jaField, pixels(layout.textField)) == 0, "text field is the same")
        }

        /// The status value is drawn right-aligned: its ink is as wide as the string's line.
        @Test(arguments: [(Language.ja, "開いている"), (.en, "Shown")])
        func statusValueIsDrawn(language: Language, value: String) throws {
            let scene = try render(RenderHarness.launchedSession(), language)
            #expect(scene.statusText == value)
            let row = scene.layout.statusRow
            let right = Rect(x: row.midX, y: row.y, width: row.width / 2 - 8, height: row.height)
            let ink = try #require(inkExtent(right), "no status value drawn")
            let style = TextStyle(.regular, 17, Palette.secondaryLabel)
            let width = harness.text.width(of: value, style, pixelScale: 1)
            let drawn = ink.maxX - ink.minX + 1
            #expect(abs(drawn - width) <= 4, "\(value): ink \(drawn) px, line \(width) px")
            #expect(abs(ink.maxX + 1 - Int(row.maxX - 16)) <= 3, "right-aligned at the inset: \(ink.maxX)")
        }

        @Test func insertedTextIsHeeInBothLanguages() throws {
            var session = RenderHarness.launchedSession()
            let hee = try #require(session.layout.keys[.hee]).center
            _ = session.handle(.pointerDown(.mouse, hee), at: .milliseconds(500))
            _ = session.handle(.pointerUp(.mouse, hee), at: .milliseconds(540))
            let ja = try render(session, .ja)
            let jaField = pixels(ja.layout.textField)
            let en = try render(session, .en)
            #expect(ja.text == "へぇ〜" && en.text == "へぇ〜")
            #expect(differingPixels(jaField, pixels(en.layout.textField)) == 0)
            let empty = try render(RenderHarness.launchedSession(), .en)
            #expect(differingPixels(jaField, pixels(empty.layout.textField)) > 50, "the text is drawn")
        }

        // MARK: 満へぇ

        func heeSession(limit: Int?, presses: Int) throws -> KeyboardSession {
            var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, limit: limit)
            _ = session.handle(.launched, at: .zero)
            let point = try #require(session.layout.keys[.hee]).center
            for i in 0..<presses {
                _ = session.handle(.pointerDown(.mouse, point), at: .milliseconds(100 + i * 100))
                _ = session.handle(.pointerUp(.mouse, point), at: .milliseconds(140 + i * 100))
            }
            return session
        }

        /// The へぇ button's pixels, with where they differ between two scenes (design points).
        func heeDifferences(_ a: Scene, _ b: Scene) throws -> [(x: Double, y: Double)] {
            try harness.render(a)
            var first: [RGBA8] = [], points: [(x: Double, y: Double)] = []
            for y in stride(from: 0.0, to: 180, by: 0.5) { for x in stride(from: 0.0, to: 170, by: 0.5) { first.append(harness.heePixel(a, x, y)) } }
            try harness.render(b)
            var i = 0
            for y in stride(from: 0.0, to: 180, by: 0.5) {
                for x in stride(from: 0.0, to: 170, by: 0.5) {
                    if harness.heePixel(b, x, y) != first[i] { points.append((x, y)) }
                    i += 1
                }
            }
            return points
        }

        @Test func atTheLimitTheLabelReadsManHee() throws {
            let full = try heeSession(limit: 3, presses: 3)
            let normal = try heeSession(limit: nil, presses: 3)
            let fullScene = Scene(session: full, at: .seconds(2), language: .en)
            let normalScene = Scene(session: normal, at: .seconds(2), language: .en)
            #expect(fullScene.isCounterFull && !normalScene.isCounterFull)
            #expect(fullScene.counterText == normalScene.counterText)
            #expect(HeeButtonGeometry.fullLabel == "満へぇ")
            let changed = try heeDifferences(normalScene, fullScene)
            #expect(changed.count > 40, "label pixels: \(changed.count) differ")
            let outside = changed.filter { $0.y < HeeButtonGeometry.bottomBand.minY || $0.x < HeeButtonGeometry.bottomBand.midX }
            #expect(outside.isEmpty, "\(outside.count) differing pixels outside the label, e.g. \(outside.first.map { "\($0)" } ?? "")")
            // Same in Japanese.
            #expect(try heeDifferences(Scene(session: normal, at: .seconds(2), language: .ja),
                                       Scene(session: full, at: .seconds(2), language: .ja)).count > 40)
        }

        @Test func belowTheLimitTheLabelIsNormal() throws {
            let almost = try heeSession(limit: 3, presses: 2)
            let normal = try heeSession(limit: nil, presses: 2)
            #expect(try heeDifferences(Scene(session: normal, at: .seconds(2)), Scene(session: almost, at: .seconds(2))).isEmpty)
        }

        @Test func resetBringsTheNormalLabelBack() throws {
            var full = try heeSession(limit: 3, presses: 3)
            let r = full.layout.resetCount.center
            _ = full.handle(.pointerDown(.mouse, r), at: .seconds(3))
            _ = full.handle(.pointerUp(.mouse, r), at: .milliseconds(3040))
            let fresh = try heeSession(limit: nil, presses: 0)
            #expect(try heeDifferences(Scene(session: fresh, at: .seconds(4)), Scene(session: full, at: .seconds(4))).isEmpty)
        }

        // MARK: The icon

        /// The pixel of the icon at a point of the へぇ button's 170 × 180 design space.
        static func iconPixel(_ icon: Surface, _ x: Double, _ y: Double) -> RGBA8 {
            let size = Double(icon.width)
            let k = size / (HeeButtonGeometry.frame.height + 2 * KeyboardLayout.heePadding)
            let ox = (size - HeeButtonGeometry.frame.width * k) / 2, oy = (size - HeeButtonGeometry.frame.height * k) / 2
            return icon.pixel(x: Int((ox + x * k).rounded(.down)), y: Int((oy + y * k).rounded(.down)))
        }

        @Test(arguments: [48, 64, 128])
        func iconHasTransparentCornersAndAnOpaqueMiddleBand(size: Int) throws {
            let icon = try IconRenderer.render(size: size, library: harness.library, assetsDirectory: repositoryRoot)
            #expect(icon.width == size && icon.height == size)
            for (x, y) in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1), (1, 1), (size - 2, size - 2)] {
                #expect(icon.pixel(x: x, y: y).a == 0, "corner (\(x), \(y)) is \(icon.pixel(x: x, y: y))")
            }
            for (x, y) in [(35.0, 70.0), (135.0, 72.0), (85.0, 112.0)] {
                let p = Self.iconPixel(icon, x, y)
                #expect(p.a == 255, "middle band (\(x), \(y)) alpha \(p.a)")
                expectColor(p, Palette.middle, tolerance: 3, "middle band (\(x), \(y))")
            }
        }

        /// SwiftUI's `.shadow(radius:)` has no offset: the blur of a shape is centred on it
        /// (otherwise the icon's shadow leans right and down into its corner).
        @Test(arguments: [1.7, 2.5, 5.0, 6.8, 10.0])
        func shadowIsCentredOnItsShape(radius: Double) throws {
            let shape = try Surface(width: 12, height: 8)
            shape.withPixels { p, pitch in
                for y in 0..<8 { for x in 0..<12 { p[y * pitch + x] = 0xFF00_0000 } }
            }
            let (shadow, margin) = try ShadowMaker.shadow(of: shape, radius: radius, opacity: 1)
            var sum = 0.0, sx = 0.0, sy = 0.0, asymmetry = 0
            for y in 0..<shadow.height {
                for x in 0..<shadow.width {
                    let a = Int(shadow.pixel(x: x, y: y).a)
                    sum += Double(a)
                    sx += Double(a) * (Double(x) + 0.5)
                    sy += Double(a) * (Double(y) + 0.5)
                    let mirror = Int(shadow.pixel(x: shadow.width - 1 - x, y: shadow.height - 1 - y).a)
                    asymmetry = max(asymmetry, abs(a - mirror))
                }
            }
            #expect(abs(sx / sum - Double(margin + 6)) < 0.05, "centre x \(sx / sum), shape's \(margin + 6)")
            #expect(abs(sy / sum - Double(margin + 4)) < 0.05, "centre y \(sy / sum), shape's \(margin + 4)")
            #expect(asymmetry <= 1, "not point-symmetric: \(asymmetry)")
        }

        @Test func iconCapIsTranslucent() throws {
            let icon = try IconRenderer.render(size: 64, library: harness.library, assetsDirectory: repositoryRoot)
            // Just inside the cap's top edge (y 25), at its centre: 0.7 opaque, plus a little
            // of the cap's own soft shadow below it.
            let top = Self.iconPixel(icon, 85, 33)
            let expected = 0.7 * 255
            #expect(Double(top.a) >= expected - 6 && Double(top.a) <= expected + 22, "cap top alpha \(top.a), expected ≈ \(Int(expected))")
            #expect(top.b > top.r, "cap is grey-blue: \(top)")
            let middle = Self.iconPixel(icon, 85, 50)
            #expect(middle.a > 150 && middle.a < 235, "cap centre alpha \(middle.a)")
            #expect(Self.iconPixel(icon, 85, 2).a < 40, "above the cap: only a faint shadow")
        }
    }
}
