import KeyboardCore
import Testing

/// The `Layouts` part alone: the globe key's layouts, the layer shown, the layout laid out
/// again for a new window size, and what a key does.
@Suite("Layouts (part)")
struct LayoutsTests {
    static func layouts(_ choices: [LayoutDefinition] = [], definition: LayoutDefinition = .english) -> Layouts {
        Layouts(windowSize: KeyboardLayout.defaultWindowSize, mode: .hostScreen, definition: definition, desktopKeys: false,
                layouts: choices)
    }

    @Test func withoutAnotherLayoutThereIsNoGlobeKey() {
        let one = Self.layouts([.english])
        #expect(one.choices.isEmpty && one.nextChoice == nil)
        #expect(one.layout.keys[.globe] == nil && one.layerName == "letters")
    }

    @Test func theGlobeKeyCyclesThroughTheChoices() throws {
        var layouts = Self.layouts([.english, .japaneseKana])
        #expect(layouts.choices.map(\.name) == ["en", "ja-kana"])
        #expect(layouts.layout.keys[.globe] != nil, "added beside the layer key")
        let next = try #require(layouts.nextChoice)
        #expect(next.name == "ja-kana")
        _ = layouts.showLayer("numbers")
        layouts.switchLayout(to: next)
        #expect(layouts.definition.name == "ja-kana" && layouts.layerName == layouts.definition.firstLayer.name)
        #expect(layouts.nextChoice?.name == "en")
    }

    @Test func showingALayerReportsItOnce() {
        var layouts = Self.layouts()
        #expect(layouts.showLayer("numbers") == [.layerChanged("numbers"), .layoutChanged])
        #expect(layouts.showLayer("numbers").isEmpty)
        #expect(layouts.showLayer("no such layer").isEmpty)
        #expect(layouts.layerName == "numbers")
    }

    @Test func aResizeKeepsTheLayerShown() {
        var layouts = Self.layouts()
        _ = layouts.showLayer("symbols")
        let same = layouts.resize(to: KeyboardLayout.defaultWindowSize)
        let wider = layouts.resize(to: Size(width: 600, height: 900))
        #expect(!same && wider)
        #expect(layouts.layout.windowSize == Size(width: 600, height: 900) && layouts.layerName == "symbols")
    }

    @Test func whatKeysDo() {
        let layouts = Self.layouts()
        #expect(layouts.action(of: "a") == .character("a"))
        #expect(layouts.isLayerKey("123") && !layouts.isLayerKey("a"))
        #expect(layouts.actsOnTouchDown(.shift) && !layouts.actsOnTouchDown(.space))
    }

    @Test func theRevisionCountsTheLayoutShown() {
        var layouts = Self.layouts()
        let start = layouts.revision
        _ = layouts.showLayer("letters")
        let resized = layouts.resize(to: KeyboardLayout.defaultWindowSize)
        #expect(!resized)
        #expect(layouts.revision == start)
        _ = layouts.showLayer("numbers")
        #expect(layouts.revision != start)
    }
}
