import KeyboardCore
import Testing

/// System mode's proxy: edits become keystrokes for another application.
@Suite("KeystrokeDocumentProxy")
struct KeystrokeDocumentProxyTests {
    @Test func textIsTypedAsOneUnit() {
        var proxy = KeystrokeDocumentProxy()
        proxy.insertText("へぇ〜")
        proxy.insertText("a")
        #expect(proxy.takePending() == [.text("へぇ〜"), .text("a")])
        #expect(proxy.pending.isEmpty)
    }

    @Test func lineBreaksAndTabsAreKeysAndOtherControlsAreDropped() {
        var proxy = KeystrokeDocumentProxy()
        proxy.insertText("a\nb\r\nc\rd\te\u{7}f\u{85}")
        #expect(proxy.takePending() == [
            .text("a"), .key(.return), .text("b"), .key(.return), .text("c"), .key(.return),
            .text("d"), .key(.tab), .text("ef"),
        ])
        proxy.insertText("\n")
        proxy.insertText("\u{1}")
        #expect(proxy.takePending() == [.key(.return)])
    }

    @Test func deletionsAreBackSpaceAndCtrlBackSpace() {
        var proxy = KeystrokeDocumentProxy()
        proxy.deleteBackward()
        let sent = proxy.deleteWordBackward()
        #expect(sent)
        #expect(proxy.takePending() == [.key(.backSpace), .key(.backSpace, control: true)])
    }

    @Test func caretMovesAreArrowKeys() {
        var proxy = KeystrokeDocumentProxy()
        proxy.adjustTextPosition(byCharacterOffset: -2)
        proxy.adjustTextPosition(byCharacterOffset: 1)
        proxy.adjustTextPosition(byCharacterOffset: 0)
        #expect(proxy.takePending() == [.key(.left), .key(.left), .key(.right)])
    }

    @Test func theOtherApplicationsTextIsUnknown() {
        let proxy = KeystrokeDocumentProxy()
        #expect(proxy.documentContextBeforeInput == nil)
        #expect(proxy.documentContextAfterInput == nil)
        #expect(proxy.hasText)
    }

    @Test func traceNamesAreXKeysymNames() {
        #expect(Keystroke.key(.backSpace).keyName == "BackSpace")
        #expect(Keystroke.key(.return).keyName == "Return")
        #expect(Keystroke.key(.backSpace, control: true).keyName == "ctrl+BackSpace")
        #expect(Keystroke.text("a").keyName == nil)
        #expect(NamedKey.allCases.map(\.rawValue) == ["BackSpace", "Return", "Tab", "Left", "Right"])
    }
}
