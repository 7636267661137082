import KeyboardCore
import Testing

/// A launched session fed one input every 10 ms, for the text-field tests
/// (`TextEditingTests`, `UndoTests`, `CompositionTests`).
struct TextFieldHarness {
    var session = KeyboardSession.launched()
    /// The time of the last input, ms.
    var time = 100

    /// A launched session whose field holds `text` (pasted: one undo step) with the caret at
    /// `caret` (default: the end).
    init(_ text: String = "", caret: Int? = nil) {
        if !text.isEmpty { send(.paste(text)) }
        if let caret { send(.placeCaret(at: caret, extendingSelection: false, clickCount: 1)) }
    }

    /// Sends `input` 10 ms after the last one.
    @discardableResult
    mutating func send(_ input: KeyboardInput) -> [KeyboardEffect] {
        time += 10
        return session.send(input, at: time)
    }

    /// Sends a physical-keyboard editing command.
    @discardableResult
    mutating func command(_ command: EditingCommand) -> [KeyboardEffect] { send(.editing(command)) }

    /// Moves the caret like an arrow key (with Shift when `extending`).
    @discardableResult
    mutating func move(_ movement: CaretMovement, extending: Bool = false) -> [KeyboardEffect] {
        command(.move(movement, extendingSelection: extending))
    }

    /// Types `text` one Character per `.textInput`, as SDL delivers key presses.
    mutating func type(_ text: String) {
        for character in text { send(.textInput(String(character))) }
    }

    /// Selects `anchor`...`caret` the way a mouse drag does.
    mutating func select(from anchor: Int, to caret: Int) {
        send(.placeCaret(at: anchor, extendingSelection: false, clickCount: 1))
        send(.placeCaret(at: caret, extendingSelection: true, clickCount: 1))
    }

    /// Taps an on-screen key (down, then up 40 ms later).
    @discardableResult
    mutating func tap(_ key: KeyID) throws -> [KeyboardEffect] {
        time += 100
        let effects = try session.tap(key, at: time)
        time += 100
        return effects
    }

    var field: TextBuffer { session.document.textField }
    var text: String { session.document.textField.text }
    var caret: Int { session.document.textField.caret }
    var anchor: Int { session.document.textField.anchor }
    var selection: Range<Int>? { session.document.textField.selectedRange }
}

extension Array where Element == KeyboardEffect {
    /// Every `setClipboard` text, in order.
    var clipboardTexts: [String] {
        compactMap { if case .setClipboard(let text) = $0 { text } else { nil } }
    }

    /// Every `textChanged` caret, in order.
    var carets: [Int] {
        compactMap { if case .textChanged(_, let caret) = $0 { caret } else { nil } }
    }
}

/// A buffer holding `text` with the selection `anchor`...`caret` (caret alone when `anchor`
/// is nil).
private func buffer(_ text: String, caret: Int, anchor: Int? = nil) -> TextBuffer {
    var b = TextBuffer(text: text)
    b.setCaret(anchor ?? caret, extendingSelection: false)
    b.setCaret(caret, extendingSelection: anchor != nil)
    return b
}

/// Edits through the `TextDocumentProxy` protocol only, as the keyboard does.
private func proxyInsert<P: TextDocumentProxy>(_ text: String, into proxy: inout P) { proxy.insertText(text) }
private func proxyDelete<P: TextDocumentProxy>(_ proxy: inout P) { proxy.deleteBackward() }
private func proxyAdjust<P: TextDocumentProxy>(_ offset: Int, _ proxy: inout P) {
    proxy.adjustTextPosition(byCharacterOffset: offset)
}
private func proxyContext<P: TextDocumentProxy>(_ proxy: P) -> (String?, String?, Bool) {
    (proxy.documentContextBeforeInput, proxy.documentContextAfterInput, proxy.hasText)
}

