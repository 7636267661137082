import KeyboardCore
import Testing

/// Issue 28: system mode announces the characters one press may type next
/// (`.prepareKeys`, `keysToPrepare`) whenever they change, most urgent first — the keys held,
/// a bubble's choices, what a touch-down types at once (the kana pad's commit, 「へぇ〜」),
/// then the layer shown — so the app can get keys ready before the press.
@Suite("System mode: keys to prepare (issue 28)")
struct PrepareKeysTests {
    static let letters = "qwertyuiopasdfghjklzxcvbnm"
    static let numbers = "1234567890-/:;()$&@\".,?!'"
    static let symbols = "[]{}#%^*+=_\\|~<>€£¥•.,?!'"

    /// The texts of every `.prepareKeys`, in order.
    static func prepared(_ effects: [KeyboardEffect]) -> [String] {
        effects.compactMap { if case .prepareKeys(let text) = $0 { text } else { nil } }
    }

    @Test func launchAnnouncesHeeAndTheFirstLayer() {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system)
        let effects = session.send(.launched, at: 0)
        #expect(Self.prepared(effects) == ["へぇ〜" + Self.letters])
        #expect(session.keysToPrepare == "へぇ〜" + Self.letters)
        // Nothing changed: nothing announced again.
        #expect(Self.prepared(session.send(.tick, at: 100)).isEmpty)
    }

    @Test func theHostScreenAnnouncesNothing() throws {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize)
        var effects = session.send(.launched, at: 0)
        effects += try session.tap("123", at: 100)
        effects += session.send(.pointerDown(.mouse, try session.center(of: "$")), at: 300)
        effects += session.send(.tick, at: 300 + 500)
        #expect(Self.prepared(effects).isEmpty)
        #expect(session.keysToPrepare.isEmpty)
    }

    @Test func aLayerShownIsAnnouncedBeforeAnyOfItsKeysIsPressed() throws {
        var session = SystemModeTests.launched()
        let layerKey = try session.center(of: "123")
        let numbers = session.send(.pointerDown(.mouse, layerKey), at: 100)
        #expect(Self.prepared(numbers) == ["へぇ〜" + Self.numbers])
        #expect(Self.prepared(session.send(.pointerUp(.mouse, layerKey), at: 140)).isEmpty)
        let symbols = try session.tap("#+=", at: 300)
        #expect(Self.prepared(symbols) == ["へぇ〜" + Self.symbols])
    }

    @Test func aTouchedKeyComesFirstUntilItTyped() throws {
        var session = SystemModeTests.launched()
        try session.tap("123", at: 100)
        try session.tap("#+=", at: 300)
        let point = try session.center(of: "¥")
        let down = session.send(.pointerDown(.mouse, point), at: 500)
        #expect(Self.prepared(down) == ["¥へぇ〜" + Self.symbols.filter { $0 != "¥" }])
        let up = session.send(.pointerUp(.mouse, point), at: 540)
        #expect(SystemModeTests.sends(up) == [.text("¥")])
        #expect(Self.prepared(up) == ["へぇ〜" + Self.symbols])
        // The keystroke goes before the announcement of the same input.
        let sendIndex = try #require(up.firstIndex { if case .send = $0 { true } else { false } })
        let prepareIndex = try #require(up.firstIndex { if case .prepareKeys = $0 { true } else { false } })
        #expect(sendIndex < prepareIndex)
    }

    @Test func aSlideAnnouncesTheKeyUnderTheFinger() throws {
        var session = SystemModeTests.launched()
        session.send(.pointerDown(.mouse, try session.center(of: "123")), at: 100)
        let moved = session.send(.pointerMoved(.mouse, try session.center(of: "$")), at: 150)
        #expect(Self.prepared(moved).first?.hasPrefix("$へぇ〜") == true)
    }

    @Test func anOpenBubbleAnnouncesItsChoicesFirstInTheCaseShiftGave() throws {
        var session = try AlternatesTests.holding("e", mode: .system)
        let due = session.send(.tick, at: 1000 + AlternatesTests.delay)
        #expect(Self.prepared(due) == ["èéêëēėęへぇ〜" + Self.letters])
        var shifted = SystemModeTests.launched()
        try shifted.tap(.shift, at: 100)
        shifted.send(.pointerDown(.mouse, try shifted.center(of: "e")), at: 1000)
        let opened = shifted.send(.tick, at: 1000 + AlternatesTests.delay)
        #expect(Self.prepared(opened).first?.hasPrefix("ÈÉÊËĒĖĘへぇ〜QWERTY") == true)
    }

    @Test func heldKeysComeInPointerOrder() throws {
        var session = SystemModeTests.launched()
        try session.tap("123", at: 100)
        try session.tap("#+=", at: 300)
        // A second finger on € while the first holds £: the first types (rollover) first.
        session.send(.pointerDown(.finger(1), try session.center(of: "£")), at: 500)
        let second = session.send(.pointerDown(.finger(2), try session.center(of: "€")), at: 520)
        #expect(SystemModeTests.sends(second) == [.text("£")])
        #expect(Self.prepared(second).first?.hasPrefix("€へぇ〜") == true)
    }

    @Test func theKanaPadAnnouncesItsCompositionAndFirstCandidateBeforeHee() throws {
        var session = KeyboardSession.kana(mode: .system)
        var converter: FakeKanaKanjiConverter? = FakeKanaKanjiConverter()
        var effects: [KeyboardEffect] = []
        for (index, (key, direction)) in nihongo.enumerated() {
            effects += try session.flick(key, direction, at: 1000 + 300 * index, converter: &converter)
        }
        #expect(session.keysToPrepare.hasPrefix("にほんご日本語へぇ〜"))
        #expect(Self.prepared(effects).last == session.keysToPrepare)
        // Committed: the composition is no longer among them.
        let cell = try #require(session.kana.candidateBar.cells.first { $0.text == "日本語" })
        session.send(.pointerDown(.mouse, cell.frame.center), at: 3000)
        session.send(.pointerUp(.mouse, cell.frame.center), at: 3050)
        #expect(session.keysToPrepare.hasPrefix("へぇ〜"))
    }
}
