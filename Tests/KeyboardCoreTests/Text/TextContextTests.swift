import KeyboardCore
import Testing

/// Issue 30: the focused field's context, bounded, with no text for a secure field.
@Suite("TextContext")
struct TextContextTests {
    @Test func theProtocolsValues() {
        // text-input-unstable-v3.xml's content_purpose and content_hint, as input-method-v2 hands them on.
        let purposes: [(UInt32, TextContext.Purpose, String)] = [
            (0, .normal, "normal"), (1, .alpha, "alpha"), (2, .digits, "digits"), (3, .number, "number"),
            (4, .phone, "phone"), (5, .url, "url"), (6, .email, "email"), (7, .name, "name"),
            (8, .password, "password"), (9, .pin, "pin"), (10, .date, "date"), (11, .time, "time"),
            (12, .datetime, "datetime"), (13, .terminal, "terminal"),
        ]
        #expect(purposes.count == TextContext.Purpose.allCases.count)
        for (value, purpose, name) in purposes {
            #expect(TextContext.Purpose(rawValue: value) == purpose)
            #expect(purpose.name == name)
        }
        let hints: [(UInt32, TextContext.Hints, String)] = [
            (0x1, .completion, "completion"), (0x2, .spellcheck, "spellcheck"), (0x4, .autoCapitalization, "auto_capitalization"),
            (0x8, .lowercase, "lowercase"), (0x10, .uppercase, "uppercase"), (0x20, .titlecase, "titlecase"),
            (0x40, .hiddenText, "hidden_text"), (0x80, .sensitiveData, "sensitive_data"), (0x100, .latin, "latin"),
            (0x200, .multiline, "multiline"),
        ]
        for (bit, hint, name) in hints {
            #expect(hint.rawValue == bit)
            #expect(hint.names == [name])
        }
        #expect(TextContext.Hints.all.rawValue == 0x3FF)
        #expect(TextContext.Hints([.multiline, .completion, .latin]).names == ["completion", "latin", "multiline"])
    }

    @Test func valuesOutOfRangeAreDropped() {
        let context = TextContext(purposeValue: 14, hintBits: 0xFFFF_FC00 | 0x202)
        #expect(context.purpose == .normal)
        #expect(context.hints == [.spellcheck, .multiline])
        #expect(TextContext.Hints(protocolBits: .max) == .all)
        #expect(TextContext(purposeValue: .max, hintBits: 0).purpose == .normal)
    }

    @Test func inactiveHasNothing() {
        let inactive = TextContext.inactive
        #expect(!inactive.isActive)
        #expect(inactive.purpose == .normal && inactive.hints.isEmpty)
        #expect(inactive.textBeforeCaret.isEmpty && inactive.textAfterCaret.isEmpty && inactive.application == nil)
        #expect(!inactive.isSecure)
        #expect(TextContext().isActive)
    }

    @Test func textIsBoundedInCharacters() {
        // 300 family emoji (7 scalars, 25 UTF-8 bytes each) before, 150 "é" (e + combining acute) after.
        let family = "👨‍👩‍👧‍👦"
        let before = "start" + String(repeating: family, count: 300)
        let after = String(repeating: "e\u{301}", count: 150) + "end"
        let context = TextContext(textBeforeCaret: before, textAfterCaret: after)
        #expect(context.textBeforeCaret.count == TextContext.maxCharactersBeforeCaret)
        #expect(context.textBeforeCaret == String(repeating: family, count: 256))
        #expect(context.textAfterCaret.count == TextContext.maxCharactersAfterCaret)
        #expect(context.textAfterCaret == String(repeating: "e\u{301}", count: 100))
        let short = TextContext(textBeforeCaret: "Hi, ", textAfterCaret: "!")
        #expect(short.textBeforeCaret == "Hi, " && short.textAfterCaret == "!")
    }

    @Test func secureFieldsKeepNoText() {
        let secure: [(TextContext.Purpose, TextContext.Hints)] = [
            (.password, []), (.pin, []), (.normal, .hiddenText), (.number, .sensitiveData), (.password, [.hiddenText, .sensitiveData]),
        ]
        for (purpose, hints) in secure {
            let context = TextContext(purpose: purpose, hints: hints, textBeforeCaret: "hunter", textAfterCaret: "2",
                                      application: "Firefox")
            #expect(context.isSecure, "\(purpose) \(hints.names)")
            #expect(context.textBeforeCaret.isEmpty && context.textAfterCaret.isEmpty)
            #expect(context.application == "Firefox")
        }
    }

    @Test func ordinaryFieldsAreNotSecure() {
        for purpose in TextContext.Purpose.allCases where purpose != .password && purpose != .pin {
            let hints = TextContext.Hints.all.subtracting([.hiddenText, .sensitiveData])
            #expect(!TextContext(purpose: purpose, hints: hints).isSecure, "\(purpose)")
        }
    }

    @Test func theApplicationNameIsOneBoundedLine() {
        #expect(TextContext(application: "  gedit\n").application == "gedit")
        #expect(TextContext(application: "a\tb\u{1B}[2Jc\u{85}d").application == "a b [2Jc d")
        #expect(TextContext(application: " \n\t").application == nil)
        #expect(TextContext(application: "").application == nil)
        let long = TextContext(application: String(repeating: "x", count: 1000)).application
        #expect(long?.count == TextContext.maxApplicationCharacters)
    }

    @Test func sameFieldIgnoresTheText() {
        let a = TextContext(purpose: .email, textBeforeCaret: "a@", application: "Firefox")
        let b = TextContext(purpose: .email, textBeforeCaret: "a@b", application: "Firefox")
        #expect(a != b)
        #expect(a.describesSameField(as: b))
        #expect(!a.describesSameField(as: TextContext(purpose: .url, application: "Firefox")))
        #expect(!a.describesSameField(as: TextContext(purpose: .email, hints: .multiline, application: "Firefox")))
        #expect(!a.describesSameField(as: TextContext(purpose: .email, application: "Chromium")))
        #expect(!TextContext().describesSameField(as: .inactive))
        #expect(TextContext.inactive.describesSameField(as: .inactive))
    }
}