/// Issue 4: every editing command of the text field, on `TextBuffer` and through the
/// session's `.editing`, `.placeCaret`, `.textInput` and `.paste` inputs. Offsets are in
/// Characters (grapheme clusters).
@Suite("Text field editing")
struct TextEditingTests {
    static let clusters = [
        "ぇ", "e\u{301}", "🇯🇵", "👍🏽", "👨\u{200D}👩\u{200D}👧\u{200D}👦", "👩🏽\u{200D}💻", "🏳️\u{200D}🌈", "क्ष",
    ]

    // MARK: Left / Right by Character

    @Test("Left and Right step over a whole grapheme cluster", arguments: clusters)
    func leftRightOverCluster(cluster: String) throws {
        try #require(cluster.count == 1)
        var b = TextBuffer(text: "a" + cluster + "b")
        #expect(b.count == 3)
        let prefixes = ["", "a", "a" + cluster, "a" + cluster + "b"]
        for expected in [2, 1, 0, 0] {
            b.moveCaret(.characterLeft, extendingSelection: false)
            #expect(b.caret == expected)
            #expect((b.documentContextBeforeInput ?? "") == prefixes[expected])
        }
        for expected in [1, 2, 3, 3] {
            b.moveCaret(.characterRight, extendingSelection: false)
            #expect(b.caret == expected)
            #expect((b.documentContextBeforeInput ?? "") == prefixes[expected])
        }
    }

    @Test("Shift+Left selects the whole cluster", arguments: clusters)
    func shiftLeftSelectsCluster(cluster: String) {
        var b = TextBuffer(text: "a" + cluster)
        b.moveCaret(.characterLeft, extendingSelection: true)
        #expect(b.selectedText == cluster)
        #expect(b.selectedRange == 1..<2)
        b.deleteBackward()
        #expect(b.text == "a")
        #expect(b.caret == 1 && b.count == 1)
    }

    @Test func arrowsThroughTheSessionReportEachCaret() {
        let text = Self.clusters.joined()
        var h = TextFieldHarness(text)
        #expect(h.caret == Self.clusters.count)
        var carets: [Int] = []
        for _ in 0...Self.clusters.count { carets += h.move(.characterLeft).carets }
        #expect(carets == Array((0..<Self.clusters.count).reversed()), "one report per step, none at the start")
        #expect(h.field.documentContextAfterInput == text)
        for i in 1...Self.clusters.count {
            h.move(.characterRight)
            #expect(h.field.documentContextBeforeInput == Self.clusters[..<i].joined())
        }
        #expect(h.move(.characterRight).texts.isEmpty, "nothing to report at the end")
    }

    @Test func adjacentFlagsAreTwoCharacters() {
        var b = TextBuffer(text: "🇯🇵🇺🇸")
        #expect(b.count == 2)
        b.moveCaret(.characterLeft, extendingSelection: false)
        #expect(b.caret == 1)
        #expect(b.documentContextBeforeInput == "🇯🇵")
        #expect(b.documentContextAfterInput == "🇺🇸")
        b.deleteBackward()
        #expect(b.text == "🇺🇸")
        #expect(b.count == 1 && b.caret == 0)
    }

    // MARK: Words

    /// H0 e1 l2 l3 o4 ,5 _6 w7 i8 d9 e10 _11 w12 o13 r14 l15 d16 !17 _18 _19 f20 … r26 _27 4(28) 2(29)
    static let latin = "Hello, wide world!  foo_bar 42"

    @Test func ctrlRightGoesToTheEndOfEachWord() {
        var b = buffer(Self.latin, caret: 0)
        var stops: [Int] = []
        for _ in 0..<6 {
            b.moveCaret(.wordRight, extendingSelection: false)
            stops.append(b.caret)
        }
        #expect(stops == [5, 11, 17, 27, 30, 30])
    }

    @Test func ctrlLeftGoesToTheStartOfEachWord() {
        var b = buffer(Self.latin, caret: 30)
        var stops: [Int] = []
        for _ in 0..<6 {
            b.moveCaret(.wordLeft, extendingSelection: false)
            stops.append(b.caret)
        }
        #expect(stops == [28, 20, 12, 7, 0, 0])
    }

