import Foundation
import KeyboardCore
import Testing

/// The kana pad's 顔文字 (issue 34, iOS's ^_^): a tap on 「゛゜小」 with nothing composed fills
/// the candidate bar with the list from `emoji/kaomoji.tsv`; a tap on one types it whole.
@Suite("Kaomoji")
struct KaomojiTests {
    /// The committed file, read from the source tree.
    static let committed: String = {
        let repo = #filePath.split(separator: "/").dropLast(4).joined(separator: "/")
        return (try? String(contentsOfFile: "/" + repo + "/emoji/kaomoji.tsv", encoding: .utf8)) ?? ""
    }()

    @Test func theCommittedListParsesInOrderWithoutComments() {
        let faces = Kaomoji.parse(Self.committed)
        #expect(faces.count >= 40)
        #expect(faces.first == "(^_^)")
        #expect(faces.contains("m(_ _)m") && faces.contains("(´・ω・`)") && faces.contains("ヽ(´▽`)/"))
        #expect(!faces.contains { $0.hasPrefix("#") || $0.isEmpty })
        #expect(Set(faces).count == faces.count)
    }

    @Test func parsingSkipsBlanksDuplicatesAndNotes() {
        #expect(Kaomoji.parse("# c\n\n(^_^)\tsmile\n  \n(^_^)\r\n(T_T)\n") == ["(^_^)", "(T_T)"])
        #expect(Kaomoji.parse("").isEmpty)
        #expect(Kaomoji.parse(String(repeating: "x\n", count: 1)) == ["x"])
        let many = (0 ..< 500).map { "f\($0)" }.joined(separator: "\n")
        #expect(Kaomoji.parse(many).count == Kaomoji.limit)
    }

    @Test func aTapWithNothingComposedShowsTheListAndATapInItCommitsOne() {
        var pad = KanaPad()
        pad.kaomoji = ["(^_^)", "m(_ _)m"]
        let shown = pad.handle(.modifierKey(.center), at: ms(100))
        #expect(shown == [.candidatesChanged([KanaCandidate(text: "(^_^)", readingLength: 0),
                                              KanaCandidate(text: "m(_ _)m", readingLength: 0)], selected: nil)])
        #expect(pad.composition.isEmpty && pad.composition.showsList)
        #expect(pad.handle(.candidate(1), at: ms(200)) == [.commit("m(_ _)m"), .candidatesChanged([], selected: nil)])
        #expect(!pad.composition.showsList)
    }

    @Test func aSecondTapClosesItAndAKanaReplacesIt() {
        var pad = KanaPad()
        pad.kaomoji = ["(^_^)"]
        _ = pad.handle(.modifierKey(.center), at: ms(100))
        #expect(pad.handle(.modifierKey(.center), at: ms(200)) == [.candidatesChanged([], selected: nil)], "closed, nothing passed through")
        _ = pad.handle(.modifierKey(.center), at: ms(300))
        let typed = pad.press("か", at: 400)
        #expect(typed == [.compositionChanged("か"), .candidatesChanged([], selected: nil), .convert("か")])
        // While composing, the key is 「゛゜小」 again: か → が.
        #expect(pad.handle(.modifierKey(.center), at: ms(600)).first == .compositionChanged("が"))
        // Other keys close the list and do what they do with nothing composed.
        var other = KanaPad()
        other.kaomoji = ["(^_^)"]
        _ = other.handle(.modifierKey(.center), at: ms(100))
        #expect(other.handle(.space, at: ms(200)) == [.candidatesChanged([], selected: nil), .passThrough])
    }

    @Test func withoutAListTheTapDoesNothingAsBefore() {
        var pad = KanaPad()
        #expect(pad.handle(.modifierKey(.center), at: ms(100)) == [.passThrough])
    }

    @Test func inTheSessionTheFaceIsTypedIntoTheField() throws {
        var session = KeyboardSession.kana()
        session.send(.kaomojiData(Self.committed), at: 5)
        try session.flick("゛゜小", at: 100)
        let cells = session.kana.candidateBar.cells
        #expect(cells.first?.text == "(^_^)")
        #expect(!session.isComposing, "nothing is composed: the bar holds a list")
        let cell = try #require(cells.first { $0.text == "m(_ _)m" } ?? cells.last)
        session.send(.pointerDown(.mouse, cell.frame.center), at: 200)
        let up = session.send(.pointerUp(.mouse, cell.frame.center), at: 240)
        #expect(up.contains(.kanaCommitted(cell.text)))
        #expect(session.document.textField.text == cell.text)
        #expect(session.kana.candidateBar.cells.isEmpty)
        // The globe key and back keep the list.
        try session.flick(.globe, at: 300)
        try session.flick(.globe, at: 400)
        try session.flick("゛゜小", at: 500)
        #expect(session.kana.candidateBar.cells.first?.text == "(^_^)")
    }
}
