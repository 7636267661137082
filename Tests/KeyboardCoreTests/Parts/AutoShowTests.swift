import KeyboardCore
import Testing

/// The `AutoShow` part alone and routed through the session (issue 30): shown when a field
/// has the focus, hidden only `hideDelay` after the last one went away, the `hide` key's
/// choice kept until a field gains the focus again, time only from the inputs.
@Suite("AutoShow (part)")
struct AutoShowTests {
    static let field = TextContext(purpose: .email, hints: [.completion])
    static let other = TextContext(purpose: .number)

    static func launched(autoShow: Bool = true) -> KeyboardSession {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system, autoShow: autoShow)
        _ = session.handle(.launched, at: .zero)
        return session
    }

    static func shown(_ session: KeyboardSession) -> Bool { session.hostScreen.visibility.target == .show }

    // MARK: The part

    @Test func aFieldsFocusShowsAndItsLossHidesOnlyAfterTheHold() {
        var part = AutoShow(isEnabled: true)
        #expect(part.launched(at: .zero) == .hide, "no field: hidden from the start")
        #expect(part.hideDue == nil)
        #expect(part.contextChanged(Self.field, focus: 1, at: ms(10)) == .show)
        #expect(part.contextChanged(.inactive, focus: 1, at: ms(1_000)) == nil)
        #expect(part.hideDue == ms(1_250))
        #expect(part.tick(at: ms(1_249)) == nil && part.isShown)
        #expect(part.tick(at: ms(1_251)) == .hide && !part.isShown)
        #expect(part.tick(at: ms(1_300)) == nil)
        #expect(part.contextChanged(Self.other, focus: 2, at: ms(2_000)) == .show)
        #expect(part.context == Self.other)
    }

    @Test func theHoldIsExactly250Milliseconds() {
        #expect(AutoShow.hideDelay == .milliseconds(250))
        for (at, hidden) in [(Duration.seconds(0.249), false), (.seconds(0.251), true)] {
            var part = AutoShow(isEnabled: true)
            _ = part.launched(at: .zero)
            _ = part.contextChanged(Self.field, focus: 1, at: .zero)
            _ = part.contextChanged(.inactive, focus: 1, at: .zero)
            #expect((part.tick(at: at) == .hide) == hidden, "the field gone at 0, ticked at \(at)")
        }
    }

    @Test func movingBetweenTwoFieldsNeverHides() {
        var part = AutoShow(isEnabled: true)
        _ = part.launched(at: .zero)
        _ = part.contextChanged(Self.field, focus: 1, at: ms(100))
        // sway: deactivate + done, then activate + done, back to back.
        #expect(part.contextChanged(.inactive, focus: 1, at: ms(500)) == nil)
        #expect(part.contextChanged(Self.other, focus: 2, at: ms(501)) == nil)
        #expect(part.hideDue == nil)
        #expect(part.tick(at: ms(5_000)) == nil && part.isShown)
    }

    @Test func theHideKeyWinsUntilAnotherFieldOrTheSameAgain() {
        var part = AutoShow(isEnabled: true)
        _ = part.launched(at: .zero)
        _ = part.contextChanged(Self.field, focus: 1, at: ms(100))
        #expect(part.dismissed() == .hide && part.isDismissed)
        // The same focus: its text or kind changing does not bring the keyboard back.
        #expect(part.contextChanged(TextContext(purpose: .email, textBeforeCaret: "a"), focus: 1, at: ms(200)) == nil)
        #expect(!part.isShown)
        // The field loses the focus and takes it again (a tap into it): shown.
        #expect(part.contextChanged(.inactive, focus: 1, at: ms(300)) == nil)
        #expect(part.contextChanged(Self.field, focus: 2, at: ms(400)) == .show && !part.isDismissed)
        // Dismissed again, then another field: shown.
        #expect(part.dismissed() == .hide)
        #expect(part.contextChanged(Self.other, focus: 3, at: ms(500)) == .show)
    }

    @Test func aPlatformThatCannotTellKeepsTheKeyboardShown() {
        var part = AutoShow(isEnabled: true)
        #expect(part.launched(at: .zero) == .hide)
        #expect(part.unavailable() == .show && !part.isAvailable)
        #expect(part.contextChanged(.inactive, focus: 0, at: ms(400)) == nil)
        #expect(part.hideDue == nil && part.tick(at: ms(10_000)) == nil)
        #expect(part.dismissed() == nil && part.isShown, "nothing would bring it back")
    }

    @Test func aWindowThatExposesNothingKeepsTheKeyboardShownUntilSomethingIsToldAgain() {
        var part = AutoShow(isEnabled: true)
        _ = part.launched(at: .zero)
        // X11: xterm or Tk has the focus, no accessible does: shown, as without auto-show.
        #expect(part.contextUnknown() == .show && part.isFocusUnknown && part.hideDue == nil)
        #expect(part.contextUnknown() == nil, "told again: nothing")
        #expect(part.dismissed() == nil && part.isShown, "nothing would bring it back in that window")
        #expect(part.tick(at: ms(10_000)) == nil && part.isShown)
        // A GTK button (a non-text accessible) takes the focus: hidden after the hold.
        #expect(part.contextChanged(.inactive, focus: 0, at: ms(11_000)) == nil && !part.isFocusUnknown)
        #expect(part.tick(at: ms(11_251)) == .hide)
        // Back to xterm: shown at once, the hold and the user's hide forgotten.
        #expect(part.contextUnknown() == .show)
        #expect(part.contextChanged(Self.field, focus: 1, at: ms(12_000)) == nil && part.isShown)
        #expect(part.contextChanged(.inactive, focus: 1, at: ms(12_100)) == nil && part.hideDue == ms(12_350))
        #expect(part.contextUnknown() == .none && part.hideDue == nil, "shown already; the hold ends")
    }

    @Test func theSessionShowsForAWindowThatExposesNothing() {
        var session = Self.launched()
        #expect(!Self.shown(session))
        let shown = session.send(.textContextUnknown, at: 100).withoutDisplay
        #expect(shown == [.startAudioEngine, .keyboardFrameChanged(.show, session.layout.keyboardFrame)])
        #expect(session.send(.tick, at: 5_000).withoutDisplay.isEmpty && Self.shown(session))
    }

    @Test func offItNeverHides() {
        var part = AutoShow(isEnabled: false)
        #expect(part.launched(at: .zero) == nil && part.isShown)
        #expect(part.hideDue == nil)
        #expect(part.contextChanged(.inactive, focus: 0, at: ms(100)) == nil && part.hideDue == nil)
        #expect(part.dismissed() == nil && part.isShown)
        #expect(part.tick(at: ms(10_000)) == nil)
    }

    // MARK: Routed through the session

    @Test func theSessionStartsHiddenWithNoFieldAndNeverSaysShow() {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system, autoShow: true)
        let launch = session.handle(.launched, at: .zero).withoutDisplay
        #expect(!launch.contains(.startAudioEngine), "the audio engine stays closed")
        #expect(!launch.contains { if case .keyboardFrameChanged = $0 { true } else { false } }, "no keyboard line")
        #expect(!Self.shown(session) && session.nextDeadline(after: .zero) == nil)
        #expect(session.send(.textContextChanged(.inactive, focus: 0), at: 0).withoutDisplay.isEmpty)
        #expect(session.send(.tick, at: 5_000).withoutDisplay.isEmpty && !Self.shown(session))
    }

    @Test func aFieldFocusedAtTheStartShowsItInTheSameInstant() {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system, autoShow: true)
        _ = session.handle(.launched, at: .zero)
        let shown = session.send(.textContextChanged(Self.field, focus: 1), at: 0).withoutDisplay
        #expect(shown == [.startAudioEngine, .keyboardFrameChanged(.show, session.layout.keyboardFrame)])
        #expect(session.keyboardOffset(at: .zero) == 0, "no slide")
    }

    @Test func theSessionHidesAtOnceAfterTheHoldAndSaysSo() {
        var session = Self.launched()
        session.send(.textContextChanged(Self.field, focus: 1), at: 0)
        session.send(.textContextChanged(.inactive, focus: 1), at: 1_000)
        #expect(session.nextDeadline(after: ms(1_000)) == ms(1_250))
        #expect(session.send(.tick, at: 1_249).withoutDisplay.isEmpty && Self.shown(session))
        let hidden = session.send(.tick, at: 1_251).withoutDisplay
        #expect(hidden == [.stopAudioEngine, .keyboardFrameChanged(.hide, .zero)])
        #expect(!session.hostScreen.keysAreLive && session.keyboardOffset(at: ms(1_251)) == session.layout.keyboardFrame.height)
        let shown = session.send(.textContextChanged(Self.field, focus: 2), at: 2_000).withoutDisplay
        #expect(shown == [.startAudioEngine, .keyboardFrameChanged(.show, session.layout.keyboardFrame)])
        #expect(session.keyboardOffset(at: ms(2_000)) == 0, "no slide: the surface is mapped at once")
    }

    @Test func aHeldKeyEndsWithoutTypingWhenTheKeyboardHides() throws {
        var session = Self.launched()
        session.send(.textContextChanged(Self.field, focus: 1), at: 10)
        let a = try session.center(of: "a")
        session.send(.pointerDown(.mouse, a), at: 100)
        session.send(.textContextChanged(.inactive, focus: 1), at: 200)
        let effects = session.send(.tick, at: 450)
        #expect(effects.contains(.keyTouched("a", down: false)))
        #expect(!effects.contains { if case .send = $0 { true } else { false } })
        #expect(!session.send(.pointerUp(.mouse, a), at: 500).contains { if case .send = $0 { true } else { false } })
    }

    @Test func theHideKeyHidesTheSessionsKeyboard() throws {
        let hideKey = LayoutDefinition(name: "hide", columns: 10, layers: [LayerDefinition(name: "only", rows: [
            [.key(.hee), .key("x"), .key("hide")]])], keys: [:])
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system,
                                      definition: hideKey, autoShow: true)
        _ = session.handle(.launched, at: .zero)
        session.send(.textContextChanged(Self.field, focus: 1), at: 10)
        let effects = try session.tap("hide", at: 100)
        #expect(effects.withoutDisplay.contains(.keyboardFrameChanged(.hide, .zero)))
        #expect(!effects.contains { if case .send = $0 { true } else { false } })
        session.send(.textContextChanged(.inactive, focus: 1), at: 300)
        session.send(.textContextChanged(Self.field, focus: 2), at: 310)
        #expect(Self.shown(session), "the same field taking the focus again shows it")
    }

    @Test func theHostScreenIgnoresContexts() {
        var session = KeyboardSession.launched()
        #expect(session.send(.textContextChanged(.inactive, focus: 1), at: 10).withoutDisplay.isEmpty)
        #expect(session.send(.tick, at: 1_000).withoutDisplay.isEmpty && Self.shown(session))
    }

    @Test func withoutAutoShowSystemModeStaysShown() {
        var session = Self.launched(autoShow: false)
        session.send(.textContextChanged(.inactive, focus: 1), at: 10)
        #expect(session.send(.tick, at: 5_000).withoutDisplay.isEmpty && Self.shown(session))
    }
}

