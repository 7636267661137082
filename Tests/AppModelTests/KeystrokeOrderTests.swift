import AppModel
import Testing

/// Wayland system mode's order of text (input method) and keys (virtual keyboard): what waits
/// for the application's answer, what an answer is, and the wait after the virtual keyboard
/// joins the seat (issue 28, classes 3, 4 and 7).
@Suite("Keystroke order on Wayland")
struct KeystrokeOrderTests {
    typealias Surrounding = KeystrokeOrder.Surrounding
    let ms = Duration.milliseconds

    func field(_ text: String, _ cursor: UInt32) -> Surrounding { Surrounding(text: text, cursor: cursor, anchor: cursor) }

    @Test func textWaitsForEverything() {
        var order = KeystrokeOrder()
        #expect(order.mayGo(.inputMethod, at: .zero) && order.mayGo(.virtualKeyboard, at: .zero))
        order.inputMethodDone(active: true, surrounding: field("", 0))
        order.sent(.inputMethod, at: ms(10), answered: true)
        #expect(!order.mayGo(.inputMethod, at: ms(11)))
        #expect(!order.mayGo(.virtualKeyboard, at: ms(11)))
        #expect(order.deadline == ms(10) + KeystrokeOrder.answerWait)
        // Firefox's first done carries the state before the text: not an answer.
        order.inputMethodDone(active: true, surrounding: field("", 0))
        #expect(!order.mayGo(.virtualKeyboard, at: ms(14)))
        order.inputMethodDone(active: true, surrounding: field("x", 1))
        #expect(order.mayGo(.virtualKeyboard, at: ms(60)) && order.mayGo(.inputMethod, at: ms(60)))
        #expect(order.deadline == nil)
    }

    @Test func keyHoldsTextOnly() {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: field("xy", 2))
        order.sent(.virtualKeyboard, at: ms(100), answered: true)
        #expect(order.mayGo(.virtualKeyboard, at: ms(101)))
        #expect(!order.mayGo(.inputMethod, at: ms(101)))
        // Left: the cursor moved.
        order.inputMethodDone(active: true, surrounding: field("xy", 1))
        #expect(order.mayGo(.inputMethod, at: ms(115)))
    }

    @Test func everyKeyIsAnswered() {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: field("abc", 3))
        order.sent(.virtualKeyboard, at: ms(0), answered: true)
        order.sent(.virtualKeyboard, at: ms(5), answered: true)
        order.inputMethodDone(active: true, surrounding: field("abc", 2))
        #expect(!order.mayGo(.inputMethod, at: ms(20)), "the second Left is not answered yet")
        // A done that changes nothing answers nothing.
        order.inputMethodDone(active: true, surrounding: field("abc", 2))
        #expect(!order.mayGo(.inputMethod, at: ms(21)))
        order.inputMethodDone(active: true, surrounding: field("abc", 1))
        #expect(order.mayGo(.inputMethod, at: ms(30)))
    }

    @Test func unansweredWaitsEnd() {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: field("a", 1))
        order.sent(.virtualKeyboard, at: ms(0), answered: true)   // Return in a one-line field
        let end = KeystrokeOrder.answerWait
        #expect(!order.mayGo(.inputMethod, at: end - ms(1)))
        #expect(order.mayGo(.inputMethod, at: end))
        order.expire(at: end)
        #expect(order.deadline == nil)
    }

    @Test func keysNobodyAnswers() {
        var order = KeystrokeOrder()
        // A terminal's keys, or keys where no text input is active: nothing waits.
        order.sent(.virtualKeyboard, at: ms(0), answered: false)
        #expect(order.mayGo(.inputMethod, at: ms(1)))
        #expect(order.deadline == nil)
    }

    @Test func fieldWithoutSurroundingText() {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: nil)
        order.sent(.inputMethod, at: ms(0), answered: true)
        order.inputMethodDone(active: true, surrounding: nil)
        #expect(order.mayGo(.virtualKeyboard, at: ms(3)), "any done answers a field that reports no surrounding text")
    }

    @Test func deactivationEndsTheWait() {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: field("", 0))
        order.sent(.inputMethod, at: ms(0), answered: true)
        order.inputMethodDone(active: false, surrounding: nil)
        #expect(order.mayGo(.virtualKeyboard, at: ms(2)))
    }

    @Test func joiningHoldsTextUntilTheWindowReEnabled() {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: field("", 0))
        order.virtualKeyboardJoined(at: ms(100))
        #expect(!order.mayGo(.inputMethod, at: ms(101)))
        #expect(order.mayGo(.virtualKeyboard, at: ms(101)), "keys go: the compositor re-entered the window already")
        #expect(order.deadline == ms(100) + KeystrokeOrder.joinWait)
        // An activate alone (our input method's first) does not end the hold.
        order.inputMethodDone(active: true, surrounding: field("", 0))
        #expect(!order.mayGo(.inputMethod, at: ms(150)))
        order.inputMethodDone(active: false, surrounding: nil)      // Firefox: 113 ms after
        #expect(!order.mayGo(.inputMethod, at: ms(213)))
        order.inputMethodDone(active: true, surrounding: field("", 0))
        #expect(order.mayGo(.inputMethod, at: ms(215)))
        #expect(order.deadline == nil)
    }

    @Test func joiningHoldIsBounded() {
        var order = KeystrokeOrder()
        order.virtualKeyboardJoined(at: .zero)
        #expect(!order.mayGo(.inputMethod, at: KeystrokeOrder.joinWait - ms(1)))
        #expect(order.mayGo(.inputMethod, at: KeystrokeOrder.joinWait))
    }
}
