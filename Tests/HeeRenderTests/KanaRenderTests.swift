import Foundation
import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// The kana pad drawn (issue 22): its keys, 次候補 and a blue 確定 while composing, the
    /// flick guide around a held key with the selected kana on the tint colour, the candidate
    /// bar, system mode's composition line; golden frames of the pad at rest and composing.
    @Suite struct KanaPad {
        /// A launched host-screen session on `ja-kana`, with `en` for the globe key.
        static func session(mode: KeyboardMode = .hostScreen) -> KeyboardSession {
            let size = mode == .system ? KeyboardLayout.defaultSystemWindowSize(candidateBar: true) : KeyboardLayout.defaultWindowSize
            var session = KeyboardSession(windowSize: size, mode: mode, definition: .japaneseKana, layouts: [.english, .japaneseKana])
            _ = session.handle(.launched, at: .zero)
            return session
        }

        /// Flicks `key` at `time` ms (one key width or height in `direction`).
        static func flick(_ session: inout KeyboardSession, _ key: KeyID, _ direction: FlickDirection, at time: Int) {
            let rect = session.layout.keys[key]!
            let end = direction.end(from: rect)
            _ = session.handle(.pointerDown(.mouse, rect.center), at: .milliseconds(time))
            _ = session.handle(.pointerUp(.mouse, end), at: .milliseconds(time + 40))
        }

        /// にほんご composed, with these candidates as Anthy gives them.
        static func composing(mode: KeyboardMode = .hostScreen) -> KeyboardSession {
            var session = session(mode: mode)
            for (i, (key, direction)) in [(KeyID("な"), FlickDirection.left), ("は", .down), ("わ", .up), ("か", .down),
                                          (.kanaModifier, .left)].enumerated() {
                flick(&session, key, direction, at: 1000 + 300 * i)
            }
            _ = session.handle(.conversion(reading: "にほんご", segments: [
                KanaKanjiSegment(reading: "にほんご", candidates: ["日本語", "にほんご", "ニホンゴ"])]), at: .milliseconds(2500))
            return session
        }

        @Test func theKanaKeysAndTheComposingLabels() throws {
            let harness = try RenderHarness()
            let rest = Scene(session: Self.session(), at: .seconds(1))
            #expect(rest.faces["あ"]?.content == .text("あ", points: KeyFace.kanaPointSize))
            #expect(rest.faces["、"]?.content == .text("、。?!", points: KeyFace.kanaWordPointSize))
            #expect(rest.faces[.globe]?.content == .icon(.globe))
            #expect(rest.faces[.kanaNext]?.content == .icon(.nextArrow) && rest.faces[.kanaUndo]?.content == .icon(.undoArrow))
            #expect(rest.faces[.space]?.content == .text("空白", points: KeyFace.wordPointSize))
            #expect(rest.faces[.return]?.content == .text("改行", points: KeyFace.wordPointSize))
            #expect(rest.faces[.return]?.isProminent == false)
            let composing = Scene(session: Self.composing(), at: .seconds(3))
            #expect(composing.faces[.space]?.content == .text(KeyFace.nextCandidateLabel, points: KeyFace.wordPointSize))
            #expect(composing.faces[.return]?.content == .text(KeyFace.confirmLabel, points: KeyFace.wordPointSize))
            #expect(composing.faces[.return]?.isProminent == true)
            try harness.render(composing)
            // 確定 is a blue key: its corner area (away from the label) is the tint colour.
            let confirm = composing.layout.keys[.return]!
            expectColor(harness.surface.pixel(x: Int(confirm.minX) + 8, y: Int(confirm.maxY) - 8), Palette.tint, "確定's cap")
            // The composition is in the field, underlined (the field's text itself is empty).
            #expect(composing.composition?.text == "にほんご" && composing.text.isEmpty)
        }

        @Test func theCandidateBarDrawsEachCandidateInItsCell() throws {
            let harness = try RenderHarness()
            let scene = Scene(session: Self.composing(), at: .seconds(3))
            try harness.render(scene)
            #expect(scene.candidateBar.cells.map(\.text) == ["日本語", "にほんご", "ニホンゴ"])
            for cell in scene.candidateBar.cells {
                let ink = darkPixels(harness.surface, in: cell.frame)
                #expect(ink > 20, "\(cell.text) drawn in its cell (\(ink) dark pixels)")
            }
            let after = scene.candidateBar.cells.last!.frame.maxX + 10
            #expect(darkPixels(harness.surface, in: Rect(x: after, y: scene.layout.candidateBar.minY + 4, width: 100, height: 30)) == 0,
                    "nothing after the last cell")
        }

        @Test func theFlickGuideShowsTheNeighboursAndTheSelectedOne() throws {
            let harness = try RenderHarness()
            var session = Self.session()
            let ha = session.layout.keys["は"]!
            _ = session.handle(.pointerDown(.mouse, ha.center), at: .seconds(1))
            _ = session.handle(.pointerMoved(.mouse, Point(x: ha.center.x - ha.width, y: ha.midY)), at: .milliseconds(1020))
            let scene = Scene(session: session, at: .milliseconds(1040))
            #expect(scene.flickGuide?.guide.selected == .left)
            try harness.render(scene)
            // The left tile (ひ, selected) is the tint colour where it is not ink; the right one
            // (へ) white; the centre (は) white.
            let left = Rect(x: ha.minX - ha.width - 2, y: ha.minY, width: ha.width, height: ha.height)
            expectColor(harness.surface.pixel(x: Int(left.minX) + 6, y: Int(left.minY) + 6), Palette.tint, "ひ selected")
            // The right tile would stick out of the window: it is moved in, to the keyboard's edge.
            let right = Rect(x: scene.layout.keyboardFrame.maxX - ha.width, y: ha.minY, width: ha.width, height: ha.height)
            expectColor(harness.surface.pixel(x: Int(right.maxX) - 6, y: Int(right.minY) + 6), Palette.key, "へ")
            #expect(darkPixels(harness.surface, in: right) > 20, "へ drawn")
            let up = Rect(x: ha.minX, y: ha.minY - ha.height - 2, width: ha.width, height: ha.height)
            #expect(darkPixels(harness.surface, in: up) > 20, "ふ drawn above")
        }

        @Test func systemModeShowsTheCompositionInItsLineUnderlined() throws {
            let session = Self.composing(mode: .system)
            let harness = try RenderHarness(size: session.layout.windowSize)
            let scene = Scene(session: session, at: .seconds(3))
            #expect(scene.kanaComposition == "にほんご")
            try harness.render(scene)
            let line = scene.layout.targetLine
            #expect(darkPixels(harness.surface, in: line) > 100, "the composition drawn in the line")
            // The underline: a row of dark pixels below the text, across its width.
            let rows = (Int(line.midY)..<Int(line.maxY)).map { y in
                (Int(line.minX) + 20..<Int(line.minX) + 60).filter { x in
                    let p = harness.surface.pixel(x: x, y: y)
                    return Int(p.r) + Int(p.g) + Int(p.b) < 150
                }.count
            }
            #expect(rows.contains(40), "an underline row under the composition: \(rows)")
        }

        @Test(arguments: ["rest", "composing"])
        func golden(name: String) throws {
            let harness = try RenderHarness()
            var session = name == "rest" ? Self.session() : Self.composing()
            if name == "composing" {
                // 次候補 once (日本語 chosen), then は held and slid left (ひ selected).
                Self.flick(&session, .space, .center, at: 3000)
                let ha = session.layout.keys["は"]!
                _ = session.handle(.pointerDown(.mouse, ha.center), at: .milliseconds(3500))
                _ = session.handle(.pointerMoved(.mouse, Point(x: ha.center.x - ha.width, y: ha.midY)), at: .milliseconds(3520))
            }
            try GoldenImages().compare(try harness.render(Scene(session: session, at: .seconds(4))), to: "kana-\(name)")
        }

        /// Pixels darker than mid-grey in `rect` (points; the harness draws at scale 1).
        func darkPixels(_ surface: Surface, in rect: Rect) -> Int {
            var count = 0
            for y in max(Int(rect.minY), 0)..<min(Int(rect.maxY), surface.height) {
                for x in max(Int(rect.minX), 0)..<min(Int(rect.maxX), surface.width) {
                    let p = surface.pixel(x: x, y: y)
                    if Int(p.r) + Int(p.g) + Int(p.b) < 300 { count += 1 }
                }
            }
            return count
        }
    }
}
