import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Seed 001's host screen: the text field, readouts and button.
    @Suite struct HostScreen {
        let harness: RenderHarness
        init() throws { harness = try RenderHarness() }

        /// Pixels of the text field's content area (the row minus its 16 pt insets).
        func fieldPixels(_ scene: Scene) -> [RGBA8] {
            let f = scene.layout.textField
            var result: [RGBA8] = []
            for y in Int(f.minY) + 2..<Int(f.maxY) - 2 {
                for x in Int(f.minX) + 16..<Int(f.maxX) - 16 { result.append(harness.surface.pixel(x: x, y: y)) }
            }
            return result
        }

        func isTint(_ p: RGBA8) -> Bool { distance(p, Palette.tint.rgba8) <= 2 }
        func isWhite(_ p: RGBA8) -> Bool { distance(p, Palette.row.rgba8) <= 1 }

        /// SDL_ttf refuses empty strings: an empty focused field draws only its caret.
        @Test func emptyFocusedFieldDrawsOnlyTheCaret() throws {
            let session = RenderHarness.launchedSession()
            let scene = Scene(session: session, at: .seconds(1))
            #expect(scene.text.isEmpty && scene.isTextFieldFocused)
            try harness.render(scene)
            let pixels = fieldPixels(scene)
            let caret = pixels.filter(isTint).count
            #expect(caret >= 2 * 20, "a 2 × 22 pt caret expected, found \(caret) caret pixels")
            #expect(pixels.allSatisfy { isTint($0) || isWhite($0) }, "nothing but the caret on the white row")
        }

        /// Typing then deleting everything leaves no stale text behind.
        @Test func deletingEverythingLeavesNoStaleText() throws {
            var session = RenderHarness.launchedSession()
            let empty = Scene(session: session, at: .seconds(1))
            try harness.render(empty)
            let before = fieldPixels(empty)
            _ = session.handle(.textInput("へぇ〜abc"), at: .seconds(2))
            let typed = Scene(session: session, at: .seconds(2))
            try harness.render(typed)
            #expect(differingPixels(fieldPixels(typed), before) > 50, "typed text must show")
            for _ in 0..<6 { _ = session.handle(.editing(.deleteBackward), at: .seconds(3)) }
            #expect(session.document.textField.text.isEmpty)
            let cleared = Scene(session: session, at: .seconds(3))
            try harness.render(cleared)
            #expect(differingPixels(fieldPixels(cleared), before) == 0, "no stale text after deleting everything")
        }

        /// Unfocused and empty, the field shows seed 001's placeholder and no caret.
        @Test func unfocusedEmptyFieldShowsThePlaceholder() throws {
            var scene = Scene(session: RenderHarness.launchedSession(), at: .seconds(1))
            scene.isTextFieldFocused = false
            try harness.render(scene)
            let pixels = fieldPixels(scene)
            #expect(!pixels.contains(where: isTint), "no caret when unfocused")
            let grey = pixels.filter { distance($0, Palette.secondaryLabel.rgba8) <= 40 }.count
            #expect(grey > 50, "placeholder text expected")
        }

        /// The caret follows the text: after typing, the caret stands to the right of the ink.
        @Test func caretStandsAfterTheText() throws {
            var session = RenderHarness.launchedSession()
            _ = session.handle(.textInput("へぇ〜"), at: .seconds(1))
            let scene = Scene(session: session, at: .seconds(1))
            try harness.render(scene)
            let f = scene.layout.textField
            let y = Int(f.midY)
            var caretX: Int?, lastInk = 0
            for x in Int(f.minX) + 16..<Int(f.maxX) - 16 {
                let p = harness.surface.pixel(x: x, y: y)
                if isTint(p) { caretX = caretX ?? x } else if !isWhite(p) { lastInk = x }
            }
            let found = try #require(caretX)
            #expect(found > Int(f.minX) + 16 + 30, "caret moved right of three characters")
            #expect(lastInk < found + 3)
        }

        /// Characters the bundled font lacks come from a system font found by fontconfig:
        /// ～ (U+FF5E) is not in M+ 1 but must not be drawn as the .notdef box.
        @Test func missingCharactersFallBackToASystemFont() throws {
            let regular = try harness.text.bundledFont(.regular, pixels: 17)
            #expect(!regular.provides("\u{FF5E}"), "the premise: M+ 1 lacks U+FF5E")
            #expect(regular.provides("\u{301C}"))
            let style = TextStyle(.regular, 17, .black)
            #expect(harness.text.fontPath(for: "〜", style, pixelScale: 1) == regular.path)
            let fallback = try #require(harness.text.fontPath(for: "～", style, pixelScale: 1))
            #expect(fallback != regular.path, "～ must come from a system font")
            let font = try Font(path: fallback, pixelSize: 17, library: harness.library)
            #expect(font.provides("\u{FF5E}"))
            let line = try #require(try harness.text.line("へぇ～", style, pixelScale: 1))
            #expect(line.width > 3 * 10)
        }

        @Test func readoutsShowSeed001sStrings() throws {
            let session = RenderHarness.launchedSession()
            let scene = Scene(session: session, at: .seconds(1))
            #expect(scene.statusText == "開いている")
            #expect(scene.sizeText == "(\(scene.layout.keyboardFrame.width), \(scene.layout.keyboardFrame.height))")
            try harness.render(scene)
            // The value is right-aligned in secondary grey: grey ink near the row's right end.
            let row = scene.layout.sizeRow
            var grey = 0
            for y in Int(row.minY)..<Int(row.maxY) {
                for x in Int(row.maxX) - 80..<Int(row.maxX) - 16
                where distance(harness.surface.pixel(x: x, y: y), Palette.secondaryLabel.rgba8) <= 30 { grey += 1 }
            }
            #expect(grey > 20)
        }
    }
}

extension RenderTests {
    /// Review fixes on the host screen.
    @Suite struct NarrowWindow {
        /// At the minimum width the large title shrinks so it never runs into the navigation
        /// bar's reset button.
        @Test(arguments: [Language.en, .ja])
        func titleDoesNotReachTheResetButton(language: Language) throws {
            let size = KeyboardLayout.minimumWindowSize
            let harness = try RenderHarness(size: size)
            let scene = Scene(session: RenderHarness.launchedSession(size: size), at: .seconds(1), language: language)
            try harness.render(scene)
            let title = scene.layout.titleFrame, reset = scene.layout.resetCount
            #expect(title.maxX <= reset.minX)
            // No dark title ink to the right of the title frame, left of the button's text.
            var ink = 0
            for y in Int(title.minY)..<Int(title.maxY) {
                for x in Int(title.maxX)..<Int(reset.minX) + 8 {
                    let p = harness.surface.pixel(x: x, y: y)
                    if Int(p.r) + Int(p.g) + Int(p.b) < 150 { ink += 1 }
                }
            }
            #expect(ink == 0, "title ink past its frame: \(ink) pixels")
        }

        /// 😀 has emoji presentation by default: it comes from a colour face when there is one.
        @Test func faceEmojiPreferAColourFont() throws {
            let harness = try RenderHarness()
            let style = TextStyle(.regular, 17, .black)
            // The set-up installs fonts-noto-color-emoji.
            let thumbs = try #require(harness.text.fontPath(for: "👍", style, pixelScale: 1))
            try #require(thumbs.lowercased().contains("color"), "no colour emoji font: \(thumbs)")
            let face = harness.text.fontPath(for: "😀", style, pixelScale: 1)
            #expect(face == thumbs, "😀 from \(face ?? "nothing"), 👍 from \(thumbs)")
        }
    }
}
