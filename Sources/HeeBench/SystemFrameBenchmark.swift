import HeeRender
import KeyboardCore

/// System mode's frame cost (`HeeBench`, part of `make bench`): the docked keyboard on a
/// 1280-pixel-wide output, drawn whole, and drawn by its changes (`SceneRenderer.drawChanges`)
/// for a letter's press and release and for the へぇ button's press animation, each with the
/// copy of what changed into a buffer the size of the frame (what Wayland system mode's
/// presenter does into its wl_shm buffer).
enum SystemFrameBenchmark {
    static let size = Size(width: 1280, height: KeyboardLayout.defaultSystemWindowSize().height)

    /// name → draw times in milliseconds, `frames` of each.
    static func run(assets: String, frames: Int) throws(SDLError) -> [(String, [Double])] {
        let surface = try Surface(width: Int(size.width), height: Int(size.height))
        let renderer = try Renderer(surface: surface)
        let library = try TTFLibrary()
        let text = try TextRenderer(renderer: renderer, library: library, assetsDirectory: assets)
        let scenes = SceneRenderer(renderer: renderer, text: text)
        let pitch = surface.width * 4
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: pitch * surface.height, alignment: 16)
        defer { buffer.deallocate() }

        var session = KeyboardSession(windowSize: size, mode: .system)
        _ = session.handle(.launched, at: .zero)
        let rest = Scene(session: session, at: .seconds(20), language: .en)
        let a = session.layout.keys["a"]!.center, hee = session.layout.heeFrame.center
        var letter = session
        _ = letter.handle(.pointerDown(.mouse, a), at: .seconds(20))
        let letterDown = Scene(session: letter, at: .seconds(20), language: .en)
        var pressed = session
        _ = pressed.handle(.pointerDown(.mouse, hee), at: .seconds(20))

        func measure(_ scene: (Int) -> Scene, changes: Bool) throws(SDLError) -> [Double] {
            var times: [Double] = []
            for i in 0..<(frames + 10) {
                let t0 = nanoseconds()
                if changes, let rects = try scenes.drawChanges(scene(i), pixelScale: 1) {
                    for r in rects { try renderer.readPixels(in: r, into: buffer + r.y * pitch + r.x * 4, pitch: pitch) }
                } else {
                    try scenes.draw(scene(i), pixelScale: 1)
                    try renderer.readPixels(into: buffer, pitch: pitch)
                }
                if i >= 10 { times.append(Double(nanoseconds() - t0) / 1e6) }  // the first ones warm the caches
            }
            return times
        }
        return [
            ("system: whole frame", try measure({ i in i % 2 == 0 ? rest : letterDown }, changes: false)),
            ("system: a letter's press or release", try measure({ i in i % 2 == 0 ? rest : letterDown }, changes: true)),
            ("system: press animation", try measure({ i in
                Scene(session: pressed, at: .seconds(20) + .milliseconds(i % 100), language: .en)
            }, changes: true)),
        ]
    }
}
