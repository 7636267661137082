import AppModel
import Testing

/// Wayland system mode's order of text (input method) and keys (virtual keyboard): what waits
/// for the application's answer, which state answers what, and the wait after the virtual
/// keyboard joins the seat (issue 28, classes 3, 4 and 7).
@Suite("Keystroke order on Wayland")
struct KeystrokeOrderTests {
    typealias Surrounding = KeystrokeOrder.Surrounding
    let ms = Duration.milliseconds

    func field(_ text: String, _ cursor: Int? = nil) -> Surrounding {
        let at = UInt32(cursor ?? text.utf8.count)
        return Surrounding(text: text, cursor: at, anchor: at)
    }

    /// An order with an active text input holding `text`.
    func active(_ text: String = "") -> KeystrokeOrder {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: field(text))
        return order
    }

    @Test func textHoldsEverythingUntilItShows() {
        var order = active()
        order.sentText("x", at: ms(10))
        #expect(!order.mayGo(.inputMethod, at: ms(11)) && !order.mayGo(.virtualKeyboard, at: ms(11)))
        #expect(order.deadline == ms(10) + KeystrokeOrder.askAfter)
        // Firefox's first done carries the state before the text: no answer.
        order.inputMethodDone(active: true, surrounding: field(""))
        #expect(!order.mayGo(.virtualKeyboard, at: ms(14)))
        order.inputMethodDone(active: true, surrounding: field("x"))
        #expect(order.mayGo(.virtualKeyboard, at: ms(60)) && order.mayGo(.inputMethod, at: ms(60)))
        #expect(order.deadline == nil)
    }

    @Test func textWaitsForTheKeysBeforeIt() {
        var order = active("xy")
        order.sentKey(at: ms(100), answered: true)                  // Left
        #expect(order.mayGo(.virtualKeyboard, at: ms(101)), "keys go on after keys")
        #expect(!order.mayGo(.inputMethod, at: ms(101)))
        order.inputMethodDone(active: true, surrounding: field("xy", 1))
        #expect(order.mayGo(.inputMethod, at: ms(115)))
        #expect(order.deadline == nil)
    }

    @Test func everyKeyIsAnswered() {
        var order = active("abc")
        order.sentKey(at: ms(0), answered: true)
        order.sentKey(at: ms(5), answered: true)
        order.inputMethodDone(active: true, surrounding: field("abc", 2))
        #expect(!order.mayGo(.inputMethod, at: ms(20)), "the second Left is not answered yet")
        order.inputMethodDone(active: true, surrounding: field("abc", 2))   // no change: no answer
        #expect(!order.mayGo(.inputMethod, at: ms(21)))
        order.inputMethodDone(active: true, surrounding: field("abc", 1))
        #expect(order.mayGo(.inputMethod, at: ms(30)))
    }

    @Test func aStateAnswersTheOldestKeystrokes() {
        // Firefox, seen: "xy" committed after "xzy", then Left; one state showed both, then
        // "z" committed, Right: the state with z in it answers z, not Right.
        // (Keys went after text's wait ended, here.)
        var order = active("xzy")
        order.sentText("xy", at: ms(0))
        order.inputMethodDone(active: true, surrounding: field("xzy"))            // before xy: no change
        order.sentKey(at: ms(20), answered: true)                                  // Left
        #expect(!order.mayGo(.inputMethod, at: ms(21)))
        order.inputMethodDone(active: true, surrounding: field("xzyxy", 4))       // xy, and Left
        #expect(order.mayGo(.inputMethod, at: ms(40)))
        order.sentText("z", at: ms(40))
        order.inputMethodDone(active: true, surrounding: field("xzyxy", 4))       // before z: no change
        #expect(!order.mayGo(.virtualKeyboard, at: ms(45)))
        order.sentKey(at: ms(50), answered: true)                                  // Right
        order.inputMethodDone(active: true, surrounding: field("xzyxzy", 5))      // z just typed in
        #expect(!order.mayGo(.inputMethod, at: ms(60)), "that state answered z: Right is still unanswered")
        order.inputMethodDone(active: true, surrounding: field("xzyxzy", 6))
        #expect(order.mayGo(.inputMethod, at: ms(70)))
    }

    @Test func aStaleStateAnswersNoText() {
        // The state before the text, even if it changed since (a key's effect): not the text's.
        var order = active("ab")
        order.sentKey(at: ms(0), answered: true)
        order.inputMethodDone(active: true, surrounding: field("ab", 1))
        order.sentText("c", at: ms(10))
        order.inputMethodDone(active: true, surrounding: field("ab", 1))
        order.sentKey(at: ms(20), answered: true)
        order.inputMethodDone(active: true, surrounding: field("ab", 2))          // no c in it
        #expect(!order.mayGo(.inputMethod, at: ms(30)))
        order.inputMethodDone(active: true, surrounding: field("acb", 2))
        #expect(!order.mayGo(.inputMethod, at: ms(31)), "c came: the key after it is still due")
        order.inputMethodDone(active: true, surrounding: field("acb", 3))
        #expect(order.mayGo(.inputMethod, at: ms(40)))
    }

    @Test func textFoundAfterItsWaitAnswersNothingElse() {
        var order = active("")
        order.sentText("ab", at: ms(0))
        order.inputMethodDone(active: true, surrounding: field(""))                // the first done
        order.expire(at: KeystrokeOrder.answerWait)                               // "ab" never shown in time
        order.sentKey(at: ms(300), answered: true)                                 // Left
        order.inputMethodDone(active: true, surrounding: field("ab"))              // late: ab, not Left
        #expect(!order.mayGo(.inputMethod, at: ms(310)))
        order.inputMethodDone(active: true, surrounding: field("ab", 1))
        #expect(order.mayGo(.inputMethod, at: ms(320)))
    }

    @Test func theStateIsCurrentWhenEverythingShows() {
        var order = active("ab")
        #expect(order.stateIsCurrent)
        order.sentText("c", at: ms(0))
        #expect(!order.stateIsCurrent)
        order.inputMethodDone(active: true, surrounding: field("abc"))
        #expect(order.stateIsCurrent)
        order.sentText("d", at: ms(10))
        order.expire(at: ms(10) + KeystrokeOrder.answerWait)
        #expect(!order.stateIsCurrent, "d's wait ended without it showing")
        order.inputMethodDone(active: true, surrounding: field("abcd"))
        #expect(order.stateIsCurrent)
        order.inputMethodDone(active: false, surrounding: nil)
        #expect(!order.stateIsCurrent, "no text input")
    }

    @Test func unansweredWaitsEnd() {
        var order = active("a")
        order.sentKey(at: ms(0), answered: true)                                   // Return in a one-line field
        let end = KeystrokeOrder.answerWait
        #expect(!order.mayGo(.inputMethod, at: end - ms(1)))
        #expect(order.mayGo(.inputMethod, at: end))
        order.expire(at: end)
        #expect(order.deadline == nil)
    }

    @Test func keysNobodyAnswers() {
        var order = KeystrokeOrder()
        // A terminal's keys, or keys when the input method is another's: nothing waits.
        order.sentKey(at: ms(0), answered: false)
        #expect(order.mayGo(.inputMethod, at: ms(1)))
        #expect(order.deadline == nil)
    }

    @Test func fieldWithoutSurroundingText() {
        var order = KeystrokeOrder()
        order.inputMethodDone(active: true, surrounding: nil)
        order.sentKey(at: ms(0), answered: true)
        order.inputMethodDone(active: true, surrounding: nil)
        #expect(order.mayGo(.inputMethod, at: ms(3)), "any done answers a field that reports no state")
    }

    @Test func theFieldsEndAnswersEverything() {
        var order = active("ab")
        order.sentKey(at: ms(0), answered: true)                                   // Tab
        order.inputMethodDone(active: false, surrounding: nil)                     // the textarea's text input ends
        #expect(order.mayGo(.inputMethod, at: ms(5)))
        // "c" while no text input is active goes as a key.
        order.sentKey(at: ms(6), answered: true)
        order.inputMethodDone(active: false, surrounding: nil)
        #expect(!order.mayGo(.inputMethod, at: ms(8)))
        order.inputMethodDone(active: true, surrounding: field(""))                // the input's starts: no c yet
        #expect(!order.mayGo(.inputMethod, at: ms(9)))
        order.inputMethodDone(active: true, surrounding: field("c"))
        #expect(order.mayGo(.inputMethod, at: ms(30)))
    }

    @Test func joiningHoldsTextUntilTheWindowReEnabled() {
        var order = active()
        order.virtualKeyboardJoined(at: ms(100))
        #expect(!order.mayGo(.inputMethod, at: ms(101)))
        #expect(order.mayGo(.virtualKeyboard, at: ms(101)), "keys go: the compositor re-entered the window already")
        #expect(order.deadline == ms(100) + KeystrokeOrder.joinWait)
        // An activate alone (our input method's first) does not end the hold.
        order.inputMethodDone(active: true, surrounding: field(""))
        #expect(!order.mayGo(.inputMethod, at: ms(150)))
        order.inputMethodDone(active: false, surrounding: nil)                     // Firefox: 113 ms after
        #expect(!order.mayGo(.inputMethod, at: ms(213)))
        order.inputMethodDone(active: true, surrounding: field(""))
        #expect(order.mayGo(.inputMethod, at: ms(215)))
        #expect(order.deadline == nil)
    }

    @Test func joiningHoldIsBounded() {
        var order = KeystrokeOrder()
        order.virtualKeyboardJoined(at: .zero)
        #expect(!order.mayGo(.inputMethod, at: KeystrokeOrder.joinWait - ms(1)))
        #expect(order.mayGo(.inputMethod, at: KeystrokeOrder.joinWait))
    }

    @Test func aSilentFieldIsAskedForItsState() {
        var order = active("a")
        order.sentKey(at: ms(0), answered: true)
        #expect(!order.shouldAsk(at: KeystrokeOrder.askAfter - ms(1)))
        #expect(order.deadline == KeystrokeOrder.askAfter)
        #expect(order.shouldAsk(at: KeystrokeOrder.askAfter))
        order.asked(at: KeystrokeOrder.askAfter)
        #expect(!order.shouldAsk(at: KeystrokeOrder.askAfter + ms(1)))
        #expect(order.shouldAsk(at: KeystrokeOrder.askAfter * 2), "asked again while it stays silent")
        order.inputMethodDone(active: true, surrounding: field("a", 0))
        #expect(!order.shouldAsk(at: ms(200)) && order.deadline == nil)
        // No text input active: nothing to ask.
        order.inputMethodDone(active: false, surrounding: nil)
        order.sentKey(at: ms(300), answered: true)
        #expect(!order.shouldAsk(at: ms(400)))
    }

    @Test func textShowsWhenItOccursOnceMore() {
        #expect(field("abab").shows("ab", since: field("ab")))
        #expect(!field("ab", 1).shows("ab", since: field("ab")))
        #expect(field("へぇ〜へぇ〜", 9).shows("へぇ〜", since: field("へぇ〜")))
        #expect(!field("aaa").shows("aa", since: field("aa")), "occurrences do not overlap")
        #expect(field("xy", 1).inserting("z") == field("xzy", 2))
        #expect(Surrounding(text: "abc", cursor: 1, anchor: 3).inserting("x") == field("ax", 2), "the selection goes")
    }
}
