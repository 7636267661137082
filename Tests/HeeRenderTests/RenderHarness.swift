import Foundation
import HeeRender
import KeyboardCore
import Testing

/// The repository's root, found from this file's path (the tests read the bundled fonts).
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// Draws scenes with the software renderer into a memory surface: no window, no SDL_Init.
final class RenderHarness {
    let surface: Surface
    let renderer: Renderer
    let library: TTFLibrary
    let text: TextRenderer
    let sceneRenderer: SceneRenderer
    let pixelScale: Double

    /// A harness for a window of `size` points at `pixelScale` pixels per point.
    init(size: Size = KeyboardLayout.defaultWindowSize, pixelScale: Double = 1) throws {
        self.pixelScale = pixelScale
        surface = try Surface(width: Int(size.width * pixelScale), height: Int(size.height * pixelScale))
        renderer = try Renderer(surface: surface)
        library = try TTFLibrary()
        text = try TextRenderer(renderer: renderer, library: library, assetsDirectory: repositoryRoot)
        sceneRenderer = SceneRenderer(renderer: renderer, text: text)
    }

    /// Draws `scene` and returns the target surface.
    @discardableResult
    func render(_ scene: Scene) throws -> Surface {
        try sceneRenderer.draw(scene, pixelScale: pixelScale)
        renderer.present()
        return surface
    }

    /// A launched session for `size`, and its scene at time `t`.
    static func launchedSession(size: Size = KeyboardLayout.defaultWindowSize) -> KeyboardSession {
        var session = KeyboardSession(windowSize: size)
        _ = session.handle(.launched, at: .zero)
        return session
    }

    /// The pixel at a point of the へぇ button's 170 × 180 design space.
    func heePixel(_ scene: Scene, _ x: Double, _ y: Double) -> RGBA8 {
        let p = heePixelPosition(scene, x, y)
        return surface.pixel(x: p.x, y: p.y)
    }

    func heePixelPosition(_ scene: Scene, _ x: Double, _ y: Double) -> (x: Int, y: Int) {
        let f = scene.layout.heeFrame.offsetBy(dy: scene.keyboardOffset)
        let k = scene.layout.heeScale
        return (Int(((f.x + x * k) * pixelScale).rounded(.down)), Int(((f.y + y * k) * pixelScale).rounded(.down)))
    }
}

/// Asserts two colours agree within `tolerance` per channel (alpha ignored).
func expectColor(_ actual: RGBA8, _ expected: Color, tolerance: Int = 3,
                 _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    let e = expected.rgba8
    let d = max(abs(Int(actual.r) - Int(e.r)), abs(Int(actual.g) - Int(e.g)), abs(Int(actual.b) - Int(e.b)))
    #expect(d <= tolerance, "\(actual) is not \(e) (±\(tolerance)) \(comment.map { "– \($0)" } ?? "")",
            sourceLocation: sourceLocation)
}

/// Largest per-channel difference between two colours.
func distance(_ a: RGBA8, _ b: RGBA8) -> Int {
    max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
}

/// All render tests share SDL_ttf and FreeType, which are not thread-safe: run them one at a
/// time, in this suite and the suites nested in it (in the other files).
@Suite(.serialized) struct RenderTests {}

/// How many pixels differ between two equally long pixel lists (a count, so a failure
/// message stays one line).
func differingPixels(_ a: [RGBA8], _ b: [RGBA8]) -> Int {
    zip(a, b).filter { $0 != $1 }.count + abs(a.count - b.count)
}
