import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// System mode draws a frame by its changes (`SceneRenderer.drawChanges`): after every
    /// step of a run of presses, the target holds exactly the pixels a whole frame of the same
    /// scene has, while only the changed rectangles were drawn.
    @Suite struct SystemFrameChanges {
        static let size = KeyboardLayout.defaultSystemWindowSize()

        /// Every pixel of `surface`, row by row.
        static func pixels(_ surface: Surface) -> [RGBA8] {
            (0..<surface.height).flatMap { y in (0..<surface.width).map { x in surface.pixel(x: x, y: y) } }
        }

        /// Feeds `steps` (an input and its time in ms, or nil to only let time pass) to a
        /// system-mode session; after each, draws its changes on one harness and the whole frame
        /// on another and compares them. Returns the changed rectangles of each step.
        /// `session`: a launched system-mode session of `size` (points); the English letters'
        /// by default.
        func run(_ steps: [(KeyboardInput?, Int)], pixelScale: Double = 1, size: Size = Self.size,
                 session start: KeyboardSession? = nil) throws -> [[PixelRect]?] {
            let changes = try RenderHarness(size: size, pixelScale: pixelScale)
            let whole = try RenderHarness(size: size, pixelScale: pixelScale)
            var session = start ?? KeyboardSession(windowSize: size, mode: .system)
            if start == nil { _ = session.handle(.launched, at: .zero) }
            var drawn: [[PixelRect]?] = []
            for (index, (input, ms)) in steps.enumerated() {
                let time = Duration.milliseconds(ms)
                if let input { _ = session.handle(input, at: time) }
                let scene = Scene(session: session, at: time, language: .en)
                drawn.append(try changes.sceneRenderer.drawChanges(scene, pixelScale: pixelScale))
                try whole.render(scene)
                let mine = Self.pixels(changes.surface), expected = Self.pixels(whole.surface)
                let differing = mine.indices.filter { mine[$0] != expected[$0] }
                let w = changes.surface.width
                let box = differing.isEmpty ? "" : " in x \(differing.map { $0 % w }.min()!)...\(differing.map { $0 % w }.max()!), "
                    + "y \(differing.map { $0 / w }.min()!)...\(differing.map { $0 / w }.max()!)"
                #expect(differing.isEmpty, """
                    step \(index) (\(input.map { "\($0)" } ?? "time") at \(ms) ms): \(differing.count) pixels differ\(box); \
                    redrawn: \(drawn.last!.map { "\($0)" } ?? "whole")
                    """)
            }
            return drawn
        }

        func center(_ key: KeyID) throws -> Point {
            try #require(KeyboardSession(windowSize: Self.size, mode: .system).layout.keys[key]).center
        }

        @Test func lettersAndHeeMatchWholeFrames() throws {
            let a = try center("a"), p = try center("p"), hee = try center(.hee)
            let drawn = try run([
                (nil, 0),                                    // the first frame: whole
                (.pointerDown(.mouse, a), 100),              // a's key and callout
                (.pointerUp(.mouse, a), 140),
                (.pointerDown(.finger(1), a), 200), (.pointerDown(.finger(2), p), 210),  // two keys, far apart
                (.pointerUp(.finger(1), a), 240), (.pointerUp(.finger(2), p), 250),
                (.pointerDown(.mouse, hee), 300),            // the cap sinks, the counter counts
                (nil, 316), (nil, 332), (nil, 400),
                (.pointerUp(.mouse, hee), 420),
                (nil, 436), (nil, 452), (nil, 600), (nil, 1000),
            ])
            #expect(drawn[0] == nil, "the first frame is drawn whole")
            let letter = try #require(drawn[1])
            #expect(!letter.isEmpty && letter.count <= 2, "a's press redraws its key and callout: \(letter)")
            let area = letter.reduce(0) { $0 + $1.area }
            #expect(area < Int(Self.size.width * Self.size.height) / 10, "a's press redraws \(area) pixels of the frame's")
            #expect(drawn[3].map { $0.count >= 1 } == true)
            #expect(drawn.last == [], "nothing changed at the end: \(drawn.last!.map { "\($0)" } ?? "whole")")
        }

        @Test func alternatesBubbleAndLayersMatchWholeFrames() throws {
            let e = try center("e"), numbers = try center("123")
            var choice = e
            choice.y -= 50  // up into the bubble's row
            try run([
                (nil, 0),
                (.pointerDown(.mouse, e), 100), (nil, 700),   // held past the hold delay: the bubble
                (.pointerMoved(.mouse, choice), 720), (.pointerMoved(.mouse, Point(x: choice.x + 40, y: choice.y)), 740),
                (.pointerUp(.mouse, Point(x: choice.x + 40, y: choice.y)), 760),
                (.pointerDown(.mouse, numbers), 900), (.pointerUp(.mouse, numbers), 940),  // another layer: whole
                (.pointerDown(.mouse, try center("space")), 1000), (nil, 1010),
                (.pointerUp(.mouse, try center("space")), 1040),
            ], pixelScale: 2)
        }

        @Test func kanaFlickGuideCompositionAndCandidatesMatchWholeFrames() throws {
            let session = KanaPad.session(mode: .system)
            let na = try #require(session.layout.keys["な"])
            let left = FlickDirection.left.end(from: na)
            let drawn = try run([
                (nil, 0),
                (.pointerDown(.finger(1), na.center), 100), (nil, 400),  // touched: the flick guide
                (.pointerMoved(.finger(1), left), 420), (.pointerUp(.finger(1), left), 460),  // に: composing
                (.conversion(reading: "に", segments: [KanaKanjiSegment(reading: "に", candidates: ["二", "に", "似"])]), 600),
                (nil, 700), (nil, 1000),
            ], size: KeyboardLayout.defaultSystemWindowSize(candidateBar: true), session: session)
            #expect(drawn[1].map { !$0.isEmpty } ?? true, "the touched key's guide is drawn")
            #expect(drawn[2] == [], "holding still changes nothing")
            #expect(drawn[3].map { !$0.isEmpty } ?? true, "the guide's selection follows the finger")
            #expect(drawn[5].map { !$0.isEmpty } ?? true, "the candidates are drawn")
            #expect(drawn.last == [], "nothing changed at the end: \(drawn.last!.map { "\($0)" } ?? "whole")")
        }
    }
}
