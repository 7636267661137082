import KeyboardCore
import Testing

/// The shell's or the user's request (Phosh's `sm.puri.OSK0.SetVisible`, issue 31): done at
/// once, held until the input method's active state next changes, then the field decides again.
@Suite("AutoShow (SetVisible requests)")
struct AutoShowRequestTests {
    static let field = AutoShowTests.field
    static let other = AutoShowTests.other

    @Test func setVisibleFalseHidesAtOnceAndHoldsWhileTheFieldStays() {
        var part = AutoShow(isEnabled: true)
        _ = part.launched(at: .zero)
        _ = part.contextChanged(Self.field, focus: 1, at: ms(100))
        #expect(part.visibilityRequested(false) == .hide && !part.isShown && part.request == false)
        // The field's text or kind changing, another field taking the focus: still active, still hidden.
        #expect(part.contextChanged(Self.other, focus: 2, at: ms(200)) == nil && !part.isShown)
        #expect(part.tick(at: ms(5_000)) == nil && !part.isShown)
        // The last field goes (the active state changes): the request ends; no field, so hidden stays.
        #expect(part.contextChanged(.inactive, focus: 2, at: ms(6_000)) == nil)
        #expect(part.request == nil && !part.isShown)
        // The next field shows it again.
        #expect(part.contextChanged(Self.field, focus: 3, at: ms(7_000)) == .show)
    }

    @Test func setVisibleTrueWithNoFieldHoldsUntilAFieldComesAndGoes() {
        var part = AutoShow(isEnabled: true)
        #expect(part.launched(at: .zero) == .hide, "no field at the start: hidden at once")
        #expect(part.visibilityRequested(true) == .show && part.isShown)
        #expect(part.hideDue == nil)
        #expect(part.tick(at: ms(60_000)) == nil && part.isShown, "the hold after no field is set aside")
        #expect(part.contextChanged(.inactive, focus: 0, at: ms(60_100)) == nil && part.isShown && part.request == true,
                "inactive again is no change of the active state")
        // A field takes the focus: the request ends, shown for the field.
        #expect(part.contextChanged(Self.field, focus: 1, at: ms(61_000)) == nil && part.request == nil && part.isShown)
        // It goes: hidden after the hold, as always.
        _ = part.contextChanged(.inactive, focus: 1, at: ms(62_000))
        #expect(part.tick(at: ms(62_251)) == .hide)
    }

    @Test func setVisibleTrueOverTheHideKeysChoice() {
        var part = AutoShow(isEnabled: true)
        _ = part.launched(at: .zero)
        _ = part.contextChanged(Self.field, focus: 1, at: ms(100))
        #expect(part.dismissed() == .hide)
        #expect(part.visibilityRequested(true) == .show && !part.isDismissed)
        #expect(part.visibilityRequested(true) == nil, "asked twice: no change")
    }

    @Test func theHideKeyEndsARequest() {
        var part = AutoShow(isEnabled: true)
        _ = part.launched(at: .zero)
        _ = part.contextChanged(Self.field, focus: 1, at: ms(100))
        _ = part.visibilityRequested(true)
        #expect(part.dismissed() == .hide && part.request == nil)
    }

    @Test func withoutAutoShowARequestHidesUntilTheActiveStateChanges() {
        var part = AutoShow(isEnabled: false)
        _ = part.launched(at: .zero)
        #expect(part.visibilityRequested(false) == .hide)
        #expect(part.contextChanged(Self.field, focus: 1, at: ms(100)) == .show, "auto-show off: shown again")
    }

    @Test func theSessionShowsAndHidesItsKeyboardOnRequest() {
        var session = AutoShowTests.launched()
        session.send(.textContextChanged(Self.field, focus: 1), at: 10)
        #expect(AutoShowTests.shown(session))
        let hidden = session.send(.visibilityRequested(false), at: 20).withoutDisplay
        #expect(hidden == [.stopAudioEngine, .keyboardFrameChanged(.hide, .zero)])
        session.send(.tick, at: 5_000)
        #expect(!AutoShowTests.shown(session))
        let shown = session.send(.visibilityRequested(true), at: 5_010).withoutDisplay
        #expect(shown == [.startAudioEngine, .keyboardFrameChanged(.show, session.layout.keyboardFrame)])
    }

    @Test func theHostScreenIgnoresRequests() {
        var session = KeyboardSession.launched()
        #expect(session.send(.visibilityRequested(false), at: 10).withoutDisplay.isEmpty && AutoShowTests.shown(session))
    }
}
