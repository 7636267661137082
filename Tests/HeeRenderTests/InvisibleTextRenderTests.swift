@testable import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Issue 11, item 1: no text can make drawing fail. Every class of code point that draws
    /// nothing, typed next to visible text, is stored and drawn taking no space; a run that
    /// SDL_ttf cannot draw is left out (the rest of the line drawn) and reported once.
    @Suite struct InvisibleText {
        let harness: RenderHarness
        let style = TextStyle(.regular, 17, Palette.label)
        init() throws { harness = try RenderHarness() }

        /// Code points that draw nothing, by class (the list).
        static let invisible: [(String, [Unicode.Scalar])] = [
            ("format characters", ["\u{200B}", "\u{2060}", "\u{FEFF}", "\u{2061}", "\u{2064}", "\u{180E}", "\u{E0001}", "\u{E0041}"]),
            ("joiners", ["\u{200C}", "\u{200D}", "\u{034F}"]),
            ("variation selectors", ["\u{FE00}", "\u{FE0E}", "\u{FE0F}", "\u{E0100}", "\u{180B}"]),
            ("bidi controls", ["\u{200E}", "\u{200F}", "\u{061C}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}",
                               "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]),
            ("soft hyphen", ["\u{00AD}"]),
        ]

        /// Combining marks with no base character before them.
        static let marks: [Unicode.Scalar] = ["\u{0301}", "\u{0300}", "\u{20DD}", "\u{3099}", "\u{0E31}", "\u{093F}"]

        static func scene(typing text: String) -> Scene {
            var session = RenderHarness.launchedSession()
            _ = session.handle(.textInput(text), at: .seconds(1))
            return Scene(session: session, at: .seconds(1))
        }

        /// The text field's row as drawn.
        func fieldPixels(_ scene: Scene) -> [RGBA8] {
            let f = scene.layout.textField
            var pixels: [RGBA8] = []
            for y in Int(f.minY)..<Int(f.maxY) {
                for x in Int(f.minX)..<Int(f.maxX) { pixels.append(harness.surface.pixel(x: x, y: y)) }
            }
            return pixels
        }

        @Test("invisible characters beside visible text are stored and take no space",
              arguments: invisible.flatMap { kind in kind.1.map { (kind.0, $0) } })
        func invisibleCharacterTakesNoSpace(kind: String, scalar: Unicode.Scalar) throws {
            let c = String(scalar)
            var reports: [String] = []
            harness.text.onSkippedText = { reports.append($0) }
            try harness.render(Self.scene(typing: "ab"))
            let plain = fieldPixels(Self.scene(typing: "ab"))
            for text in ["a\(c)b", "\(c)ab", "ab\(c)", "a\(c)\(c)b"] {
                let scene = Self.scene(typing: text)
                #expect(scene.text == text, "\(kind) U+\(String(scalar.value, radix: 16)) is stored")
                try harness.render(scene)
                let drawn = fieldPixels(scene)
                #expect(differingPixels(drawn, plain) == 0,
                        "\(kind) U+\(String(scalar.value, radix: 16, uppercase: true)) in \(text.debugDescription) changes the drawing")
                #expect(harness.text.width(of: text, style, pixelScale: 1) == harness.text.width(of: "ab", style, pixelScale: 1))
            }
            // Alone, the field draws only its caret.
            try harness.render(Self.scene(typing: c))
            #expect(try harness.text.line(c, style, pixelScale: 1, cached: false) == nil)
            #expect(reports.isEmpty, "nothing failed, so nothing is reported: \(reports)")
        }

        @Test("a combining mark with no base draws without failing", arguments: marks)
        func markAlone(_ mark: Unicode.Scalar) throws {
            var reports: [String] = []
            harness.text.onSkippedText = { reports.append($0) }
            for text in [String(mark), "\(mark)ab", "ab \(mark)", String(repeating: String(mark), count: 3)] {
                let scene = Self.scene(typing: text)
                #expect(scene.text == text)
                try harness.render(scene)
                _ = try harness.text.line(text, style, pixelScale: 2, cached: false)
            }
            #expect(reports.isEmpty, "\(reports)")
        }

        @Test func everyScaleAndEveryLabelStyle() throws {
            // The same texts through the cached path, in each face and at HiDPI scales.
            let all = Self.invisible.flatMap(\.1).map(String.init).joined()
            for face in [FontFace.regular, .bold] {
                for scale in [1.0, 1.5, 3.0] {
                    let s = TextStyle(face, 17, Palette.label)
                    #expect(try harness.text.line(all, s, pixelScale: scale) == nil)
                    let line = try #require(try harness.text.line("x" + all + "y", s, pixelScale: scale))
                    let plain = try #require(try harness.text.line("xy", s, pixelScale: scale))
                    // Within a pixel: HarfBuzz removes some (tags) and zeroes others, and the
                    // pen's sub-pixel position rounds differently.
                    #expect(abs(line.width - plain.width) <= 1 && line.height == plain.height,
                            "\(face) at \(scale): \(line.width)×\(line.height), plain \(plain.width)×\(plain.height)")
                }
            }
        }

        @Test func aRunThatCannotBeDrawnIsLeftOutAndReportedOnce() throws {
            var reports: [String] = []
            harness.text.onSkippedText = { reports.append($0) }
            harness.text.runRenderer = { run, font, color throws(SDLError) in
                if run.contains("β") { throw SDLError("TTF_RenderUTF8_Blended", message: "injected failure") }
                return try font.render(run, color: color)
            }
            // Latin and Greek are separate runs (the script changes): the Greek one fails.
            let line = try #require(try harness.text.line("abc αβγ", style, pixelScale: 1, cached: false))
            let latin = try #require(try harness.text.line("abc ", style, pixelScale: 1, cached: false))
            #expect(line.width == latin.width, "the Latin run is drawn, the failing one left out")
            // The whole scene draws, with the failing text in the field, several times.
            for _ in 0..<3 { try harness.render(Self.scene(typing: "xβy")) }
            #expect(try harness.text.line("β", style, pixelScale: 1, cached: false) == nil)
            #expect(reports == ["TTF_RenderUTF8_Blended failed: injected failure"], "reported once: \(reports)")
        }
    }
}
