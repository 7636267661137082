import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// The shift key's three icons (seed 002) and the letter keys' case.
    @Suite struct Keys {
        let harness: RenderHarness
        init() throws { harness = try RenderHarness() }

        func keyPixels(_ key: KeyID, _ scene: Scene) -> [RGBA8] {
            let r = scene.layout.keys[key]!
            var out: [RGBA8] = []
            for y in Int(r.minY)..<Int(r.maxY) { for x in Int(r.minX)..<Int(r.maxX) { out.append(harness.surface.pixel(x: x, y: y)) } }
            return out
        }

        func darkCount(_ pixels: [RGBA8]) -> Int { pixels.filter { Int($0.r) + Int($0.g) + Int($0.b) < 200 }.count }

        func scene(shift: ShiftState) -> Scene {
            var scene = Scene(session: RenderHarness.launchedSession(), at: .seconds(1))
            scene.shiftState = shift
            scene.lettersUpperCase = shift != .off
            return scene
        }

        func differing(_ a: [RGBA8], _ b: [RGBA8]) -> Int { differingPixels(a, b) }

        /// shift: an outline; shift.fill: a filled arrow (more ink); capslock.fill: a filled,
        /// shorter arrow plus a bar.
        @Test func shiftIconsDifferPerState() throws {
            var ink: [ShiftState: Int] = [:]
            var images: [ShiftState: [RGBA8]] = [:]
            for state in ShiftState.allCases {
                let s = scene(shift: state)
                try harness.render(s)
                images[state] = keyPixels(.shift, s)
                ink[state] = darkCount(images[state]!)
            }
            #expect(ink[.off]! > 20, "outline arrow drawn")
            #expect(ink[.on]! > ink[.off]! + 20, "filled arrow has more ink than the outline")
            #expect(ink[.capsLock]! > 20)
            #expect(differing(images[.on]!, images[.capsLock]!) > 10)
            // Off: a grey special key; on and caps lock: a white key.
            let r = scene(shift: .off).layout.keys[.shift]!
            for state in ShiftState.allCases {
                let s = scene(shift: state)
                try harness.render(s)
                let corner = harness.surface.pixel(x: Int(r.minX) + 6, y: Int(r.minY) + 6)
                expectColor(corner, state == .off ? Palette.specialKey : Palette.key, tolerance: 2, "\(state)")
            }
        }

        /// Letter keys show the case they will type.
        @Test func letterLabelsFollowShift() throws {
            let lower = scene(shift: .off)
            try harness.render(lower)
            let a = keyPixels(.letter("a"), lower)
            let upper = scene(shift: .capsLock)
            try harness.render(upper)
            let capitalA = keyPixels(.letter("a"), upper)
            #expect(differing(a, capitalA) > 10)
            #expect(darkCount(a) > 10 && darkCount(capitalA) > 10)
        }

        /// A pressed letter shows iOS's callout: a white balloon above the key with the
        /// letter enlarged, in the case it will type; the other keys stay as they were.
        @Test func pressedLetterKeyShowsACallout() throws {
            var s = scene(shift: .off)
            try harness.render(s)
            let r = s.layout.keys[.letter("d")]!
            // Above the key, in the gap between rows: keyboard background before the press.
            let above = (x: Int(r.midX), y: Int(r.minY) - 20)
            expectColor(harness.surface.pixel(x: above.x, y: above.y), Palette.keyboardBackground, tolerance: 0)
            let idle = keyPixels(.letter("d"), s)
            s.pressedKeys = [.letter("d")]
            try harness.render(s)
            let balloon = harness.surface.pixel(x: Int(r.minX) + 2, y: above.y)
            expectColor(balloon, Palette.key, tolerance: 0, "balloon over the row above")
            // The enlarged letter has more ink than the key's own label.
            var ink = 0
            for y in Int(r.minY) - 60..<Int(r.minY) {
                for x in Int(r.minX) - 8..<Int(r.maxX) + 8 {
                    let p = harness.surface.pixel(x: x, y: y)
                    if Int(p.r) + Int(p.g) + Int(p.b) < 200 { ink += 1 }
                }
            }
            #expect(ink > darkCount(idle) * 2, "callout letter ink \(ink) vs key label \(darkCount(idle))")
            // Released: back to the plain key.
            s.pressedKeys = []
            try harness.render(s)
            #expect(differing(keyPixels(.letter("d"), s), idle) == 0)
        }

        /// While the keyboard slides away its keys move down with it; hidden, none is drawn.
        @Test func hiddenKeyboardIsNotDrawn() throws {
            var s = scene(shift: .off)
            s.keyboardOffset = s.layout.keyboardFrame.height
            try harness.render(s)
            let p = harness.surface.pixel(x: 240, y: Int(s.layout.keyboardFrame.midY))
            expectColor(p, Palette.hostBackground, tolerance: 0)
        }
    }

    /// The same scene at 2 pixels per point puts everything at twice the coordinates.
    @Suite struct HiDPI {
        @Test func capPositionScalesWithPixelScale() throws {
            let harness = try RenderHarness(pixelScale: 2)
            var scene = Scene(session: RenderHarness.launchedSession(), at: .seconds(1))
            scene.capPress = 1
            try harness.render(scene)
            let p = harness.heePixel(scene, 85, 45)
            #expect(p.r > 200 && p.g > 200 && p.b < 170, "pressed cap at 2×: \(p)")
            expectColor(harness.heePixel(scene, 35, 70), Palette.middle, tolerance: 1)
        }
    }
}
