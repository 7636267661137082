/// A focused field told as input-method-v2's `surrounding_text` tells it (issue 30): the text
/// as UTF-8 bytes, the cursor as a byte offset into them.
extension TextContext {
    /// A focused field of text-input-v3's `purposeValue` and `hintBits` whose text around the
    /// cursor is `surroundingText` with the cursor `cursorByte` bytes in (`nil`: the field tells
    /// no text). Whatever a compositor hands over is taken without failing: bytes that are not
    /// UTF-8 (a cursor inside a character splits it) become U+FFFD, a cursor beyond the text is
    /// its end, an unknown purpose is `normal` and unknown hint bits are dropped; the text is
    /// then bounded (and dropped for a secure field) as `init(purpose:…)` does.
    public init(purposeValue: UInt32, hintBits: UInt32, surroundingText: [UInt8]?, cursorByte: UInt32) {
        let bytes = surroundingText ?? []
        let cursor = Int(min(UInt64(cursorByte), UInt64(bytes.count)))
        self.init(purposeValue: purposeValue, hintBits: hintBits,
                  textBeforeCaret: String(decoding: bytes[..<cursor], as: UTF8.self),
                  textAfterCaret: String(decoding: bytes[cursor...], as: UTF8.self))
    }
}
