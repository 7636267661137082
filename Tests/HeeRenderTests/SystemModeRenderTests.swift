import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// System mode (`--system`): the line above the keys that names the window they go to.
    @Suite struct SystemMode {
        static let size = KeyboardLayout.defaultSystemWindowSize()
        let harness: RenderHarness
        init() throws { harness = try RenderHarness(size: Self.size) }

        /// The scene of a system-mode keyboard whose keys go to a window titled `title`.
        func scene(title: String) -> Scene {
            var session = KeyboardSession(windowSize: Self.size, mode: .system)
            _ = session.handle(.launched, at: .zero)
            _ = session.handle(.keyTargetChanged(.window(FocusedWindow(id: 0x1a00004, title: title))), at: .zero)
            return Scene(session: session, at: .seconds(1), language: .en)
        }

        /// The columns of the target line that hold ink (anything but the keyboard's background).
        func inkedColumns(_ scene: Scene) -> [Int] {
            let line = scene.layout.targetLine
            return (Int(line.minX)..<Int(line.maxX)).filter { x in
                (Int(line.minY)..<Int(line.maxY)).contains { y in
                    distance(harness.surface.pixel(x: x, y: y), Palette.keyboardBackground.rgba8) > 24
                }
            }
        }

        /// A title too long for the line is cut with "…" to end within the line's inset; a
        /// shorter one drawn next (the fit is kept between frames, keyed by the text) is whole.
        @Test func longTitleIsCutToFitAndRefittedWhenItChanges() throws {
            let inset = 16  // SceneRenderer.rowTextInset (points; the harness draws at scale 1)
            let long = scene(title: String(repeating: "a very long window title ", count: 8))
            try harness.render(long)
            try harness.render(long)  // the fit as kept from the first frame
            let inked = inkedColumns(long)
            let right = Int(long.layout.targetLine.maxX) - inset
            #expect(inked.first.map { $0 >= inset - 1 } == true, "ink starts at the inset: \(inked.first ?? -1)")
            #expect(inked.last.map { $0 < right } == true, "ink ends before the right inset \(right): \(inked.last ?? -1)")
            #expect(inked.last.map { $0 > right - 30 } == true, "the cut line fills the room: ends at \(inked.last ?? -1)")

            let short = scene(title: "xterm")
            try harness.render(short)
            let shortInked = inkedColumns(short)
            #expect(!shortInked.isEmpty)
            #expect(shortInked.last.map { $0 < right / 2 } == true, "a short title is short: ends at \(shortInked.last ?? -1)")
        }
    }
}
