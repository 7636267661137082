import KeyboardCore
import Testing

/// The kana pad's composition in the session: where it is shown, how it is edited, and every
/// way it becomes text — on the host screen's field and, in system mode, as keystrokes.
@Suite("Kana pad in the session: composition and commits")
struct KanaSessionCommitTests {
    /// A session with にほんご composed and converted by the fake converter.
    static func composedNihongo(mode: KeyboardMode = .hostScreen) throws -> (KeyboardSession, FakeKanaKanjiConverter?) {
        var session = KeyboardSession.kana(mode: mode)
        var converter: FakeKanaKanjiConverter? = FakeKanaKanjiConverter()
        try session.type(nihongo, from: 1000, converter: &converter)
        return (session, converter)
    }

    @Test func theCompositionIsShownNotTyped() throws {
        let (session, converter) = try Self.composedNihongo()
        #expect(session.reading == "にほんご")
        #expect(session.kanaCompositionText == "にほんご")
        #expect(session.document.textField.text.isEmpty)
        #expect(converter?.asked == ["に", "にほ", "にほん", "にほんこ", "にほんご"])
        #expect(session.kana.candidateBar.cells.map(\.text) == ["日本語", "にほんご", "ニホンゴ"])
        #expect(session.isComposing)
    }

    @Test func theCandidateBarIsAcrossTheTopOfTheKeyboardFrame() throws {
        let (session, _) = try Self.composedNihongo()
        let bar = session.layout.candidateBar
        #expect(bar.minY == session.layout.keyboardFrame.minY && bar.width == session.layout.keyboardFrame.width)
        #expect(bar.height == KeyboardLayout.candidateBarHeight)
        #expect(bar.maxY <= session.layout.heeFrame.minY, "above the へぇ button")
        for cell in session.kana.candidateBar.cells {
            #expect(cell.frame.minX >= bar.minX && cell.frame.maxX <= bar.maxX && cell.frame.minY == bar.minY)
        }
        #expect(KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize).layout.candidateBar == .zero, "en has none")
    }

    @Test func tappingACandidateCommitsIt() throws {
        var (session, _) = try Self.composedNihongo()
        let cell = try #require(session.kana.candidateBar.cells.first { $0.text == "日本語" })
        var effects = session.send(.pointerDown(.mouse, cell.frame.center), at: 3000)
        #expect(effects.commits.isEmpty, "a candidate commits when released")
        effects = session.send(.pointerUp(.mouse, cell.frame.center), at: 3050)
        #expect(effects.commits == ["日本語"])
        #expect(effects.texts == ["日本語"])
        #expect(session.document.textField.text == "日本語" && !session.isComposing)
        #expect(session.kana.candidateBar.cells.isEmpty)
    }

    @Test func aCandidateReleasedElsewhereCommitsNothing() throws {
        var (session, _) = try Self.composedNihongo()
        let cell = try #require(session.kana.candidateBar.cells.first)
        session.send(.pointerDown(.mouse, cell.frame.center), at: 3000)
        let effects = session.send(.pointerUp(.mouse, try session.center(of: "あ")), at: 3050)
        #expect(effects.commits.isEmpty && session.reading == "にほんご")
    }

    @Test func nextCandidateThenConfirm() throws {
        var (session, _) = try Self.composedNihongo()
        try session.flick(.space, at: 3000)
        #expect(session.kanaCompositionText == "日本語")
        #expect(session.kana.candidateBar.selected == 0)
        try session.flick(.space, at: 3300)
        #expect(session.kanaCompositionText == "にほんご")
        let effects = try session.flick(.return, at: 3600)
        #expect(effects.commits == ["にほんご"])
        #expect(session.document.textField.text == "にほんご")
        #expect(session.hostScreen.isTextFieldFocused, "確定 does not end editing")
        // Nothing composed: 改行 is return again (the host screen's field ends editing).
        try session.flick(.return, at: 4000)
        #expect(!session.hostScreen.isTextFieldFocused)
    }

    @Test func confirmCommitsTheReading() throws {
        var session = KeyboardSession.kana()
        try session.flick("か", at: 1000)
        let effects = try session.flick(.return, at: 1300)
        #expect(effects.commits == ["か"] && session.document.textField.text == "か")
    }

    @Test func spaceWithNothingComposedTypesASpace() throws {
        var session = KeyboardSession.kana()
        try session.flick(.space, at: 1000)
        #expect(session.document.textField.text == " ")
    }