    @Test func ctrlLeftFromInsideAWordGoesToItsStart() {
        var b = buffer(Self.latin, caret: 9)  // wi|de
        b.moveCaret(.wordLeft, extendingSelection: false)
        #expect(b.caret == 7)
        b.setCaret(9, extendingSelection: false)
        b.moveCaret(.wordRight, extendingSelection: false)
        #expect(b.caret == 11)
    }

    /// 東0 京1 タ2 ワ3 ー4 、5 す6 ご7 い8 。9: kana and kanji are letters, so a Japanese run is
    /// one word; the ideographic comma and full stop separate runs.
    @Test func japaneseRunIsOneWord() {
        var b = TextBuffer(text: "東京タワー、すごい。")
        var left: [Int] = []
        for _ in 0..<3 {
            b.moveCaret(.wordLeft, extendingSelection: false)
            left.append(b.caret)
        }
        #expect(left == [6, 0, 0])
        var right: [Int] = []
        for _ in 0..<3 {
            b.moveCaret(.wordRight, extendingSelection: false)
            right.append(b.caret)
        }
        #expect(right == [5, 9, 10])
    }

    @Test func shiftCtrlArrowsSelectWords() {
        var h = TextFieldHarness(Self.latin)
        h.move(.wordLeft, extending: true)
        h.move(.wordLeft, extending: true)
        #expect(h.selection == 20..<30)
        #expect(h.field.selectedText == "foo_bar 42")
        #expect(h.anchor == 30 && h.caret == 20)
        h.move(.wordRight, extending: true)
        #expect(h.field.selectedText == " 42")
        #expect(h.anchor == 30)
    }

    // MARK: Home / End

    @Test func homeAndEnd() {
        var h = TextFieldHarness("abc def", caret: 3)
        #expect(h.move(.start).withoutDisplay == [.textChanged("abc def", caret: 0)])
        #expect(h.move(.start).withoutDisplay.isEmpty)
        #expect(h.move(.end).withoutDisplay == [.textChanged("abc def", caret: 7)])
        #expect(h.selection == nil)
    }

    @Test func shiftHomeAndShiftEndExtendFromTheAnchor() {
        var h = TextFieldHarness("abc def", caret: 3)
        h.move(.start, extending: true)
        #expect(h.field.selectedText == "abc")
        #expect(h.anchor == 3 && h.caret == 0)
        h.move(.end, extending: true)
        #expect(h.field.selectedText == " def")
        #expect(h.anchor == 3 && h.caret == 7)
        h.move(.start)
        #expect(h.selection == nil && h.caret == 0)
    }

    // MARK: Shift+arrows and collapsing

    @Test func shiftArrowsExtendAndShrink() {
        var h = TextFieldHarness("abcdef", caret: 3)
        h.move(.characterRight, extending: true)
        h.move(.characterRight, extending: true)
        #expect(h.field.selectedText == "de")
        #expect(h.anchor == 3 && h.caret == 5)
        for _ in 0..<3 { h.move(.characterLeft, extending: true) }
        #expect(h.field.selectedText == "c")
        #expect(h.anchor == 3 && h.caret == 2)
        h.move(.characterRight, extending: true)
        #expect(h.selection == nil, "caret back on the anchor: nothing selected")
    }

    @Test("Left/Right collapse a selection to its side", arguments: [(1, 4), (4, 1)])
    func arrowsCollapseSelection(anchor: Int, caret: Int) {
        var left = buffer("abcdef", caret: caret, anchor: anchor)
        left.moveCaret(.characterLeft, extendingSelection: false)
        #expect(left.selectedRange == nil)
        #expect(left.caret == 1, "collapses to the start, no extra step")
        var right = buffer("abcdef", caret: caret, anchor: anchor)
        right.moveCaret(.characterRight, extendingSelection: false)
        #expect(right.selectedRange == nil)
        #expect(right.caret == 4, "collapses to the end, no extra step")
    }

