import KeyboardCore

// What a compositor hands Wayland system mode's input method (issue 30), as
// WaylandInputMethod and the AutoShow part take it. The bytes are decoded as: content_type's
// purpose and hint (4 bytes each, any value), surrounding_text's cursor (4 bytes, any value:
// beyond the text, inside a character), the text's length (2 bytes, at most 4000 — the
// protocol's bound — and never more than the bytes left), the text (any bytes: invalid UTF-8),
// then a storm of events for AutoShow, one byte each: `done` with a field active (a new focus
// when bit 2 is set), `done` with none, time passing (the byte's high bits × 10 ms), the `hide`
// key; every fourth event with auto-show off or the platform unable to tell, by the flags.
//
// Promises checked: no crash, hang or unbounded memory; the context is active, of a known
// purpose and only the protocol's hints, with at most 256 Characters before the caret and 100
// after, none for a secure field; the keyboard is never hidden while a newly focused field has
// the focus, never shown for lack of time once the hold has run out with no field, always shown
// where the platform cannot tell or auto-show is off; a pending hide is never in the past of the
// time the part last saw, nor set while hidden.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputMethod(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var reader = ByteReader(fuzzBytes(data, size))
    func word() -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(reader.byte()) }
        return value
    }
    let purposeValue = word(), hintBits = word(), cursor = word()
    let length = min(Int(UInt16(reader.byte()) << 8 | UInt16(reader.byte())), 4000)
    let text = Array(reader.take(length))
    let context = TextContext(purposeValue: purposeValue, hintBits: hintBits, surroundingText: text, cursorByte: cursor)
    require(context.isActive, "a focused field is inactive")
    require(TextContext.Purpose.allCases.contains(context.purpose), "purpose \(context.purpose)")
    require(context.hints.rawValue == hintBits & TextContext.Hints.all.rawValue, "hints \(hintBits) → \(context.hints.rawValue)")
    require(context.textBeforeCaret.count <= TextContext.maxCharactersBeforeCaret, "\(context.textBeforeCaret.count) before")
    require(context.textAfterCaret.count <= TextContext.maxCharactersAfterCaret, "\(context.textAfterCaret.count) after")
    require(!context.isSecure || (context.textBeforeCaret.isEmpty && context.textAfterCaret.isEmpty), "a secure field kept text")

    let flags = reader.byte()
    var part = AutoShow(isEnabled: flags & 1 == 0)
    var time = Duration.zero
    _ = part.launched(at: time)
    var focus: UInt64 = 0
    var available = true
    while !reader.isAtEnd {
        let event = reader.byte()
        switch event & 3 {
        case 0:
            if event & 4 != 0 { focus &+= 1 }
            let before = part.isDismissed
            _ = part.contextChanged(context, focus: focus, at: time)
            if event & 4 != 0 || !before { require(part.isShown, "hidden while a newly focused field has the focus") }
        case 1:
            _ = part.contextChanged(.inactive, focus: focus, at: time)
        case 2:
            time += .milliseconds(Int64(event >> 2) * 10)
            _ = part.tick(at: time)
            if let due = part.hideDue { require(due > time, "a hide due at \(due) was not done at \(time)") }
        default:
            _ = part.dismissed()
        }
        if flags & 2 != 0, event & 0xF0 == 0xF0, available {
            available = false
            _ = part.unavailable()
        }
        if part.hideDue != nil { require(part.isShown && !part.context.isActive, "a hide pending while hidden or focused") }
        if !part.isEnabled || !part.isAvailable { require(part.isShown, "hidden though auto-show is off or cannot tell") }
    }
    return 0
}
