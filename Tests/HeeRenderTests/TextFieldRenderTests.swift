import HeeRender
import KeyboardCore
import Testing

extension RenderTests {
    /// The text field draws its caret, selection and composition where the model says.
    @Suite struct TextField {
        let harness: RenderHarness
        let style = TextStyle(.regular, 17, Palette.label)
        init() throws { harness = try RenderHarness() }

        /// The field's content rectangle (pixels at 1×): the row minus its 16 pt insets.
        func content(_ scene: Scene) -> (x: Int, y0: Int, y1: Int, width: Int) {
            let f = scene.layout.textField
            return (Int(f.minX) + 16, Int(f.minY), Int(f.maxY), Int(f.width) - 32)
        }

        /// x positions (pixels) of caret-coloured columns in the field.
        func caretColumns(_ scene: Scene) -> [Int] {
            let c = content(scene)
            let y = (c.y0 + c.y1) / 2
            return (c.x..<c.x + c.width).filter { distance(harness.surface.pixel(x: $0, y: y), Palette.tint.rgba8) <= 2 }
        }

        func session(typing text: String) -> KeyboardSession {
            var session = RenderHarness.launchedSession()
            _ = session.handle(.textInput(text), at: .seconds(1))
            return session
        }

        @Test func caretStandsAtTheModelsOffset() throws {
            var s = session(typing: "abcdef")
            for _ in 0..<3 { _ = s.handle(.editing(.move(.characterLeft)), at: .seconds(2)) }
            let scene = Scene(session: s, at: .seconds(2))
            #expect(scene.caret == 3)
            try harness.render(scene)
            let expected = content(scene).x + harness.text.width(of: "abc", style, pixelScale: 1)
            let columns = caretColumns(scene)
            #expect(columns.first == expected, "caret at \(columns.first ?? -1), expected \(expected)")
            #expect(columns.count == 2, "a 2 pt caret")
        }

        @Test func hiddenBlinkPhaseDrawsNoCaret() throws {
            var scene = Scene(session: session(typing: "abc"), at: .seconds(1))
            scene.isCaretVisible = false
            try harness.render(scene)
            #expect(caretColumns(scene).isEmpty)
        }

        /// Composition: drawn at the caret, underlined, not part of the text; the caret sits at
        /// the IME's cursor inside it.
        @Test func compositionIsUnderlinedAtTheCaret() throws {
            var s = session(typing: "ab")
            _ = s.handle(.composition("にほん", cursor: 2), at: .seconds(2))
            #expect(s.document.textField.text == "ab")
            let scene = Scene(session: s, at: .seconds(2))
            try harness.render(scene)
            let c = content(scene)
            let start = c.x + harness.text.width(of: "ab", style, pixelScale: 1)
            let end = c.x + harness.text.width(of: "abにほん", style, pixelScale: 1)
            // The underline: a row below the text where the label colour runs from start to end.
            var underlineRow: Int?
            for y in (c.y0 + c.y1) / 2..<c.y1 {
                let dark = (start..<end).filter { distance(harness.surface.pixel(x: $0, y: y), Palette.label.rgba8) <= 10 }.count
                if dark >= (end - start) - 2 {
                    underlineRow = y
                    break
                }
            }
            let row = try #require(underlineRow, "no underline under the composition")
            #expect(distance(harness.surface.pixel(x: start - 3, y: row), Palette.row.rgba8) <= 2, "underline starts at the composition")
            #expect(distance(harness.surface.pixel(x: end + 3, y: row), Palette.row.rgba8) <= 2, "and ends with it")
            let caret = caretColumns(scene).first
            #expect(caret == c.x + harness.text.width(of: "abにほ", style, pixelScale: 1), "caret at the IME cursor")
        }

        @Test func selectionIsHighlightedOverItsCharacters() throws {
            var s = session(typing: "hello world")
            _ = s.handle(.editing(.move(.wordLeft, extendingSelection: true)), at: .seconds(2))
            #expect(s.document.textField.selectedText == "world")
            let scene = Scene(session: s, at: .seconds(2))
            try harness.render(scene)
            let c = content(scene)
            let x0 = c.x + harness.text.width(of: "hello ", style, pixelScale: 1)
            let x1 = c.x + harness.text.width(of: "hello world", style, pixelScale: 1)
            let highlight = Palette.selection.composited(over: Palette.row).rgba8
            let top = (c.y0 + c.y1) / 2 - 10
            #expect(distance(harness.surface.pixel(x: x0 + 4, y: top), highlight) <= 3, "after the caret, inside the selection")
            #expect(distance(harness.surface.pixel(x: x1 - 2, y: top), highlight) <= 3)
            #expect(distance(harness.surface.pixel(x: x0 - 4, y: top), Palette.row.rgba8) <= 2, "not before the selection")
        }

        /// 100,000 characters: the field scrolls so the caret stays inside it, at the end and
        /// back at the start.
        @Test func longTextScrollsToKeepTheCaretInView() throws {
            let long = String(repeating: "へぇ〜abcd ", count: 12_500)
            var s = session(typing: long)
            #expect(s.document.textField.count == 100_000)
            var scene = Scene(session: s, at: .seconds(1))
            try harness.render(scene)
            let c = content(scene)
            let atEnd = try #require(caretColumns(scene).first, "caret visible at the end")
            #expect(atEnd > c.x + c.width / 2 && atEnd <= c.x + c.width - 2, "caret at the right edge: \(atEnd)")
            _ = s.handle(.editing(.move(.start)), at: .seconds(2))
            scene = Scene(session: s, at: .seconds(2))
            try harness.render(scene)
            #expect(caretColumns(scene).first == c.x, "caret at the left edge after Home")
            // Moving right a few characters does not scroll: the caret moves instead.
            for _ in 0..<3 { _ = s.handle(.editing(.move(.characterRight)), at: .seconds(3)) }
            scene = Scene(session: s, at: .seconds(3))
            try harness.render(scene)
            #expect(caretColumns(scene).first == c.x + harness.text.width(of: "へぇ〜", style, pixelScale: 1))
        }
    }
}
