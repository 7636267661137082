import KeyboardCore
import Testing

/// The globe key (issue 22): beside `123` when there is more than one layout, switching
/// between them in the user's order, committing the composition, and the keyboard's frame
/// following the layout shown.
@Suite("Globe key")
struct GlobeKeyTests {
    @Test func englishGetsAGlobeKeyBeside123WhenThereAreTwoLayouts() throws {
        let session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, layouts: [.english, .japaneseKana])
        let bottom = try #require(session.definition.firstLayer.rows.last)
        #expect(bottom.compactMap(\.keyID) == ["123", .globe, .space, .return])
        for layer in session.definition.layers {
            #expect(layer.keyIDs.contains(.globe), "in layer \(layer.name)")
        }
        let globe = try #require(session.layout.keys[.globe])
        let numbers = try #require(session.layout.keys["123"])
        #expect(globe.minX > numbers.maxX && globe.width == numbers.width && globe.minY == numbers.minY)
        // One layout: no globe key, the layout as it is.
        #expect(!KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, layouts: [.english]).layout.keys.keys.contains(.globe))
        #expect(KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize).definition == .english)
    }

    /// A layout file's row added below the bottom row (a new-user trial's "zz") does not lose
    /// the globe key: it goes beside the layer key of the lowest row that has one.
    @Test func theGlobeKeyGoesToTheLowestRowWithALayerKey() throws {
        var extra = LayoutDefinition.english
        extra.name = "extra"
        extra.layers[0].rows.append([.key("zz")])
        try extra.validate()
        let withGlobe = extra.withGlobeKey()
        let rows = withGlobe.firstLayer.rows
        #expect(rows[rows.count - 2].compactMap(\.keyID) == ["123", .globe, .space, .return])
        #expect(rows.last?.compactMap(\.keyID) == ["zz"])
        #expect(withGlobe.layers.allSatisfy { $0.keyIDs.contains(.globe) })
    }

    @Test func theGlobeKeySwitchesLayoutsAndTheFrameFollows() throws {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, layouts: [.english, .japaneseKana])
        _ = session.handle(.launched, at: .zero)
        session.send(.tick, at: 10)
        let englishFrame = session.layout.keyboardFrame
        #expect(session.hostScreen.monitor.keyboardRect == englishFrame)
        var effects = session.send(.pointerDown(.mouse, try session.center(of: .globe)), at: 1000)
        #expect(session.definition.name == "ja-kana")
        #expect(effects.contains(.keyboardLayoutChanged("ja-kana")) && effects.contains(.layoutChanged))
        let kanaFrame = session.layout.keyboardFrame
        #expect(kanaFrame.height == englishFrame.height + KeyboardLayout.candidateBarHeight)
        #expect(kanaFrame.maxY == englishFrame.maxY, "the keyboard stays along the bottom edge")
        #expect(effects.frameChanges == [.keyboardFrameChanged(.show, kanaFrame)], "seed 001's size readout follows at once")
        #expect(session.hostScreen.monitor.sizeText == "(480.0, \(kanaFrame.height))")
        effects = session.send(.pointerUp(.mouse, try session.center(of: .globe)), at: 1050)
        #expect(session.definition.name == "ja-kana", "the globe acts when touched, once")
        effects = session.send(.pointerDown(.mouse, try session.center(of: .globe)), at: 2000)
        #expect(session.definition.name == "en" && session.layout.keyboardFrame == englishFrame)
        #expect(effects.contains(.keyboardLayoutChanged("en")))
    }

    @Test func switchingCommitsTheComposition() throws {
        var session = KeyboardSession.kana()
        try session.flick("か", at: 1000)
        let effects = session.send(.pointerDown(.mouse, try session.center(of: .globe)), at: 1300)
        #expect(effects.commits == ["か"])
        #expect(session.document.textField.text == "か" && !session.isComposing)
        #expect(session.definition.name == "en" && session.layout.candidateBar == .zero)
    }

    @Test func aLayoutOutsideTheListGoesToTheFirst() throws {
        let mine = LayoutDefinition(name: "mine", columns: 10, layers: [LayerDefinition(name: "only", rows: [
            [.key(.hee)], [.key("x"), .key("ABC")]])], keys: ["ABC": KeyDefinition(action: .showLayer("only"))])
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, definition: mine, layouts: [.japaneseKana, .english])
        _ = session.handle(.launched, at: .zero)
        #expect(session.layout.keys.keys.contains(.globe))
        session.send(.pointerDown(.mouse, try session.center(of: .globe)), at: 1000)
        #expect(session.definition.name == "ja-kana")
    }

    @Test func theWindowsSmallestSizeHoldsEveryLayout() {
        let both = KeyboardLayout.minimumWindowSize(for: .hostScreen, definitions: [.english, .japaneseKana], desktopKeys: false)
        #expect(both.height == KeyboardLayout.minimumWindowSize(for: .hostScreen).height + KeyboardLayout.candidateBarHeight)
        let system = KeyboardLayout.minimumWindowSize(for: .system, definitions: [.english, .japaneseKana], desktopKeys: true)
        #expect(system.height == KeyboardLayout.minimumWindowSize(for: .system).height + KeyboardLayout.candidateBarHeight)
    }

    @Test func theKanaLayoutFitsWithoutOverlapAtItsSmallestSize() {
        for mode in [KeyboardMode.hostScreen, .system] {
            let minimum = KeyboardLayout.minimumWindowSize(for: mode, definitions: [.japaneseKana], desktopKeys: mode == .system)
            for layer in LayoutDefinition.japaneseKana.layers {
                let layout = KeyboardLayout(windowSize: minimum, mode: mode, definition: .japaneseKana, layer: layer.name)
                let rects = layout.orderedKeys.compactMap { layout.keys[$0] }
                for (i, a) in rects.enumerated() {
                    #expect(a.minX >= 0 && a.maxX <= minimum.width + 1e-9 && a.maxY <= minimum.height + 1e-9)
                    #expect(a.minY >= layout.candidateBar.maxY - 1e-9)
                    for b in rects[(i + 1)...] {
                        let overlap = a.minX < b.maxX - 1e-9 && b.minX < a.maxX - 1e-9 && a.minY < b.maxY - 1e-9 && b.minY < a.maxY - 1e-9
                        #expect(!overlap, "\(mode) \(layer.name): \(a) and \(b)")
                    }
                }
            }
        }
    }
}
