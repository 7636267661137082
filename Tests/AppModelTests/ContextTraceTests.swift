import AppModel
import KeyboardCore
import Testing

/// Issue 30: the trace's `context` line: what the focused field is, never its text.
@Suite("Context trace line")
struct ContextTraceTests {
    static func line(_ event: TraceEvent) -> String { event.json(at: 2.5).serialized }

    @Test func anActiveField() {
        let context = TextContext(purpose: .email, hints: [.multiline, .spellcheck], textBeforeCaret: "me@exa",
                                  textAfterCaret: "mple.org", application: "Firefox")
        #expect(Self.line(.context(context))
                == #"{"event":"context","t":2.5,"active":true,"purpose":"email","hints":["spellcheck","multiline"],"application":"Firefox"}"#)
        #expect(Self.line(.context(TextContext()))
                == #"{"event":"context","t":2.5,"active":true,"purpose":"normal","hints":[],"application":null}"#)
    }

    @Test func noField() {
        #expect(Self.line(.context(.inactive)) == #"{"event":"context","t":2.5,"active":false}"#)
    }

    @Test func aSecureFieldSaysOnlyThatItIs() {
        for context in [TextContext(purpose: .password, hints: [.hiddenText, .sensitiveData], application: "gtk_fields.py"),
                        TextContext(purpose: .pin, application: "gtk_fields.py"),
                        TextContext(purpose: .normal, hints: .sensitiveData, textBeforeCaret: "4111 1111", application: "gtk_fields.py")] {
            #expect(Self.line(.context(context))
                    == #"{"event":"context","t":2.5,"active":true,"secure":true,"application":"gtk_fields.py"}"#)
        }
    }

    @Test func theTextNeverAppears() {
        let context = TextContext(textBeforeCaret: "dear diary", textAfterCaret: "secret", application: "gedit")
        let line = Self.line(.context(context))
        #expect(!line.contains("diary") && !line.contains("secret"))
    }

    @Test func noAccessibilityBus() {
        #expect(Self.line(.contextUnavailable(reason: "the session bus has no accessibility bus"))
                == #"{"event":"context","t":2.5,"active":false,"available":false,"reason":"the session bus has no accessibility bus"}"#)
    }
}
