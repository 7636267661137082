import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// What AT-SPI hands the X11 context source about the focused object, as AtspiContextSource
// hands it on (AccessibleFacts.textContext), and what a compositor's content_type carries
// (TextContext's raw protocol values), issue 30. The bytes are decoded as: role (2 bytes,
// any AtspiRole number or none), states (8 bytes), a flags byte (whether there is text, an
// application; whether the caret and start are extreme values; how many times the text is
// repeated, up to 4096 — a huge text from a short input), caret and start (4 bytes each,
// signed: outside the text, negative), content_type's purpose and hint (4 bytes each, any
// value), then fields split at NUL: the application, attribute names and values in turn, and
// last the text — any bytes, decoded as the app decodes libatspi's strings (invalid UTF-8
// replaced).
//
// Promises checked: no crash, hang or unbounded memory; no text field gives `inactive`; a
// text field gives an active context whose text is at most 256 Characters before the caret
// and 100 after, none at all for a secure field or one whose text may not be read, and, when
// there is text, a suffix of the text before the caret and a prefix of the text after it; the
// application is one line of at most 128 Characters; the trace's context line is one JSON line
// with only `active`, `purpose`, `hints`, `application` and `secure` beside `event` and `t` (no
// text), `secure: true` and neither purpose nor hints for a secure field; raw protocol values
// give a known purpose and only the protocol's hints.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAtspiContext(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var reader = ByteReader(fuzzBytes(data, size))
    let role = AccessibleFacts.Role(rawValue: Int32(Int16(bitPattern: UInt16(reader.byte()) << 8 | UInt16(reader.byte()))))
    var stateBits: UInt64 = 0
    for _ in 0..<8 { stateBits = stateBits << 8 | UInt64(reader.byte()) }
    let flags = reader.byte()
    func word() -> Int32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(reader.byte()) }
        return Int32(bitPattern: value)
    }
    var caret = Int(word())
    var start = Int(word())
    if flags & 0x04 != 0 { caret = flags & 0x08 != 0 ? .max : .min }
    if flags & 0x10 != 0 { start = flags & 0x20 != 0 ? .max : .min }
    let purposeValue = UInt32(bitPattern: word())
    let hintBits = UInt32(bitPattern: word())
    var rest: [UInt8] = []
    while !reader.isAtEnd { rest.append(reader.byte()) }
    var fields = rest.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let text = fields.count > 1 ? fields.removeLast() : ""
    let application = flags & 0x02 != 0 && !fields.isEmpty ? fields.removeFirst() : nil
    var attributes: [String: String] = [:]
    var index = 0
    while index + 1 < fields.count {
        attributes[fields[index]] = fields[index + 1]
        index += 2
    }
    let repeats = flags & 0x40 != 0 ? 1 + Int(flags & 0x80 != 0 ? 4095 : text.utf8.count % 64) : 1
    let window = flags & 0x01 != 0
        ? AccessibleFacts.TextWindow(text: String(repeating: text, count: repeats), start: start, caret: caret) : nil
    let facts = AccessibleFacts(role: role, states: AccessibleFacts.States(rawValue: stateBits), attributes: attributes,
                                application: application, text: window)

    let context = facts.textContext
    if !facts.isTextField {
        require(context == .inactive, "no text field, yet \(context)")
    } else {
        check(context, from: facts)
    }
    checkTraceLine(context)
    let raw = TextContext(purposeValue: purposeValue, hintBits: hintBits, textBeforeCaret: text, application: application)
    require(TextContext.Purpose.allCases.contains(raw.purpose), "purpose \(raw.purpose)")
    require(TextContext.Hints.all.isSuperset(of: raw.hints), "hints \(raw.hints.rawValue)")
    require(raw.purpose.rawValue == purposeValue || (TextContext.Purpose(rawValue: purposeValue) == nil && raw.purpose == .normal),
            "purpose \(purposeValue) became \(raw.purpose)")
    require(raw.hints.rawValue == hintBits & TextContext.Hints.all.rawValue, "hints \(hintBits) became \(raw.hints.rawValue)")
    require(!raw.isSecure || raw.textBeforeCaret.isEmpty, "a secure raw context kept its text")
    checkTraceLine(raw)
    return 0
}

/// An active context's promises, from `facts`.
private func check(_ context: TextContext, from facts: AccessibleFacts) {
    require(context.isActive, "a text field's context is inactive")
    require(context.purpose == facts.purpose && context.hints == facts.hints, "purpose or hints differ from the facts'")
    require(context.textBeforeCaret.count <= TextContext.maxCharactersBeforeCaret, "\(context.textBeforeCaret.count) before")
    require(context.textAfterCaret.count <= TextContext.maxCharactersAfterCaret, "\(context.textAfterCaret.count) after")
    if context.isSecure || !facts.mayReadText || facts.text == nil {
        require(context.textBeforeCaret.isEmpty && context.textAfterCaret.isEmpty, "text kept that may not be")
    }
    if let window = facts.text, !context.textBeforeCaret.isEmpty || !context.textAfterCaret.isEmpty {
        let scalars = Array(window.text.unicodeScalars)
        let caret = window.caret - window.start
        require(caret >= 0 && caret <= scalars.count, "text from a caret outside the window")
        let before = Array(context.textBeforeCaret.unicodeScalars)
        let after = Array(context.textAfterCaret.unicodeScalars)
        require(Array(scalars[..<caret].suffix(before.count)) == before, "the text before is no suffix of the text before the caret")
        require(Array(scalars[caret...].prefix(after.count)) == after, "the text after is no prefix of the text after the caret")
    }
    if let application = context.application {
        require(isOneLine(application) && !application.isEmpty, "application \(application.debugDescription)")
        require(application.count <= TextContext.maxApplicationCharacters, "application of \(application.count)")
    }
}

/// The trace's context line: one JSON line with no text of the field.
private func checkTraceLine(_ context: TextContext) {
    let line = TraceEvent.context(context).json(at: 1.5)
    require(isJSONLine(line.serialized), "the context line is not one JSON line")
    guard case .object(let members) = line else { return require(false, "the context line is no object") }
    let names = Set(members.map(\.0))
    require(names.isSubset(of: ["event", "t", "active", "purpose", "hints", "application", "secure"]), "fields \(names)")
    if context.isSecure {
        require(names.contains("secure") && !names.contains("purpose") && !names.contains("hints"), "a secure field's line: \(names)")
    }
}
