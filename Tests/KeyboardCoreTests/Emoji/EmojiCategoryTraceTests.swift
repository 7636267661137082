import KeyboardCore
import Testing

/// The trace's `emojiCategory` line (issue 34): once when the emoji keyboard opens, then only
/// when the category shown changes — a category key, or a page turn running into the next
/// category — never for a page turn within one.
@Suite("Emoji category trace")
struct EmojiCategoryTraceTests {
    private func categories(_ effects: [KeyboardEffect]) -> [EmojiCategory] {
        effects.compactMap { if case .emojiCategoryChanged(let category) = $0 { category } else { nil } }
    }

    @Test func itIsSaidWhenTheKeyboardOpensAndAfterTheLayoutLine() throws {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, mode: .hostScreen,
                                      layouts: [.english, EmojiPanel.placeholder])
        _ = session.handle(.launched, at: .zero)
        #expect(try session.tap(.globe, at: 100).contains(.emojiDataNeeded))
        let shown = session.send(.emojiData(EmojiData.text), at: 110)
        #expect(categories(shown) == [.smileys])
        let layout = try #require(shown.lastIndex(of: .layoutChanged))
        let category = try #require(shown.firstIndex(of: .emojiCategoryChanged(.smileys)))
        #expect(layout < category)
        // With something used, Frequently Used opens first.
        _ = try session.tap("😀", at: 200)
        try session.tap(EmojiPanel.abcKey, at: 300)
        #expect(categories(try session.tap(.globe, at: 400)) == [.recents])
    }

    @Test func aCategoryKeyAndAPageTurnIntoTheNextCategorySayIt() throws {
        var session = try KeyboardSession.emoji()
        #expect(categories(try session.tap("emoji:animals", at: 300)) == [.animals])
        #expect(categories(try session.tap("emoji:animals", at: 400)).isEmpty, "already shown")
        #expect(categories(try session.tap("emoji:food", at: 500)) == [.food])
        // The wheel back from food's first page: animals' last page, another category.
        #expect(categories(session.send(.scroll(steps: -1), at: 600)) == [.animals])
        #expect(session.layerName.hasPrefix("animals."))
        // Within animals: page turns, no line.
        #expect(categories(session.send(.scroll(steps: -1), at: 700)).isEmpty)
        #expect(session.layerName.hasPrefix("animals"))
    }

    @Test func aDragThatTurnsThePageIntoTheNextCategorySaysIt() throws {
        var session = try KeyboardSession.emoji()
        try session.tap("emoji:activity", at: 300)
        session.send(.scroll(steps: -1), at: 400)  // food's last page
        #expect(session.layerName.hasPrefix("food"))
        let point = try session.center(of: session.shownEmoji[0])
        session.send(.pointerDown(.finger(1), point), at: 500)
        let turned = session.send(.pointerMoved(.finger(1), Point(x: point.x - 40, y: point.y)), at: 520)
        #expect(session.layerName == "activity")
        #expect(categories(turned) == [.activity])
        session.send(.pointerUp(.finger(1), Point(x: point.x - 40, y: point.y)), at: 540)
    }
}