    @Test func backspaceDeletesFromTheCompositionFirst() throws {
        var session = KeyboardSession.kana()
        session.send(.textInput("AB"), at: 500)
        var none: FakeKanaKanjiConverter?
        try session.type(nihongo, from: 1000, converter: &none)
        session.send(.pointerDown(.mouse, try session.center(of: .backspace)), at: 3000)
        session.send(.pointerUp(.mouse, try session.center(of: .backspace)), at: 3040)
        #expect(session.reading == "にほん" && session.document.textField.text == "AB")
        // Held: the repeats delete the rest of the composition, then the text before it.
        let point = try session.center(of: .backspace)
        session.send(.pointerDown(.mouse, point), at: 4000)
        #expect(session.reading == "にほ")
        session.send(.tick, at: 4500)
        session.send(.tick, at: 4600)
        #expect(session.reading.isEmpty && session.document.textField.text == "AB")
        session.send(.tick, at: 4700)
        #expect(session.document.textField.text == "A")
        session.send(.pointerUp(.mouse, point), at: 4750)
    }

    @Test func backspaceAfterNextCandidateGoesBackToTheReading() throws {
        var (session, _) = try Self.composedNihongo()
        try session.flick(.space, at: 3000)
        #expect(session.kanaCompositionText == "日本語")
        try session.flick(.backspace, at: 3300)
        #expect(session.kanaCompositionText == "にほんご")
    }

    @Test func theHeeButtonCommitsThenTypesHee() throws {
        var (session, _) = try Self.composedNihongo()
        try session.flick(.space, at: 3000)
        let effects = session.send(.pointerDown(.mouse, session.layout.heeFrame.center), at: 3300)
        #expect(effects.commits == ["日本語"])
        #expect(effects.texts == ["日本語", "日本語へぇ〜"])
        session.send(.pointerUp(.mouse, session.layout.heeFrame.center), at: 3350)
        #expect(!session.isComposing)
    }

    @Test func aNewKanaAfterNextCandidateCommitsTheChoice() throws {
        var (session, _) = try Self.composedNihongo()
        try session.flick(.space, at: 3000)
        let effects = try session.flick("、", .left, at: 3300)
        #expect(effects.commits == ["日本語"] && session.reading == "。")
    }

    @Test func closingTheKeyboardCommits() throws {
        var (session, _) = try Self.composedNihongo()
        let effects = session.click(.closeKeyboard, at: 3000)
        #expect(effects.commits == ["にほんご"] && session.document.textField.text == "にほんご")
    }

    @Test func typingOnThePhysicalKeyboardCommitsFirst() throws {
        var (session, _) = try Self.composedNihongo()
        session.send(.textInput("x"), at: 3000)
        #expect(session.document.textField.text == "にほんごx" && !session.isComposing)
    }

    @Test func rolloverReleasesTheHeldFlickAtItsLastPoint() throws {
        var session = KeyboardSession.kana()
        let a = try session.center(of: "あ")
        session.send(.pointerDown(.finger(1), a), at: 1000)
        session.send(.pointerMoved(.finger(1), Point(x: a.x, y: a.y - 40)), at: 1020)
        let effects = session.send(.pointerDown(.finger(2), try session.center(of: "か")), at: 1040)
        #expect(effects.compositions == ["う"], "the held あ types う at once")
        session.send(.pointerUp(.finger(1), Point(x: a.x, y: a.y + 40)), at: 1060)
        #expect(session.reading == "う", "its later release does nothing")
        session.send(.pointerUp(.finger(2), try session.center(of: "か")), at: 1080)
        #expect(session.reading == "うか")
    }

    @Test func aCancelledFlickTypesNothing() throws {
        var session = KeyboardSession.kana()
        session.send(.pointerDown(.mouse, try session.center(of: "あ")), at: 1000)
        session.send(.pointersCancelled, at: 1020)
        #expect(session.reading.isEmpty && session.pointers.flick == nil)
    }

    @Test func systemModeSendsOnlyWhatIsCommitted() throws {
        var (session, _) = try Self.composedNihongo(mode: .system)
        #expect(session.layout.candidateBar.minY == session.layout.keyboardFrame.minY)
        let cell = try #require(session.kana.candidateBar.cells.first { $0.text == "日本語" })
        var effects = session.send(.pointerDown(.mouse, cell.frame.center), at: 3000)
        effects += session.send(.pointerUp(.mouse, cell.frame.center), at: 3050)
        #expect(effects.sent == [.text("日本語")])
        effects = session.send(.pointerDown(.mouse, session.layout.heeFrame.center), at: 3300)
        #expect(effects.sent == [.text("へぇ〜")])
        session.send(.pointerUp(.mouse, session.layout.heeFrame.center), at: 3350)
        effects = try session.flick("、", .left, at: 3600)
        #expect(effects.sent.isEmpty && session.kanaCompositionText == "。")
        effects = try session.flick(.return, at: 3900)
        #expect(effects.sent == [.text("。")])
        effects = try session.flick(.return, at: 4200)
        #expect(effects.sent == [.key(.return)], "nothing composed: 改行 is Return")
        effects = try session.flick(.kanaNext, at: 4500)
        #expect(effects.sent == [.key(.right)], "nothing composed: → moves the caret right")
    }
}
