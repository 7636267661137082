import KeyboardCore
import Testing

/// The caret blinks after activity (visible the first half of each second) and stays solid
/// after 10 s without activity, so an idle app sleeps.
struct CaretBlinkTests {
    @Test func blinksThenStaysSolid() {
        var session = KeyboardSession.launched()
        session.send(.textInput("a"), at: 1_000)
        #expect(session.isCaretVisible(at: ms(1_000)))
        #expect(session.isCaretVisible(at: ms(1_499)))
        #expect(!session.isCaretVisible(at: ms(1_500)))
        #expect(!session.isCaretVisible(at: ms(1_999)))
        #expect(session.isCaretVisible(at: ms(2_000)))
        #expect(session.nextDeadline(after: ms(1_000)) == ms(1_500))
        #expect(session.nextDeadline(after: ms(1_500)) == ms(2_000))
        // Solid after 10 s; nothing left to wake for.
        #expect(session.isCaretVisible(at: ms(11_000)))
        #expect(session.isCaretVisible(at: ms(11_700)))
        #expect(session.nextDeadline(after: ms(11_000)) == nil)
    }

    @Test func typingKeepsTheCaretVisible() {
        var session = KeyboardSession.launched()
        for i in 0..<20 {
            let t = 1_000 + i * 300
            session.send(.textInput("x"), at: t)
            #expect(session.isCaretVisible(at: ms(t)), "visible right after each keystroke")
        }
    }

    @Test func blinkTogglesAskForAFrame() {
        var session = KeyboardSession.launched()
        session.send(.textInput("a"), at: 1_000)
        #expect(session.send(.tick, at: 1_500).contains(.needsDisplay), "caret turns off")
        #expect(!session.send(.tick, at: 1_700).contains(.needsDisplay), "no change")
        #expect(session.send(.tick, at: 2_000).contains(.needsDisplay), "caret turns on")
    }

    @Test func noCaretAndNoBlinkWhileUnfocused() {
        var session = KeyboardSession.launched()
        session.click(.closeKeyboard, at: 1_000)
        #expect(!session.hostScreen.isTextFieldFocused)
        #expect(!session.isCaretVisible(at: ms(1_100)))
        #expect(session.nextBlink(after: ms(1_100)) == nil)
    }
}