/// The line above the keys names the focused field's kind, never its text (issue 30).
@Suite("The field's kind on the target line")
struct FieldKindLineTests {
    static let terminal = KeyTarget.window(FocusedWindow(id: 0x2a, title: "Terminal"))

    @Test func theKindFollowsTheTargetInEachLanguage() {
        let email = TextContext(purpose: .email, textBeforeCaret: "someone@exam")
        #expect(SystemModeText.english.targetLine(Self.terminal, field: email) == "Keys go to: Terminal · email")
        #expect(SystemModeText.japanese.targetLine(Self.terminal, field: email) == "入力先：Terminal（メール）")
        #expect(SystemModeText.english.targetLine(Self.terminal, field: TextContext(purpose: .terminal)) == "Keys go to: Terminal · terminal")
        #expect(SystemModeText.english.targetLine(Self.terminal) == "Keys go to: Terminal", "no field: as before")
        #expect(SystemModeText.english.targetLine(.noFocusedWindow, field: email) == "No window has focus")
    }

    @Test func aSecureFieldIsAPasswordOrPINAndNothingOfItsText() {
        let hidden = TextContext(purpose: .normal, hints: [.hiddenText])
        #expect(SystemModeText.english.targetLine(Self.terminal, field: hidden) == "Keys go to: Terminal · password")
        #expect(SystemModeText.english.targetLine(Self.terminal, field: TextContext(purpose: .pin)) == "Keys go to: Terminal · PIN")
        for purpose in TextContext.Purpose.allCases {
            #expect(SystemModeText.english.kindNames[purpose] != nil && SystemModeText.japanese.kindNames[purpose] != nil)
        }
    }

    @Test func theLineRedrawsWhenTheKindChangesNotForTheText() {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system)
        _ = session.handle(.launched, at: .zero)
        let revision = session.autoShow.revision
        session.send(.textContextChanged(TextContext(purpose: .email, textBeforeCaret: "a"), focus: 1), at: 10)
        #expect(session.autoShow.revision != revision && session.autoShow.context.kind == .email)
        let email = session.autoShow.revision
        session.send(.textContextChanged(TextContext(purpose: .email, textBeforeCaret: "ab"), focus: 1), at: 20)
        #expect(session.autoShow.revision == email, "the text alone changes nothing drawn")
    }
}
