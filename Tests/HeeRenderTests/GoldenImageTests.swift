import Foundation
import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Whole frames compared with reviewed reference images (software renderer, bundled
    /// fonts, fixed size). On a mismatch the actual, expected and difference images are
    /// written to `artifacts/`. `HEE_RECORD_GOLDEN=1 swift test` re-records; CI never does.
    @Suite struct GoldenImages {
        static let goldenDirectory = repositoryRoot + "/Tests/HeeRenderTests/Golden"
        static let artifacts = repositoryRoot + "/artifacts"
        /// A pixel differs when a channel is off by more than this...
        static let tolerance = 24
        /// ...and at most this share of pixels may differ (anti-aliasing across FreeType builds).
        static let budget = 0.002

        @Test(arguments: ["rest", "pressed"])
        func keyboardScene(name: String) throws {
            let harness = try RenderHarness()
            var session = RenderHarness.launchedSession()
            _ = session.handle(.textInput("へぇ〜 Hello"), at: .seconds(1))
            var scene = Scene(session: session, at: .seconds(2))
            scene.counterText = HeeButtonModel(count: 42).counterText
            if name == "pressed" {
                scene.capPress = 1
                scene.shiftState = .capsLock
                scene.lettersUpperCase = true
            }
            let actual = try harness.render(scene)
            try compare(actual, to: "keyboard-\(name)")
        }

        func compare(_ actual: Surface, to name: String) throws {
            let path = "\(Self.goldenDirectory)/\(name).png"
            if ProcessInfo.processInfo.environment["HEE_RECORD_GOLDEN"] == "1" {
                try PNGFile.write(actual, to: path)
                return
            }
            let expected = try PNGFile.read(path)
            try #require(expected.width == actual.width && expected.height == actual.height, "size differs from \(path)")
            let diff = try Surface(width: actual.width, height: actual.height)
            var differing = 0
            diff.withPixels { d, pitch in
                for y in 0..<actual.height {
                    for x in 0..<actual.width {
                        let off = distance(actual.pixel(x: x, y: y), expected.pixel(x: x, y: y))
                        if off > Self.tolerance { differing += 1 }
                        d[y * pitch + x] = off > Self.tolerance ? 0xFFFF_0000 : 0xFF20_2020
                    }
                }
            }
            let share = Double(differing) / Double(actual.width * actual.height)
            if share > Self.budget {
                try FileManager.default.createDirectory(atPath: Self.artifacts, withIntermediateDirectories: true)
                try PNGFile.write(actual, to: "\(Self.artifacts)/\(name)-actual.png")
                try PNGFile.write(expected, to: "\(Self.artifacts)/\(name)-expected.png")
                try PNGFile.write(diff, to: "\(Self.artifacts)/\(name)-diff.png")
            }
            #expect(share <= Self.budget, "\(differing) pixels differ from \(path); see \(Self.artifacts)/\(name)-*.png")
        }
    }
}
