import KeyboardCore
import Testing

/// The `HostScreen` part alone (seed 001): the keyboard shown and hidden with the audio
/// engine, the text field's focus with text input, the frame reported once settled, Escape.
@Suite("HostScreen (part)")
struct HostScreenTests {
    static let frame = Rect(x: 0, y: 500, width: 480, height: 300)

    @Test func launchedShowsTheKeyboardAtOnce() {
        var screen = HostScreen(mode: .hostScreen)
        #expect(!screen.keysAreLive)
        #expect(screen.launched() == [.startAudioEngine])
        #expect(screen.keysAreLive && screen.isSettled(at: .zero))
        #expect(screen.reportKeyboardFrame(at: .zero, keyboardFrame: Self.frame) == [.keyboardFrameChanged(.show, Self.frame)])
        #expect(screen.reportKeyboardFrame(at: ms(10), keyboardFrame: Self.frame).isEmpty, "reported once")
        #expect(screen.monitor.keyboardStatus == .show)
    }

    @Test func hidingSlidesAwayAndReportsAZeroFrameOnceSettled() {
        var screen = HostScreen(mode: .hostScreen)
        _ = screen.launched()
        _ = screen.reportKeyboardFrame(at: .zero, keyboardFrame: Self.frame)
        #expect(screen.hideKeyboard(at: ms(1_000)) == [.stopAudioEngine])
        #expect(screen.hideKeyboard(at: ms(1_010)).isEmpty)
        #expect(!screen.keysAreLive)
        #expect(screen.reportKeyboardFrame(at: ms(1_100), keyboardFrame: Self.frame).isEmpty, "still sliding")
        #expect(isClose(screen.keyboardOffset(at: ms(1_250), height: 300), 300))
        #expect(screen.reportKeyboardFrame(at: ms(1_250), keyboardFrame: Self.frame) == [.keyboardFrameChanged(.hide, .zero)])
        #expect(screen.showKeyboard(at: ms(2_000)) == [.startAudioEngine])
        #expect(screen.showKeyboard(at: ms(2_010)).isEmpty)
    }

    @Test func focusStartsAndStopsTextInputOnce() {
        var screen = HostScreen(mode: .hostScreen)
        let field = Rect(x: 16, y: 68, width: 448, height: 44)
        #expect(screen.focusTextField(frame: field) == [.startTextInput(field)])
        #expect(screen.focusTextField(frame: field).isEmpty)
        #expect(screen.resignTextField() == [.stopTextInput])
        #expect(screen.resignTextField().isEmpty)
    }

    @Test func escapeClosesThenQuitsOnTheHostScreenAndDoesNothingInSystemMode() {
        var screen = HostScreen(mode: .hostScreen)
        _ = screen.launched()
        #expect(screen.escapePressed() == .closeKeyboard)
        _ = screen.hideKeyboard(at: ms(100))
        #expect(screen.escapePressed() == .quit)
        var system = HostScreen(mode: .system)
        _ = system.launched()
        #expect(system.escapePressed() == .ignored)
    }

    @Test func aReturnIsTakenOnce() {
        var screen = HostScreen(mode: .hostScreen)
        let before = screen.takeReturn()
        screen.returnTyped()
        let revision = screen.revision
        let taken = screen.takeReturn(), again = screen.takeReturn()
        #expect(!before)
        #expect(taken && !again)
        #expect(screen.revision == revision, "a pending return is not drawn")
    }

    @Test func theRevisionCountsWhatIsDrawn() {
        var screen = HostScreen(mode: .hostScreen)
        var last = screen.revision
        func changed() -> Bool { defer { last = screen.revision }; return screen.revision != last }
        _ = screen.launched()
        #expect(changed())
        _ = screen.focusTextField(frame: Self.frame)
        #expect(changed())
        _ = screen.reportKeyboardFrame(at: .zero, keyboardFrame: Self.frame)
        #expect(changed(), "the status and size lines")
        _ = screen.reportKeyboardFrame(at: .zero, keyboardFrame: Self.frame)
        #expect(!changed())
    }
}
