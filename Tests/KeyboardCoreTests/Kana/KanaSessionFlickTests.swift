import KeyboardCore
import Testing

/// Every flick direction of every key of the `ja-kana` layout, through the session (pointer
/// down, a move of one key width or height, up), in both layers; toggle cycles, `→`, `↶` and
/// 「゛゜小」 as the session drives them.
@Suite("Kana pad in the session: flicks and toggles")
struct KanaSessionFlickTests {
    static let layout = LayoutDefinition.japaneseKana

    /// Every flick key of a layer with each of its five directions.
    static func cases(_ layer: String) -> [(String, FlickDirection)] {
        let ids = layout.layer(named: layer)!.keyIDs.filter { layout.kanaKey($0) != nil }
        return ids.flatMap { id in FlickDirection.allCases.map { (id.name, $0) } }
    }

    @Test("every flick of every kana key", arguments: cases("kana"))
    func kanaFlick(key: String, direction: FlickDirection) throws {
        var session = KeyboardSession.kana()
        let effects = try session.flick(KeyID(key), direction, at: 1000)
        let expected = Self.layout.kanaKey(KeyID(key))!.flicks[direction]
        #expect(session.reading == (expected ?? ""))
        #expect(effects.compositions == (expected.map { [$0] } ?? []))
        #expect(effects.conversions == (expected.map { [$0] } ?? []), "the session asks to convert what is composed")
        #expect(effects.contains(.keyTouched(KeyID(key), down: true)) && effects.contains(.keyTouched(KeyID(key), down: false)))
        #expect(session.pointers.flick == nil && session.document.textField.text.isEmpty, "nothing reaches the field before a commit")
    }

    @Test("every flick of every number key", arguments: cases("numbers"))
    func numberFlick(key: String, direction: FlickDirection) throws {
        var session = KeyboardSession.kana()
        try session.flick("123", at: 500)
        #expect(session.layerName == "numbers")
        try session.flick(KeyID(key), direction, at: 1000)
        #expect(session.reading == (Self.layout.kanaKey(KeyID(key))!.flicks[direction] ?? ""))
    }

    @Test func theDirectionFollowsTheFingerAndTheGuideShowsIt() throws {
        var session = KeyboardSession.kana()
        let center = try session.center(of: "あ")
        session.send(.pointerDown(.mouse, center), at: 1000)
        #expect(session.flickGuide?.key == "あ")
        #expect(session.flickGuide?.guide.selected == .center)
        #expect(session.flickGuide?.guide.neighbours.map(\.text) == ["い", "う", "え", "お"])
        let redraw = session.send(.pointerMoved(.mouse, Point(x: center.x, y: center.y - 30)), at: 1020)
        #expect(session.flickGuide?.guide.selected == .up)
        #expect(redraw.contains(.needsDisplay), "the guide's selection is drawn")
        // Back to the centre: a new あ (away and back), not a toggle step.
        session.send(.pointerMoved(.mouse, Point(x: center.x + 3, y: center.y)), at: 1040)
        #expect(session.flickGuide?.guide.selected == .center)
        session.send(.pointerUp(.mouse, Point(x: center.x + 3, y: center.y)), at: 1060)
        #expect(session.reading == "あ")
        #expect(session.flickGuide == nil)
        // Sliding far over other keys never types them: the flick decides.
        session.send(.pointerDown(.mouse, center), at: 2000)
        let far = try session.center(of: "さ")
        session.send(.pointerMoved(.mouse, far), at: 2020)
        session.send(.pointerUp(.mouse, far), at: 2040)
        #expect(session.reading == "あえ")
    }

    @Test func tapsCycleWithinTheTimeoutAndStartANewKanaAfterIt() throws {
        var session = KeyboardSession.kana()
        try session.flick("あ", at: 1000)
        try session.flick("あ", at: 1200)
        try session.flick("あ", at: 1400)
        #expect(session.reading == "う")
        // 0.5 s after the last lift (1440): a new kana.
        try session.flick("あ", at: 1941)
        #expect(session.reading == "うあ")
        // た's cycle ends with っ, then starts again.
        for (i, t) in stride(from: 3000, to: 4400, by: 200).enumerated() {
            try session.flick("た", at: t)
            #expect(session.reading.last.map(String.init) == ["た", "ち", "つ", "て", "と", "っ", "た"][i])
        }
    }

    @Test func flickOnlyNeverSteps() throws {
        var session = KeyboardSession.kana(flickOnly: true)
        try session.flick("か", at: 1000)
        try session.flick("か", at: 1100)
        #expect(session.reading == "かか")
    }

    @Test func nextEndsTheCycleAndUndoStepsBack() throws {
        var session = KeyboardSession.kana()
        try session.flick("あ", at: 1000)
        try session.flick(.kanaNext, at: 1100)
        try session.flick("あ", at: 1200)
        #expect(session.reading == "ああ")
        try session.flick("あ", at: 1300)
        try session.flick("あ", at: 1400)
        #expect(session.reading == "あう")
        try session.flick(.kanaUndo, at: 1500)
        #expect(session.reading == "あい")
        try session.flick(.kanaUndo, at: 1600)
        try session.flick(.kanaUndo, at: 1700)
        #expect(session.reading == "あぉ", "あ steps back to the end of its cycle")
        try session.flick("あ", at: 1800)
        #expect(session.reading == "ああ", "a tap continues the cycle from where ↶ left it: ぉ → あ")
    }

    @Test("「゛゜小」 taps and flicks through the session", arguments: [
        ("は", FlickDirection.center, ["ば", "ぱ", "は"]), ("つ", .center, ["っ", "づ", "つ"]), ("う", .center, ["ぅ", "ゔ", "う"]),
        ("は", .left, ["ば"]), ("は", .right, ["ぱ"]), ("や", .up, ["ゃ"]), ("か", .right, ["か"]), ("つ", .up, ["っ"]),
    ])
    func modifier(base: String, direction: FlickDirection, expected: [String]) throws {
        var session = KeyboardSession.kana()
        let plan: [String: (KeyID, FlickDirection)] = ["は": ("は", .center), "つ": ("た", .up), "う": ("あ", .up), "や": ("や", .center),
                                                        "か": ("か", .center)]
        let (key, keyDirection) = plan[base]!
        try session.flick(key, keyDirection, at: 1000)
        #expect(session.reading == base)
        for (i, form) in expected.enumerated() {
            try session.flick(.kanaModifier, direction, at: 1300 + 300 * i)
            #expect(session.reading == form)
        }
    }

    @Test func theModifierGuideShowsTheLastKanasForms() throws {
        var session = KeyboardSession.kana()
        try session.flick("は", at: 1000)
        session.send(.pointerDown(.mouse, try session.center(of: .kanaModifier)), at: 1300)
        let guide = try #require(session.flickGuide?.guide)
        #expect(guide.targets == FlickTargets(center: "ば", left: "ば", up: nil, right: "ぱ", down: nil))
    }

    @Test func aModifierWithNothingComposedDoesNothing() throws {
        var session = KeyboardSession.kana()
        let effects = try session.flick(.kanaModifier, .left, at: 1000)
        #expect(effects.compositions.isEmpty && effects.texts.isEmpty)
    }
}
