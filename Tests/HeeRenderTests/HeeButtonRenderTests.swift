import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Seed 000's colours, geometry and draw order, checked on pixels.
    @Suite struct HeeButton {
        let harness: RenderHarness
        let background = Palette.keyboardBackground
        /// What lies under the cap's middle: the background darkened by the cap's own shadow
        /// (black at 0.33, times the cap's 0.7 opacity), as SwiftUI draws `.shadow` below.
        var underCap: Color { Palette.shadow.withOpacity(0.33 * 0.7).composited(over: background) }

        init() throws { harness = try RenderHarness() }

        func scene(press: Double, count: Int = 0) -> Scene {
            var scene = Scene(session: RenderHarness.launchedSession(), at: .seconds(1))
            scene.capPress = press
            scene.counterText = HeeButtonModel(count: count).counterText
            return scene
        }

        @Test func capAtRestIsTheSeedsTopColourAt70PercentOpacity() throws {
            let s = scene(press: 0)
            try harness.render(s)
            expectColor(harness.heePixel(s, 85, 45), Palette.top.composited(over: underCap))
            expectColor(harness.heePixel(s, 50, 55), Palette.top.composited(over: underCap))
        }

        @Test func pressedCapIsTheHighlightColour() throws {
            let s = scene(press: 1)
            try harness.render(s)
            let pixel = harness.heePixel(s, 85, 45)
            expectColor(pixel, Palette.highlight.composited(over: underCap))
            #expect(pixel.r > 200 && pixel.g > 200 && pixel.b < 170, "pressed cap should look yellow: \(pixel)")
        }

        /// The cap's top edge is at y 25 at rest and 35 pressed (seed: `.offset(y: 10)`).
        @Test(arguments: [(0.0, 25.0), (1.0, 35.0), (0.5, 30.0)])
        func capTopEdgeSinksTenPoints(press: Double, expectedTop: Double) throws {
            let s = scene(press: press)
            try harness.render(s)
            // The edge is where the colour changes most sharply down column x = 85 (the
            // shadow above it changes smoothly; the anti-aliased edge takes one or two rows).
            var top: Int?
            var steepest = 0
            for y in 1..<65 {
                let step = distance(harness.heePixel(s, 85, Double(y)), harness.heePixel(s, 85, Double(y - 1)))
                if step > steepest {
                    steepest = step
                    top = y
                }
            }
            let found = try #require(top)
            #expect(abs(Double(found) - expectedTop) <= 1.5, "cap top at \(found), expected \(expectedTop)")
        }

        @Test func bandsAndDotsHaveTheSeedsColours() throws {
            let s = scene(press: 0)
            try harness.render(s)
            expectColor(harness.heePixel(s, 35, 70), Palette.middle, tolerance: 1, "middle band")
            expectColor(harness.heePixel(s, 85, 112), Palette.middle, tolerance: 1, "middle band, below the dots")
            expectColor(harness.heePixel(s, 5, 120), Palette.bottom, tolerance: 1, "bottom band")
            expectColor(harness.heePixel(s, 165, 170), Palette.bottom, tolerance: 1, "bottom band corner")
            for i in 0..<5 {
                let c = HeeButtonGeometry.dotCenter(i)
                expectColor(harness.heePixel(s, c.x, c.y), Palette.dot, tolerance: 1, "dot \(i)")
            }
            // The outer dots stand 3.5 pt outside the 140 pt band (the seed's HStack is 147 wide).
            expectColor(harness.heePixel(s, 13, 90), Palette.dot, tolerance: 2, "left dot beyond the band")
        }

        /// Seed 000 draws the cap first, so the pressed cap's lower part is hidden by the band.
        @Test func bandCoversTheSunkenCap() throws {
            let s = scene(press: 1)
            try harness.render(s)
            expectColor(harness.heePixel(s, 85, 100), Palette.middle, tolerance: 1)
        }

        @Test func shadowDarkensTheBackgroundAroundTheButton() throws {
            let s = scene(press: 0)
            try harness.render(s)
            let bg = background.rgba8
            let near = harness.heePixel(s, -2, 150)   // 2 pt left of the bottom band
            let far = harness.heePixel(s, -20, 150)
            #expect(distance(far, bg) <= 1)
            #expect(Int(near.r) < Int(bg.r) - 5, "soft shadow expected beside the band: \(near)")
        }

        /// Edges are anti-aliased: across the cap's left edge there are in-between colours.
        @Test func capEdgeIsAntiAliased() throws {
            let s = scene(press: 1)
            try harness.render(s)
            let bg = background.rgba8, cap = Palette.highlight.composited(over: underCap).rgba8
            var inBetween = 0
            for x in 20..<35 {
                let p = harness.heePixel(s, Double(x), 50)
                if distance(p, bg) > 6 && distance(p, cap) > 6 { inBetween += 1 }
            }
            #expect(inBetween >= 1)
        }

        /// The counter: red digits on black, right-aligned like `%2d`, wrapping after 99,
        /// never outside the box.
        @Test func counterDigits() throws {
            func counterBox(_ count: Int) throws -> (pixels: [[RGBA8]], red: Int) {
                let s = scene(press: 0, count: count)
                try harness.render(s)
                // Box: between the labels, in the bottom band; scan the band's middle area.
                var rows: [[RGBA8]] = []
                var red = 0
                for y in stride(from: 125.0, to: 166, by: 1) {
                    var row: [RGBA8] = []
                    for x in stride(from: 55.0, to: 115, by: 1) {
                        let p = harness.heePixel(s, x, y)
                        row.append(p)
                        if p.r > 150 && p.g < 110 && p.b < 110 { red += 1 }
                    }
                    rows.append(row)
                }
                return (rows, red)
            }
            let zero = try counterBox(0), seven = try counterBox(7), fortyTwo = try counterBox(42)
            let hundred = try counterBox(100), oneOhSeven = try counterBox(107)
            #expect(zero.red > 20 && seven.red > 20 && fortyTwo.red > 20)
            #expect(fortyTwo.red > seven.red, "two digits draw more red than one")
            func differing(_ a: [[RGBA8]], _ b: [[RGBA8]]) -> Int {
                zip(a.joined(), b.joined()).filter { $0 != $1 }.count
            }
            #expect(differing(hundred.pixels, zero.pixels) == 0, "100 shows as 0")
            #expect(differing(oneOhSeven.pixels, seven.pixels) == 0, "107 shows as 7")
            #expect(differing(seven.pixels, zero.pixels) > 20)

            // " 7": the left digit cell is empty (black), the right one has red.
            let s = scene(press: 0, count: 7)
            try harness.render(s)
            let geometry = try boxGeometry(s)
            var leftRed = 0, rightRed = 0
            for y in geometry.y0..<geometry.y1 {
                for x in geometry.x0..<geometry.x1 {
                    let p = harness.surface.pixel(x: x, y: y)
                    guard p.r > 150 && p.g < 110 else { continue }
                    if x < geometry.mid { leftRed += 1 } else { rightRed += 1 }
                }
            }
            #expect(leftRed == 0 && rightRed > 20, "left \(leftRed), right \(rightRed)")
        }

        @Test(arguments: [88, 99, 100, 1_000_000])
        func counterNeverLeavesItsBlackBox(count: Int) throws {
            let s = scene(press: 0, count: count)
            try harness.render(s)
            let g = try boxGeometry(s)
            // Around the box (a 12 px frame outside it) nothing is red.
            for y in (g.y0 - 12)..<(g.y1 + 12) {
                for x in (g.x0 - 12)..<(g.x1 + 12) where x < g.x0 || x >= g.x1 || y < g.y0 || y >= g.y1 {
                    let p = harness.surface.pixel(x: x, y: y)
                    #expect(!(p.r > 180 && p.g < 100 && p.b < 100), "red outside the box at (\(x), \(y)): \(p)")
                }
            }
        }

        /// The black box found from pixels: the bounding box of pure black in the bottom band.
        func boxGeometry(_ s: Scene) throws -> (x0: Int, x1: Int, y0: Int, y1: Int, mid: Int) {
            let a = harness.heePixelPosition(s, 0, 115), b = harness.heePixelPosition(s, 170, 175)
            var x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
            for y in a.y..<b.y {
                for x in a.x..<b.x where harness.surface.pixel(x: x, y: y) == RGBA8(r: 0, g: 0, b: 0) {
                    x0 = min(x0, x); x1 = max(x1, x + 1); y0 = min(y0, y); y1 = max(y1, y + 1)
                }
            }
            try #require(x0 < x1 && y0 < y1, "no black box found")
            return (x0, x1, y0, y1, (x0 + x1) / 2)
        }
    }
}