    @Test func collapsingThroughTheSession() {
        var h = TextFieldHarness("abcdef")
        h.select(from: 4, to: 1)
        #expect(h.move(.characterRight).carets == [4])
        #expect(h.selection == nil)
        h.select(from: 1, to: 4)
        #expect(h.move(.characterLeft).carets == [1])
        #expect(h.selection == nil)
    }

    // MARK: Select all, clicks

    @Test func selectAll() {
        var h = TextFieldHarness("héllo 👍🏽", caret: 2)
        h.command(.selectAll)
        #expect(h.selection == 0..<7)
        #expect(h.caret == 7 && h.anchor == 0)
        #expect(h.field.selectedText == "héllo 👍🏽")
        var empty = TextFieldHarness()
        empty.command(.selectAll)
        #expect(empty.selection == nil)
    }

    @Test("Double click selects the word, spaces or punctuation at the offset", arguments: [
        (7, "wide"), (9, "wide"), (10, "wide"), (0, "Hello"), (4, "Hello"), (5, ","), (6, " "),
        (18, "  "), (19, "  "), (22, "foo_bar"), (29, "42"), (30, "42"),
    ])
    func doubleClickSelectsWord(offset: Int, expected: String) {
        var h = TextFieldHarness(Self.latin)
        h.send(.placeCaret(at: offset, extendingSelection: false, clickCount: 2))
        #expect(h.field.selectedText == expected)
        #expect(h.caret == h.selection?.upperBound)
    }

    @Test func doubleClickInJapaneseAndOnEmoji() {
        var h = TextFieldHarness("東京タワー、すごい")
        h.send(.placeCaret(at: 2, extendingSelection: false, clickCount: 2))
        #expect(h.field.selectedText == "東京タワー")
        var e = TextFieldHarness("hi 👍🏽👍🏽 there")
        e.send(.placeCaret(at: 3, extendingSelection: false, clickCount: 2))
        #expect(e.field.selectedText == "👍🏽", "an emoji is a word of its own")
    }

    @Test func tripleClickSelectsAll() {
        var h = TextFieldHarness(Self.latin)
        h.send(.placeCaret(at: 9, extendingSelection: false, clickCount: 1))
        h.send(.placeCaret(at: 9, extendingSelection: false, clickCount: 2))
        #expect(h.field.selectedText == "wide")
        h.send(.placeCaret(at: 9, extendingSelection: false, clickCount: 3))
        #expect(h.selection == 0..<30)
        h.send(.placeCaret(at: 9, extendingSelection: false, clickCount: 1))
        #expect(h.selection == nil && h.caret == 9)
    }

    @Test func clickAndDragSelect() {
        var h = TextFieldHarness("abcdef")
        #expect(h.send(.placeCaret(at: 2, extendingSelection: false, clickCount: 1)).carets == [2])
        h.send(.placeCaret(at: 4, extendingSelection: true, clickCount: 1))
        h.send(.placeCaret(at: 5, extendingSelection: true, clickCount: 1))
        #expect(h.field.selectedText == "cde")
        h.send(.placeCaret(at: 0, extendingSelection: true, clickCount: 1))
        #expect(h.field.selectedText == "ab")
        #expect(h.anchor == 2)
        #expect(h.send(.placeCaret(at: 99, extendingSelection: false, clickCount: 1)).carets == [6], "clamped")
    }

    // MARK: Replacing and deleting the selection

    @Test func typingReplacesTheSelection() {
        var h = TextFieldHarness("hello world")
        h.send(.placeCaret(at: 8, extendingSelection: false, clickCount: 2))
        #expect(h.send(.textInput("X")).withoutDisplay == [.textChanged("hello X", caret: 7)])
        h.type("YZ")
        #expect(h.text == "hello XYZ")
        #expect(h.selection == nil)
    }

    @Test func heeButtonReplacesTheSelection() throws {
        var h = TextFieldHarness("abc def")
        h.command(.selectAll)
        let effects = try h.tap(.hee)
        #expect(effects.texts == ["へぇ〜"])
        #expect(effects.heeCounts == [1])
        #expect(h.caret == 3 && h.selection == nil)
        h.select(from: 1, to: 2)
        try h.tap(.hee)
        #expect(h.text == "へへぇ〜〜")
        #expect(h.caret == 4)
    }

