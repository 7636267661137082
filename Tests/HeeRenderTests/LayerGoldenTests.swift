import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// Issue 20's golden frames: each layer of the built-in English layout, the alternates
    /// bubble (`e` held, `é` highlighted) and the space bar's trackpad (labels faded), with
    /// English labels at 1 pixel per point and Japanese ones at 2, compared with reviewed
    /// images as `GoldenImages` does (`HEE_RECORD_GOLDEN=1` re-records).
    @Suite struct LayerGoldenImages {
        /// The scenes drawn: a layer, the bubble, the trackpad.
        enum Shot: String, CaseIterable {
            case letters, numbers, symbols, bubble, trackpad
        }

        static let delay = Int(AlternatesBubble.holdDelay.seconds * 1000)

        /// A session showing `shot` at 3 s (text typed, the caret's blink settled on).
        static func session(_ shot: Shot) throws -> KeyboardSession {
            var session = RenderHarness.launchedSession()
            _ = session.handle(.textInput("Hi, it's 3:45"), at: .milliseconds(100))
            func center(_ key: KeyID) throws -> Point { try #require(session.layout.keys[key]).center }
            func tap(_ key: KeyID, at ms: Int) throws {
                let p = try center(key)
                _ = session.handle(.pointerDown(.mouse, p), at: .milliseconds(ms))
                _ = session.handle(.pointerUp(.mouse, p), at: .milliseconds(ms + 40))
            }
            switch shot {
            case .letters:
                break
            case .numbers:
                try tap("123", at: 200)
            case .symbols:
                try tap("123", at: 200)
                try tap("#+=", at: 400)
            case .bubble:
                _ = session.handle(.pointerDown(.finger(1), try center("e")), at: .milliseconds(1000))
                _ = session.handle(.tick, at: .milliseconds(1000 + Self.delay))
                let acute = try #require(session.pointers.bubble?.choices[1])
                _ = session.handle(.pointerMoved(.finger(1), acute.frame.center), at: .milliseconds(1600))
                #expect(session.pointers.bubble?.selectedText == "é")
            case .trackpad:
                let space = try center(.space)
                _ = session.handle(.pointerDown(.finger(1), space), at: .milliseconds(1000))
                _ = session.handle(.tick, at: .milliseconds(1000 + Self.delay))
                _ = session.handle(.pointerMoved(.finger(1), Point(x: space.x - 40, y: space.y)), at: .milliseconds(1600))
                #expect(session.pointers.trackpad != nil)
                #expect(session.document.textField.caret == 9)
            }
            return session
        }

        @Test(arguments: Shot.allCases, [(Language.en, 1.0), (Language.ja, 2.0)])
        func layerScene(shot: Shot, labels: (language: Language, scale: Double)) throws {
            let harness = try RenderHarness(pixelScale: labels.scale)
            let session = try Self.session(shot)
            let scene = Scene(session: session, at: .seconds(3), language: labels.language)
            let actual = try harness.render(scene)
            try GoldenImages().compare(actual, to: "layer-\(shot.rawValue)-\(labels.language.rawValue)-x\(Int(labels.scale))")
        }
    }
}
