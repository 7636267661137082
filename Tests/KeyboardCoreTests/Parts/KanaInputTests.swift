import KeyboardCore
import Testing

/// The `KanaInput` part alone: what the pad's answers mean for the other parts (text for the
/// document, a composition shown at the caret, the candidate bar laid out in its frame), the
/// flick guide and the release of a flick key.
@Suite("KanaInput (part)")
struct KanaInputTests {
    static let bar = Rect(x: 0, y: 400, width: 480, height: 40)

    static func kana() -> KanaInput { KanaInput(flickOnly: false, definition: .japaneseKana, barFrame: bar) }

    static func tap(_ key: String, at time: Int) throws -> KanaPadInput {
        .kanaKey(try #require(KanaKey.standard(key)), .tap, touchDown: ms(time))
    }

    @Test func aKanaIsShownAtTheCaretAndSentForConversion() throws {
        var kana = Self.kana()
        #expect(!kana.isComposing && kana.compositionText == nil)
        let answer = kana.handle(try Self.tap("か", at: 1_000), at: ms(1_040), barFrame: Self.bar)
        #expect(answer.effects == [.compositionShown, .report(.compositionChanged("か", cursor: 1)), .report(.convert("か"))])
        #expect(!answer.passThrough)
        #expect(kana.isComposing && kana.compositionText == "か")
    }

    @Test func candidatesAreLaidOutInTheBarsFrameAndACommitIsTextForTheDocument() throws {
        var kana = Self.kana()
        _ = kana.handle(try Self.tap("か", at: 1_000), at: ms(1_040), barFrame: Self.bar)
        let segments = [KanaKanjiSegment(reading: "か", candidates: ["蚊", "か"])]
        let answer = kana.handle(.conversion(reading: "か", segments: segments), at: ms(1_050), barFrame: Self.bar)
        #expect(kana.candidateBar.frame == Self.bar && kana.candidateBar.cells.map(\.text) == ["蚊", "か"])
        #expect(answer.effects == [.report(.candidatesChanged(kana.candidateBar))])
        let committed = kana.handle(.candidate(0), at: ms(1_100), barFrame: Self.bar)
        #expect(Array(committed.effects.prefix(2)) == [.report(.kanaCommitted("蚊")), .insertText("蚊")])
        #expect(!kana.isComposing && kana.candidateBar.cells.isEmpty)
    }

    @Test func aKeyPassesThroughWhenNothingIsComposed() {
        var kana = Self.kana()
        let answer = kana.handle(.space, at: ms(100), barFrame: Self.bar)
        #expect(answer.passThrough && answer.effects.isEmpty)
    }

    @Test func aFlickKeyLetGoTypesWhereTheFingerPoints() throws {
        let table = try #require(LayoutDefinition.japaneseKana.kanaKey("か"))
        var gesture = FlickGesture(touchDownAt: Point(x: 100, y: 100))
        gesture.move(to: Point(x: 100, y: 150))
        let flick = FlickHold(pointer: .mouse, key: "か", gesture: gesture, touchDown: ms(5), point: Point(x: 100, y: 150))
        #expect(KanaInput.input(releasing: flick, in: .japaneseKana) == .kanaKey(table, .flick(.down), touchDown: ms(5)))
        #expect(Self.kana().guide(for: flick, in: .japaneseKana) == FlickGuide(targets: table.flicks, selected: .down))
        let modifier = FlickHold(pointer: .mouse, key: .kanaModifier, gesture: FlickGesture(touchDownAt: Point(x: 0, y: 0)),
                                 touchDown: .zero, point: Point(x: 0, y: 0))
        #expect(KanaInput.input(releasing: modifier, in: .japaneseKana) == .modifierKey(.center))
    }

    @Test func anotherLayoutStartsAnEmptyPadKeepingItsSettings() throws {
        var kana = KanaInput(flickOnly: true, definition: .japaneseKana, barFrame: Self.bar)
        _ = kana.handle(try Self.tap("か", at: 1_000), at: ms(1_040), barFrame: Self.bar)
        let moved = Rect(x: 0, y: 300, width: 600, height: 40)
        kana.relayout(barFrame: moved)
        #expect(kana.candidateBar.frame == moved && kana.isComposing, "a resize keeps the composition")
        kana.layoutSwitched(to: .english, barFrame: .zero)
        #expect(!kana.isComposing && kana.pad.isFlickOnly && kana.candidateBar.frame == .zero)
    }

    @Test func theRevisionCountsTheCompositionAndTheBar() throws {
        var kana = Self.kana()
        let start = kana.revision
        _ = kana.handle(.space, at: ms(100), barFrame: Self.bar)
        #expect(kana.revision == start, "passed through: nothing drawn changed")
        _ = kana.handle(try Self.tap("か", at: 1_000), at: ms(1_040), barFrame: Self.bar)
        #expect(kana.revision != start)
    }
}