    @Test func letterKeyReplacesTheSelection() throws {
        var h = TextFieldHarness("abc")
        h.select(from: 0, to: 2)
        #expect(try h.tap(.letter("z")).texts == ["zc"])
        #expect(h.caret == 1)
    }

    @Test func bufferInsertReplacesSelectionInEitherDirection() {
        for (anchor, caret) in [(2, 5), (5, 2)] {
            var b = buffer("ab👍🏽cdef", caret: caret, anchor: anchor)
            proxyInsert("XY", into: &b)
            #expect(b.text == "abXYef")
            #expect(b.caret == 4 && b.anchor == 4 && b.count == 6)
        }
    }

    @Test("Backspace, Delete and Ctrl+Backspace delete only the selection", arguments: [
        EditingCommand.deleteBackward, .deleteForward, .deleteWordBackward,
    ])
    func deletingTheSelection(command: EditingCommand) {
        var h = TextFieldHarness("hello brave world")
        h.select(from: 11, to: 6)
        #expect(h.command(command).withoutDisplay == [.textChanged("hello  world", caret: 6)])
        #expect(h.selection == nil)
    }

    @Test func backspaceKeyDeletesTheSelection() throws {
        var h = TextFieldHarness("hello brave world")
        h.select(from: 6, to: 11)
        #expect(try h.tap(.backspace).texts == ["hello  world"])
        #expect(h.caret == 6)
    }

    @Test func proxyDeleteBackwardDeletesTheSelection() {
        var b = buffer("e\u{301}🇯🇵x", caret: 0, anchor: 2)
        proxyDelete(&b)
        #expect(b.text == "x")
        #expect(b.caret == 0 && b.count == 1)
    }

    // MARK: Delete, Ctrl+Backspace

    @Test func deleteForwardRemovesOneCharacterAfterTheCaret() {
        var h = TextFieldHarness("ab👍🏽c", caret: 2)
        #expect(h.command(.deleteForward).withoutDisplay == [.textChanged("abc", caret: 2)])
        h.move(.end)
        #expect(h.command(.deleteForward).withoutDisplay.isEmpty, "nothing after the caret")
        #expect(h.text == "abc")
    }

    @Test("Ctrl+Backspace deletes the word before the caret and the spaces after it", arguments: [
        ("hello world", 11, "hello ", 6),
        ("hello ", 6, "", 0),
        ("foo bar   ", 10, "foo ", 4),
        ("hello world", 5, " world", 0),
        ("hello wor", 8, "hello r", 6),
        ("これは日本語です", 8, "", 0),
        ("東京 タワー", 6, "東京 ", 3),
        ("a 👍🏽👍🏽", 4, "a ", 2),
        ("", 0, "", 0),
    ])
    func ctrlBackspace(text: String, caret: Int, expected: String, expectedCaret: Int) {
        var h = TextFieldHarness(text, caret: caret)
        h.command(.deleteWordBackward)
        #expect(h.text == expected)
        #expect(h.caret == expectedCaret)
        #expect(h.field.count == expected.count)
    }

    // MARK: Proxy

    @Test func proxyContextsWithASelection() {
        var b = buffer("hello brave world", caret: 11, anchor: 6)
        var c = proxyContext(b)
        #expect(c.0 == "hello " && c.1 == " world" && c.2)
        b = buffer("hello brave world", caret: 6, anchor: 11)
        c = proxyContext(b)
        #expect(c.0 == "hello " && c.1 == " world", "same for a backwards selection")
        b = buffer("hello brave world", caret: 5, anchor: 0)
        #expect(proxyContext(b).0 == nil, "selection from the start: nothing before")
        #expect(proxyContext(b).1 == " brave world")
        b = buffer("hello brave world", caret: 12, anchor: 17)
        #expect(proxyContext(b).0 == "hello brave ")
        #expect(proxyContext(b).1 == nil, "selection to the end: nothing after")
        b.selectAll()
        c = proxyContext(b)
        #expect(c.0 == nil && c.1 == nil && c.2, "everything selected: no context, but text")
        proxyDelete(&b)
        c = proxyContext(b)
        #expect(c.0 == nil && c.1 == nil && !c.2)
    }

