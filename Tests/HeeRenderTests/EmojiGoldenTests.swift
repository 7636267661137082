import Foundation
import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Issue 34's golden frames: the emoji keyboard's Smileys & People page, and 👍 held with
    /// its bubble of five skin tones (👍🏽 highlighted), drawn in colour through Debian's
    /// fonts-noto-color-emoji (a bitmap font, scaled from its fixed size), with English labels
    /// at 1 pixel per point and Japanese ones at 2. `HEE_RECORD_GOLDEN=1` re-records.
    @Suite struct EmojiGoldenImages {
        enum Shot: String, CaseIterable { case grid, tones }

        static let delay = Int(AlternatesBubble.holdDelay.seconds * 1000)
        static let data = (try? String(contentsOfFile: repositoryRoot + "/emoji/emoji.tsv", encoding: .utf8)) ?? ""

        /// A session showing the emoji keyboard (en → ja-kana → emoji) with 😀 typed, at `shot`.
        static func session(_ shot: Shot) throws -> KeyboardSession {
            var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize,
                                          layouts: [.english, .japaneseKana, EmojiPanel.placeholder])
            _ = session.handle(.launched, at: .zero)
            func center(_ key: KeyID) throws -> Point { try #require(session.layout.keys[key]).center }
            func tap(_ key: KeyID, at ms: Int) throws {
                let p = try center(key)
                _ = session.handle(.pointerDown(.mouse, p), at: .milliseconds(ms))
                _ = session.handle(.pointerUp(.mouse, p), at: .milliseconds(ms + 40))
            }
            try tap(.globe, at: 100)
            try tap(.globe, at: 200)
            _ = session.handle(.emojiData(data), at: .milliseconds(210))
            #expect(session.definition.name == "emoji" && session.layerName == "smileys")
            try tap("😀", at: 300)
            if shot == .tones {
                while session.layout.keys["👍"] == nil { _ = session.handle(.scroll(steps: 1), at: .milliseconds(400)) }
                _ = session.handle(.pointerDown(.finger(1), try center("👍")), at: .milliseconds(1000))
                _ = session.handle(.tick, at: .milliseconds(1000 + Self.delay))
                let medium = try #require(session.pointers.bubble?.choices[2])
                _ = session.handle(.pointerMoved(.finger(1), medium.frame.center), at: .milliseconds(1600))
                #expect(session.pointers.bubble?.selectedText == "👍🏽")
            }
            return session
        }

        @Test(arguments: Shot.allCases, [(Language.en, 1.0), (Language.ja, 2.0)])
        func emojiScene(shot: Shot, labels: (language: Language, scale: Double)) throws {
            let harness = try RenderHarness(pixelScale: labels.scale)
            let scene = Scene(session: try Self.session(shot), at: .seconds(3), language: labels.language)
            let actual = try harness.render(scene)
            try GoldenImages().compare(actual, to: "emoji-\(shot.rawValue)-\(labels.language.rawValue)-x\(Int(labels.scale))")
        }

        /// The へぇ button above the emoji grid is the one above the letters, pixel for pixel
        /// (seed 000's frame and drawing), and the grid's emoji are drawn in colour.
        @Test(arguments: [1.0, 2.0])
        func theHeeButtonIsTheLettersOneAndTheEmojiAreColoured(scale: Double) throws {
            let emoji = try RenderHarness(pixelScale: scale)
            let emojiScene = Scene(session: try Self.session(.grid), at: .seconds(3), language: .en)
            try emoji.render(emojiScene)
            let letters = try RenderHarness(pixelScale: scale)
            var session = RenderHarness.launchedSession()
            _ = session.handle(.textInput("😀"), at: .milliseconds(300))
            let lettersScene = Scene(session: session, at: .seconds(3), language: .en)
            try letters.render(lettersScene)
            #expect(emojiScene.layout.heeFrame == lettersScene.layout.heeFrame)
            let f = emojiScene.layout.heeFrame
            var differing = 0
            for y in Int(f.minY * scale) ..< Int(f.maxY * scale) {
                for x in Int(f.minX * scale) ..< Int(f.maxX * scale)
                where emoji.surface.pixel(x: x, y: y) != letters.surface.pixel(x: x, y: y) { differing += 1 }
            }
            #expect(differing == 0)
            // 😀's key: a yellow face (red and green high, blue low) at its centre.
            let key = try #require(emojiScene.layout.keys["😀"])
            let yellow = (Int(key.minX * scale) ..< Int(key.maxX * scale)).contains { x in
                let p = emoji.surface.pixel(x: x, y: Int(key.midY * scale))
                return p.r > 200 && p.g > 150 && p.b < 100
            }
            #expect(yellow, "😀 is drawn in colour")
        }
    }
}
