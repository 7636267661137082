import KeyboardCore
import Testing

/// Issue 30: a field as input-method-v2's `surrounding_text` and `content_type` tell it, with
/// whatever bytes, cursor and values a compositor hands over.
@Suite("TextContext from surrounding text")
struct TextContextSurroundingTests {
    @Test func theCursorSplitsTheBytes() {
        let context = TextContext(purposeValue: 6, hintBits: 0x1, surroundingText: Array("へぇ〜 hi".utf8), cursorByte: 9)
        #expect(context.isActive && context.purpose == .email && context.hints == [.completion])
        #expect(context.textBeforeCaret == "へぇ〜" && context.textAfterCaret == " hi")
    }

    @Test func noTextACursorBeyondItAndACursorInsideACharacter() {
        let none = TextContext(purposeValue: 0, hintBits: 0, surroundingText: nil, cursorByte: 77)
        #expect(none.isActive && none.textBeforeCaret.isEmpty && none.textAfterCaret.isEmpty)
        let beyond = TextContext(purposeValue: 0, hintBits: 0, surroundingText: Array("ab".utf8), cursorByte: .max)
        #expect(beyond.textBeforeCaret == "ab" && beyond.textAfterCaret.isEmpty)
        // Inside へ (3 bytes): each side keeps what it has, the broken halves as U+FFFD.
        let inside = TextContext(purposeValue: 0, hintBits: 0, surroundingText: Array("へ".utf8), cursorByte: 1)
        #expect(inside.textBeforeCaret == "\u{FFFD}" && inside.textAfterCaret.allSatisfy { $0 == "\u{FFFD}" })
    }

    @Test func invalidUTF8AndValuesOutOfRange() {
        let context = TextContext(purposeValue: 99, hintBits: 0xFFFF_FFFF, surroundingText: [0x61, 0xFF, 0xC3, 0x62], cursorByte: 2)
        #expect(context.purpose == .normal)
        // Every hint bit the protocol knows is set, hidden_text among them: secure, so no text at all.
        #expect(context.hints == .all && context.isSecure)
        #expect(context.textBeforeCaret.isEmpty && context.textAfterCaret.isEmpty)
        let plain = TextContext(purposeValue: 99, hintBits: 0x200, surroundingText: [0x61, 0xFF, 0xC3, 0x62], cursorByte: 2)
        #expect(plain.textBeforeCaret == "a\u{FFFD}" && plain.textAfterCaret == "\u{FFFD}b")
    }

    @Test func fourThousandBytesAreBounded() {
        let text = Array(String(repeating: "x", count: 4000).utf8)
        let context = TextContext(purposeValue: 0, hintBits: 0, surroundingText: text, cursorByte: 2000)
        #expect(context.textBeforeCaret.count == TextContext.maxCharactersBeforeCaret)
        #expect(context.textAfterCaret.count == TextContext.maxCharactersAfterCaret)
    }

    @Test func aPasswordKeepsNoText() {
        let context = TextContext(purposeValue: 8, hintBits: 0, surroundingText: Array("secret".utf8), cursorByte: 3)
        #expect(context.isSecure && context.textBeforeCaret.isEmpty && context.textAfterCaret.isEmpty)
    }
}
