import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// The desktop row (issue 21) as iOS draws its special keys: grey caps with their labels;
    /// Ctrl and Alt show their state as shift does — grey off, white latched, white with a
    /// bar under the label locked — and keep that colour while held.
    @Suite struct DesktopRow {
        static let size = KeyboardLayout.defaultSystemWindowSize()
        static let rowKeys: [KeyID] = ["esc", "tab", "ctrl", "alt", "left", "down", "up", "right"]
        let harness: RenderHarness
        init() throws { harness = try RenderHarness(size: Self.size) }

        func scene(ctrl: ShiftState = .off, alt: ShiftState = .off, pressed: Set<KeyID> = []) -> Scene {
            var session = KeyboardSession(windowSize: Self.size, mode: .system)
            _ = session.handle(.launched, at: .zero)
            var scene = Scene(session: session, at: .seconds(1), language: .en)
            scene.ctrlState = ctrl
            scene.altState = alt
            scene.pressedKeys = pressed
            return scene
        }

        func pixels(_ key: KeyID, _ scene: Scene) -> [RGBA8] {
            let r = scene.layout.keys[key]!
            var out: [RGBA8] = []
            for y in Int(r.minY)..<Int(r.maxY) { for x in Int(r.minX)..<Int(r.maxX) { out.append(harness.surface.pixel(x: x, y: y)) } }
            return out
        }

        func ink(_ pixels: [RGBA8]) -> Int { pixels.filter { Int($0.r) + Int($0.g) + Int($0.b) < 200 }.count }

        /// The cap's colour, sampled inside its rounded corner.
        func capColor(_ key: KeyID, _ scene: Scene) -> RGBA8 {
            let r = scene.layout.keys[key]!
            return harness.surface.pixel(x: Int(r.minX) + 4, y: Int(r.minY) + 4)
        }

        /// Dark pixels in the band where a locked modifier's bar goes (under the label).
        func barInk(_ key: KeyID, _ scene: Scene) -> Int {
            let r = scene.layout.keys[key]!
            var count = 0
            for y in Int(r.maxY) - 9..<Int(r.maxY) - 3 {
                for x in Int(r.minX)..<Int(r.maxX) where Int(harness.surface.pixel(x: x, y: y).r) < 60 { count += 1 }
            }
            return count
        }

        @Test func restingRowIsGreyWithLabels() throws {
            let s = scene()
            try harness.render(s)
            var images: [KeyID: [RGBA8]] = [:]
            for key in Self.rowKeys {
                expectColor(capColor(key, s), Palette.specialKey, tolerance: 2, "\(key)")
                let image = pixels(key, s)
                #expect(ink(image) > 15, "\(key) has its label drawn")
                #expect(barInk(key, s) == 0, "\(key): no bar at rest")
                images[key] = image
            }
            // Four different arrows (the bundled font has the glyphs, not four boxes alike).
            let arrows: [KeyID] = ["left", "down", "up", "right"]
            for (i, a) in arrows.enumerated() {
                for b in arrows[(i + 1)...] { #expect(differingPixels(images[a]!, images[b]!) > 20, "\(a) vs \(b)") }
            }
        }

        @Test("off grey, latched white, locked white with a bar", arguments: [KeyID("ctrl"), KeyID("alt")])
        func modifierStates(key: KeyID) throws {
            var bars: [ShiftState: Int] = [:]
            var images: [ShiftState: [RGBA8]] = [:]
            for state in ShiftState.allCases {
                let s = key == "ctrl" ? scene(ctrl: state) : scene(alt: state)
                try harness.render(s)
                expectColor(capColor(key, s), state == .off ? Palette.specialKey : Palette.key, tolerance: 2, "\(key) \(state)")
                bars[state] = barInk(key, s)
                images[state] = pixels(key, s)
                // The other modifier stays grey.
                expectColor(capColor(key == "ctrl" ? "alt" : "ctrl", s), Palette.specialKey, tolerance: 2)
            }
            #expect(bars[.off] == 0 && bars[.on] == 0)
            #expect(bars[.capsLock]! >= 10, "locked: a bar under the label (\(bars[.capsLock]!) dark pixels)")
            #expect(ink(images[.on]!) > 15)
            #expect(differingPixels(images[.on]!, images[.capsLock]!) >= 10)
        }

        @Test func heldModifierKeepsItsStateColour() throws {
            // Held down, Ctrl is latched (white) and stays white, as shift does; a held arrow
            // turns white as iOS's grey keys do.
            let s = scene(ctrl: .on, pressed: ["ctrl", "left"])
            try harness.render(s)
            expectColor(capColor("ctrl", s), Palette.key, tolerance: 2, "held ctrl")
            expectColor(capColor("left", s), Palette.key, tolerance: 2, "held arrow")
            let locked = scene(ctrl: .capsLock, pressed: ["ctrl"])
            try harness.render(locked)
            expectColor(capColor("ctrl", locked), Palette.key, tolerance: 2, "held locked ctrl")
            #expect(barInk("ctrl", locked) >= 10)
        }

        @Test func noRowWhenHidden() throws {
            let size = KeyboardLayout.defaultSystemWindowSize(keyRows: 4)
            let hidden = try RenderHarness(size: size)
            var session = KeyboardSession(windowSize: size, mode: .system, desktopKeys: false)
            _ = session.handle(.launched, at: .zero)
            let s = Scene(session: session, at: .seconds(1), language: .en)
            try hidden.render(s)
            #expect(s.layout.keys["ctrl"] == nil && s.faces["ctrl"] == nil)
        }
    }
}
