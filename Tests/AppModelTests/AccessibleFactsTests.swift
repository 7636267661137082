import AppModel
import KeyboardCore
import Testing

/// Issue 30: what AT-SPI says about the focused object, as the toolkits say it (seen under
/// Xvfb; see `AccessibleFacts+TextContext.swift`), made the keyboard's `TextContext`.
@Suite("AccessibleFacts")
struct AccessibleFactsTests {
    typealias Facts = AccessibleFacts

    static let gtkEntry = Facts(role: .text, states: [.editable, .focused, .singleLine], attributes: ["toolkit": "gtk"],
                                application: "gtk_fields.py",
                                text: .init(text: "hello world", start: 0, caret: 5))

    @Test func aGtkEntry() {
        let context = Self.gtkEntry.textContext
        #expect(context.isActive && context.purpose == .normal && context.hints.isEmpty)
        #expect(context.textBeforeCaret == "hello" && context.textAfterCaret == " world")
        #expect(context.application == "gtk_fields.py")
    }

    @Test func multiLineFields() {
        let view = Facts(role: .text, states: [.editable, .focused, .multiLine])   // GtkTextView, QPlainTextEdit
        #expect(view.textContext.hints == .multiline)
        let textarea = Facts(role: .entry, states: [.editable, .focused, .multiLine], attributes: ["tag": "textarea"])
        #expect(textarea.textContext.purpose == .normal && textarea.textContext.hints == .multiline)
        #expect(Facts(role: .text, states: [.editable, .multiLine, .singleLine]).hints.isEmpty)
    }

    @Test func theBrowsersInputTypes() {
        let cases: [(String, TextContext.Purpose)] = [
            ("email", .email), ("tel", .phone), ("url", .url), ("number", .number), ("password", .password),
            ("date", .date), ("time", .time), ("datetime-local", .datetime), ("search", .normal), ("text", .normal),
            ("EMAIL", .email), ("nonsense", .normal), ("", .normal),
        ]
        for (type, purpose) in cases {
            let facts = Facts(role: .entry, states: [.editable, .focused, .singleLine], attributes: ["text-input-type": type])
            #expect(facts.textContext.purpose == purpose, "\(type)")
        }
        // <input type=number> is a spin button; Firefox leaves the type out for plain text.
        #expect(Facts(role: .spinButton, states: [.editable]).textContext.purpose == .number)
        #expect(Facts(role: .entry, states: [.editable], attributes: ["tag": "input"]).textContext.purpose == .normal)
    }

    @Test("password fields are secure, and their text is never read", arguments: [
        Facts(role: .passwordText, states: [.editable, .focused, .singleLine]),                     // GTK, Qt, browsers
        Facts(role: .entry, states: [.editable, .focused], attributes: ["text-input-type": "password"]),
    ])
    func passwordFields(facts: Facts) {
        #expect(!facts.mayReadText)
        var read = facts
        read.text = .init(text: "hunter2", start: 0, caret: 7)   // even when offered
        let context = read.textContext
        #expect(context.isActive && context.isSecure && context.purpose == .password)
        #expect(context.hints == [.hiddenText, .sensitiveData])
        #expect(context.textBeforeCaret.isEmpty && context.textAfterCaret.isEmpty)
    }

    @Test func terminals() {
        let vte = Facts(role: .terminal, states: [.focused], text: .init(text: "$ ls", start: 0, caret: 4))
        #expect(vte.isTextField && vte.mayReadText)
        #expect(vte.textContext.purpose == .terminal && vte.textContext.textBeforeCaret == "$ ls")
    }

    @Test func whatIsNoTextField() {
        #expect(Facts(role: .pushButton, states: [.focused]).textContext == .inactive)
        #expect(Facts(role: .text, states: [.focused]).textContext == .inactive)             // a label's text
        #expect(Facts(role: .entry, states: [.editable, .readOnly]).textContext == .inactive)
        #expect(Facts(role: .entry, states: [.editable, .defunct]).textContext == .inactive)
        #expect(Facts(role: .terminal, states: [.defunct]).textContext == .inactive)
        #expect(!Facts(role: .pushButton).mayReadText)
        // A contenteditable element (Firefox: a section) is one.
        #expect(Facts(role: .init(rawValue: 85), states: [.editable, .multiLine]).textContext.isActive)
    }

    @Test func theTextWindowAroundTheCaret() {
        // The window starts 2 code points into the field's text; the caret is 5 in.
        var facts = Self.gtkEntry
        facts.text = .init(text: "llo world", start: 2, caret: 5)
        #expect(facts.textContext.textBeforeCaret == "llo" && facts.textContext.textAfterCaret == " world")
        // Offsets count scalars: é as e + U+0301 is two.
        facts.text = .init(text: "ce\u{301}x", start: 0, caret: 3)
        #expect(facts.textContext.textBeforeCaret == "ce\u{301}" && facts.textContext.textAfterCaret == "x")
        // Caret at either end of the window.
        facts.text = .init(text: "abc", start: 10, caret: 10)
        #expect(facts.textContext.textBeforeCaret == "" && facts.textContext.textAfterCaret == "abc")
        facts.text = .init(text: "abc", start: 10, caret: 13)
        #expect(facts.textContext.textBeforeCaret == "abc" && facts.textContext.textAfterCaret == "")
    }

    @Test("a caret outside the text read gives no text, and no crash", arguments: [
        (0, -1), (0, 4), (5, 4), (5, 9), (Int.min, Int.max), (Int.max, Int.min), (-3, -2),
    ])
    func caretsOutsideTheText(start: Int, caret: Int) {
        var facts = Self.gtkEntry
        facts.text = .init(text: "abc", start: start, caret: caret)
        let context = facts.textContext
        #expect(context.isActive)
        #expect(context.textBeforeCaret.isEmpty && context.textAfterCaret.isEmpty)
    }

    @Test func longTextIsBounded() {
        var facts = Self.gtkEntry
        let text = String(repeating: "a", count: 5000) + String(repeating: "b", count: 5000)
        facts.text = .init(text: text, start: 0, caret: 5000)
        let context = facts.textContext
        #expect(context.textBeforeCaret == String(repeating: "a", count: TextContext.maxCharactersBeforeCaret))
        #expect(context.textAfterCaret == String(repeating: "b", count: TextContext.maxCharactersAfterCaret))
        #expect(Facts.textWindowBefore >= TextContext.maxCharactersBeforeCaret)
        #expect(Facts.textWindowAfter >= TextContext.maxCharactersAfterCaret)
    }
}
