import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Key labels never cross their key's edges: at the smallest windows a label too wide for
    /// its key is drawn smaller (found in the new-user trial: "return" on the 42 pt return key
    /// of a 320 pt wide `--system` keyboard is 48 pt wide at 16 pt and ran over both edges).
    @Suite struct KeyLabelFit {
        /// The keys whose label is text (shift and backspace show icons).
        static func textKeys(_ layout: KeyboardLayout) -> [KeyID] {
            layout.orderedKeys.filter { ![.hee, .shift, .backspace].contains($0) }
        }

        /// A launched session's scene for a window of `size` points in `mode`.
        static func scene(_ size: Size, _ mode: KeyboardMode, _ language: Language, upperCase: Bool = false) -> Scene {
            var session = KeyboardSession(windowSize: size, mode: mode)
            _ = session.handle(.launched, at: .zero)
            var scene = Scene(session: session, at: .seconds(1), language: language)
            scene.lettersUpperCase = upperCase
            return scene
        }

        /// The pixel columns (window pixels) between `from` and `to` that hold label ink (dark
        /// pixels: key caps, their shadows and the backdrop are all much lighter) within the
        /// rows of `key`.
        static func inkedColumns(_ harness: RenderHarness, key: Rect, from: Int, to: Int) -> [Int] {
            let s = harness.pixelScale
            let rows = Int((key.minY * s).rounded())..<Int((key.maxY * s).rounded())
            return (max(from, 0)..<min(to, harness.surface.width)).filter { x in
                rows.contains { y in
                    let p = harness.surface.pixel(x: x, y: y)
                    return Int(p.r) + Int(p.g) + Int(p.b) < 300
                }
            }
        }

        /// The bug as found: at the system keyboard's minimum width (320 pt) the return key's
        /// label stays inside its key, with room to spare on both sides, at 1 and 2 pixels per
        /// point and in both languages; and it is still a label, not a speck.
        @Test(arguments: [1.0, 2.0], [Language.en, .ja])
        func returnLabelStaysInsideItsKeyAtMinimumWidth(scale: Double, language: Language) throws {
            let size = KeyboardLayout.minimumWindowSize(for: .system)
            #expect(size.width == 320)
            let harness = try RenderHarness(size: size, pixelScale: scale)
            let scene = Self.scene(size, .system, language)
            try harness.render(scene)
            let key = try #require(scene.layout.keys[.return])
            let (left, right) = (Int((key.minX * scale).rounded()), Int((key.maxX * scale).rounded()))
            // From the middle of the gap after the space bar to the window's right edge.
            let inked = Self.inkedColumns(harness, key: key, from: left - Int(3 * scale), to: harness.surface.width)
            let first = try #require(inked.first, "the return key has a label"), last = inked.last!
            let margin = Int(scale)  // at least 1 pt clear of each edge
            #expect(first >= left + margin, "\(language) ×\(scale): label starts at \(first), key at \(left)")
            #expect(last < right - margin, "\(language) ×\(scale): label ends at \(last), key at \(right)")
            // Still a label, not a speck: at least a quarter of the (2.7 units wide) key.
            #expect(last - first + 1 >= (right - left) / 4, "\(language) ×\(scale): label only \(last - first + 1) px wide")
        }

        /// Every text label (letters in both cases, space, return) at the minimum sizes of both
        /// modes (320 × 324 system, 320 × 592 host screen), 1 and 2 pixels per point, both
        /// languages: ink only inside its own key.
        @Test(arguments: [KeyboardMode.system, .hostScreen], [1.0, 2.0])
        func everyTextLabelStaysInsideItsKeyAtMinimumSize(mode: KeyboardMode, scale: Double) throws {
            let size = KeyboardLayout.minimumWindowSize(for: mode)
            let harness = try RenderHarness(size: size, pixelScale: scale)
            for language in [Language.en, .ja] {
                for upperCase in [false, true] {
                    let scene = Self.scene(size, mode, language, upperCase: upperCase)
                    try harness.render(scene)
                    for id in Self.textKeys(scene.layout) {
                        let key = scene.layout.keys[id]!
                        let (left, right) = (Int((key.minX * scale).rounded()), Int((key.maxX * scale).rounded()))
                        // Half the gap (or the side margin) on each side belongs to this key.
                        let half = Int(KeyboardLayout.keyboardSideMargin * scale)
                        let inked = Self.inkedColumns(harness, key: key, from: left - half, to: right + half)
                        let where_ = "\(mode) \(language) ×\(scale) \(id) upper \(upperCase)"
                        #expect(!inked.isEmpty, "\(where_): no label")
                        #expect(inked.allSatisfy { $0 >= left && $0 < right }, "\(where_): ink \(inked.first ?? 0)...\(inked.last ?? 0) outside \(left)..<\(right)")
                    }
                }
            }
        }

        /// Issue 20: the numbers and symbols layers' labels (digits, punctuation, €, the layer
        /// keys #+=, 123 and ABC) at both modes' minimum sizes, 1 and 2 pixels per point: ink
        /// only inside their own keys, and every key has a label.
        @Test(arguments: [KeyboardMode.system, .hostScreen], [1.0, 2.0])
        func otherLayersLabelsStayInsideTheirKeysAtMinimumSize(mode: KeyboardMode, scale: Double) throws {
            let size = KeyboardLayout.minimumWindowSize(for: mode)
            let harness = try RenderHarness(size: size, pixelScale: scale)
            for layer in ["numbers", "symbols"] {
                var session = KeyboardSession(windowSize: size, mode: mode)
                _ = session.handle(.launched, at: .zero)
                for key: KeyID in layer == "numbers" ? ["123"] : ["123", "#+="] {
                    let point = try #require(session.layout.keys[key]).center
                    _ = session.handle(.pointerDown(.mouse, point), at: .milliseconds(100))
                    _ = session.handle(.pointerUp(.mouse, point), at: .milliseconds(140))
                }
                #expect(session.layerName == layer)
                let scene = Scene(session: session, at: .seconds(1), language: .en)
                try harness.render(scene)
                for id in Self.textKeys(scene.layout) {
                    let key = scene.layout.keys[id]!
                    let (left, right) = (Int((key.minX * scale).rounded()), Int((key.maxX * scale).rounded()))
                    let half = Int(KeyboardLayout.keyboardSideMargin * scale)
                    let inked = Self.inkedColumns(harness, key: key, from: left - half, to: right + half)
                    let where_ = "\(mode) \(layer) ×\(scale) \(id)"
                    #expect(!inked.isEmpty, "\(where_): no label")
                    #expect(inked.allSatisfy { $0 >= left && $0 < right }, "\(where_): ink \(inked.first ?? 0)...\(inked.last ?? 0) outside \(left)..<\(right)")
                }
            }
        }

        /// The fitting itself: a label that fits keeps its style exactly (so frames where
        /// nothing overflowed do not change); one that does not gets the largest size that
        /// fits; the minimum size is a floor.
        @Test(arguments: [1.0, 2.0])
        func fittingShrinksOnlyWhatOverflows(scale: Double) throws {
            let harness = try RenderHarness(pixelScale: scale)
            let text = harness.text
            let style = TextStyle(.regular, 16, Palette.keyLabel)
            let natural = text.width(of: "return", style, pixelScale: scale)
            #expect(text.style(fitting: "return", style, inWidth: natural, pixelScale: scale, minimumPoints: 10) == style)

            let room = Int(38 * scale)
            let fitted = text.style(fitting: "return", style, inWidth: room, pixelScale: scale, minimumPoints: 10)
            #expect(fitted.points < style.points && fitted.points >= 10)
            #expect(text.width(of: "return", fitted, pixelScale: scale) <= room)
            var larger = fitted
            larger.points += 1 / scale
            #expect(text.width(of: "return", larger, pixelScale: scale) > room, "one pixel larger would not fit")

            let floored = text.style(fitting: "return", style, inWidth: 1, pixelScale: scale, minimumPoints: 10)
            #expect(floored.points == 10)
        }
    }
}
