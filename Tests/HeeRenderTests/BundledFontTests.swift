import Foundation
import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// A bundled font that opens but cannot draw what the seeds show is a bad font file
    /// (`failedFont`, exit 65 in the app), never a へぇ button quietly drawn without its laurels.
    /// Nested in the serialized `RenderTests`: SDL_ttf's TTF_Init/TTF_Quit and FreeType's library
    /// are not thread-safe (as a suite of its own it ran beside the render tests, and ASan's leak
    /// checker caught a FreeType library lost to the race).
    @Suite("Bundled fonts")
    struct BundledFontTests {
        /// An assets directory like the repository's, with HeeLaurel.ttf cut to `bytes` bytes.
        static func assets(laurelBytes bytes: Int?) throws -> String {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hee-fonts-\(UUID().uuidString)")
            let fonts = dir.appendingPathComponent("fonts")
            try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
            for face in FontFace.allCases {
                let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot).appendingPathComponent(face.relativePath))
                let kept = face == .laurel && bytes != nil ? data.prefix(bytes!) : data
                try kept.write(to: dir.appendingPathComponent(face.relativePath))
            }
            return dir.path
        }

        /// HeeLaurel.ttf cut short before its glyph outlines end (1,000 of 2,164 bytes: the
        /// character map survives, the outlines do not) opened and drew a button without laurels.
        @Test func aLaurelFontWithoutItsOutlinesIsABadFontFile() throws {
            let dir = try Self.assets(laurelBytes: 1000)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let surface = try Surface(width: 480, height: 800)
            let renderer = try Renderer(surface: surface)
            let library = try TTFLibrary()
            let text = try TextRenderer(renderer: renderer, library: library, assetsDirectory: dir)
            #expect(throws: SDLError.self) { try text.bundledFont(.laurel, pixels: 34) }
            #expect(text.failedFont?.reason == "it has no glyph for U+E000")
            #expect(text.failedFont?.path.hasSuffix("fonts/HeeLaurel.ttf") == true)
            // The whole scene fails to draw the same way (the app exits 65 naming the file).
            var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize)
            _ = session.handle(.launched, at: .zero)
            #expect(throws: SDLError.self) {
                try SceneRenderer(renderer: renderer, text: text).draw(Scene(session: session, at: .zero), pixelScale: 1)
            }
        }

        /// The file as shipped, and one that lost only its trailing name and post tables (the
        /// outlines whole, the laurels drawn as before), are fine.
        @Test func aLaurelFontWithItsOutlinesIsUsed() throws {
            for bytes in [nil, 1500] as [Int?] {
                let dir = try Self.assets(laurelBytes: bytes)
                defer { try? FileManager.default.removeItem(atPath: dir) }
                let surface = try Surface(width: 480, height: 800)
                let renderer = try Renderer(surface: surface)
                let text = try TextRenderer(renderer: renderer, library: try TTFLibrary(), assetsDirectory: dir)
                let font = try text.bundledFont(.laurel, pixels: 34)
                #expect(font.provides(FontFace.laurelLeading) && font.provides(FontFace.laurelTrailing))
                #expect(text.failedFont == nil)
            }
        }
    }
}