    @Test func proxyContextsWithoutASelection() {
        let b = buffer("へぇ〜👍🏽", caret: 2)
        let c = proxyContext(b)
        #expect(c.0 == "へぇ" && c.1 == "〜👍🏽" && c.2)
    }

    @Test("adjustTextPosition collapses the selection and moves from the caret", arguments: [
        (6, 11, 0, 11), (6, 11, -2, 9), (11, 6, 1, 7), (11, 6, -100, 0), (6, 11, 100, 17),
    ])
    func adjustCollapses(anchor: Int, caret: Int, offset: Int, expected: Int) {
        var b = buffer("hello brave world", caret: caret, anchor: anchor)
        proxyAdjust(offset, &b)
        #expect(b.selectedRange == nil)
        #expect(b.caret == expected && b.anchor == expected)
        #expect((b.documentContextBeforeInput ?? "").count == expected)
    }

    // MARK: Clipboard

    @Test func copyWithASelectionPutsItOnTheClipboardAndKeepsTheText() {
        var h = TextFieldHarness("hello brave world")
        h.select(from: 6, to: 11)
        #expect(h.command(.copy) == [.setClipboard("brave")])
        #expect(h.text == "hello brave world")
        #expect(h.selection == 6..<11, "the selection stays")
    }

    @Test func copyOfGraphemeClusters() {
        var h = TextFieldHarness("a🇯🇵e\u{301}")
        h.move(.characterLeft, extending: true)
        h.move(.characterLeft, extending: true)
        #expect(h.command(.copy).clipboardTexts == ["🇯🇵e\u{301}"])
    }

    @Test func cutRemovesTheSelection() {
        var h = TextFieldHarness("hello brave world")
        h.select(from: 11, to: 6)
        #expect(h.command(.cut).withoutDisplay == [.setClipboard("brave"), .textChanged("hello  world", caret: 6)])
        #expect(h.selection == nil)
    }

    @Test("Copy and cut without a selection do nothing", arguments: [EditingCommand.copy, .cut])
    func clipboardWithoutSelection(command: EditingCommand) {
        var h = TextFieldHarness("hello", caret: 2)
        let before = h.field
        #expect(h.command(command).isEmpty)
        #expect(h.field == before)
    }

    @Test func pasteReplacesTheSelection() {
        var h = TextFieldHarness("hello brave world")
        h.select(from: 6, to: 11)
        #expect(h.send(.paste("big")).withoutDisplay == [.textChanged("hello big world", caret: 9)])
        #expect(h.selection == nil)
    }

    @Test("Pasted line breaks and tabs become spaces", arguments: [
        ("a\nb", "a b"), ("a\r\nb", "a b"), ("a\tb", "a b"), ("one\ntwo\r\nthree\tfour\n", "one two three four "),
        ("\r\n\r\n", "  "),
    ])
    func pasteSingleLine(pasted: String, expected: String) {
        var h = TextFieldHarness("[]", caret: 1)
        h.send(.paste(pasted))
        #expect(h.text == "[" + expected + "]")
        #expect(h.caret == 1 + expected.count)
        #expect(h.field.count == expected.count + 2)
    }

    /// Pastes `length` Characters (every 80th a line break) into the middle of a field,
    /// replacing a selection, through the session. Returns the work the paste cost (counted by
    /// the buffer, so the same on a busy machine; the time it takes is a `make bench` figure)
    /// and the field after it.
    static func paste(length: Int) -> (TextWork, TextFieldHarness) {
        let line = String(String(repeating: "あいう👍🏽abcdef", count: 8).dropLast())  // 79 Characters
        var text = String(repeating: line + "\n", count: length / 80 - 1)
        text += String(repeating: "x", count: length - (length / 80 - 1) * 80)
        var h = TextFieldHarness("[selected]", caret: 1)
        h.send(.placeCaret(at: 9, extendingSelection: true, clickCount: 1))
        let before = h.field.work
        h.send(.paste(text))
        return (h.field.work - before, h)
    }

    @Test func longPasteIsLinear() {
        let (small, _) = Self.paste(length: 50_000)
        let (middle, _) = Self.paste(length: 100_000)
        let (large, h) = Self.paste(length: 200_000)
        // Booleans first: a failed #expect would print the whole 200k text.
        let (prefix, suffix) = (h.text.hasPrefix("[あいう👍🏽abcdef"), h.text.hasSuffix("xx]"))
        let spaces = h.text.utf8.count(where: { $0 == UInt8(ascii: " ") })
        let breaks = h.text.utf8.count(where: { $0 == UInt8(ascii: "\n") })
        #expect(h.field.count == 200_002)
        #expect(h.caret == 200_001)
        #expect(prefix && suffix)
        #expect(spaces == 200_000 / 80 - 1 && breaks == 0)
        // Linear, counted exactly: each further 50,000 Characters cost the same work, so 4 ×
        // the text costs 4 × the work up to the paste's fixed cost (quadratic work would grow
        // 16 ×, and the second 100,000 Characters would cost 3 × the first).
        let firstDoubling = middle - small, secondDoubling = large - middle
        #expect(secondDoubling == TextWork(characters: 2 * firstDoubling.characters, scalars: 2 * firstDoubling.scalars,
                                           bytes: 2 * firstDoubling.bytes),
                "50k paste: \(small); 100k: \(middle); 200k: \(large)")
        // Every pasted Character is segmented (the counter sees the paste), a bounded number
        // of times: once to turn line breaks into spaces, once to place the caret.
        #expect(large.characters >= 200_000 && large.characters <= 2 * 200_000 + 64, "\(large)")
        // The text is copied a bounded number of times: the cleaned copy, the re-segmented
        // window, the write into the field.
        let pastedBytes = h.text.utf8.count
        #expect(large.bytes >= pastedBytes && large.bytes <= 3 * pastedBytes + 64, "\(large), \(pastedBytes) bytes")
    }

    /// The same edits and caret moves at the end of a field of `length` Characters: the work
    /// they cost, and the field after them.
    static func editAtTheEnd(length: Int) -> (TextWork, TextFieldHarness) {
        var h = TextFieldHarness()
        h.send(.paste(String(repeating: "abc def ", count: length / 8)))
        let before = h.field.work
        for _ in 0..<100 {
            h.type("z")
            h.move(.characterLeft)
            h.move(.wordLeft)
            h.move(.end)
            h.command(.deleteBackward)
        }
        return (h.field.work - before, h)
    }

    @Test func editingAfterALongPasteCostsOnlyWhatItTouches() {
        let (short, _) = Self.editAtTheEnd(length: 2_000)
        var (long, h) = Self.editAtTheEnd(length: 200_000)
        #expect(h.field.count == 200_000)
        #expect(h.caret == 200_000)
        // No part of 500 edits and moves depends on the text's length: the same work on 2,000
        // and 200,000 Characters, a few Characters each (a walk of the text would be 200,000).
        #expect(long == short, "500 edits and moves: \(short) on 2,000 Characters, \(long) on 200,000")
        #expect(long.characters > 0 && long.characters <= 500 * 16, "\(long)")
        #expect(long.bytes > 0 && long.bytes <= 500 * 16, "\(long)")
        // Home and End walk nothing: the start and the end are known positions.
        let before = h.field.work
        h.move(.start)
        #expect(h.caret == 0)
        h.move(.end)
        #expect(h.caret == 200_000)
        long = h.field.work - before
        #expect(long == TextWork(), "Home + End on 200,000 Characters: \(long)")
    }
}
