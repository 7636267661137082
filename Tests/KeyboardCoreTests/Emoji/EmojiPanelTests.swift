import KeyboardCore
import Testing

/// The emoji keyboard in the session (issue 34): reached by the globe key, its data asked of
/// the app once; categories, pages (drag, wheel), ABC, skin tones from the bubble,
/// Frequently Used and secure fields.
@Suite("Emoji keyboard")
struct EmojiPanelTests {
    @Test func theGlobeKeyReachesItAfterTheKanaPadAndItsDataIsAskedOnce() throws {
        var session = try KeyboardSession.emoji()
        #expect(session.layerName == "smileys", "nothing used yet: Smileys & People first")
        let bar = try #require(session.definition.firstLayer.rows.last).compactMap(\.keyID)
        #expect(bar == [EmojiPanel.abcKey, .globe] + EmojiCategory.allCases.map(\.keyID) + [.backspace])
        #expect(session.layout.keys["😀"] != nil && session.layout.keys[.hee] != nil)
        #expect(session.layout.keys.count == 1 + 30 + 12)
        let frame = session.layout.keyboardFrame
        #expect(frame.maxY == KeyboardLayout.defaultWindowSize.height)
        #expect(session.definition.label(of: EmojiPanel.abcKey) == "あいう", "from the kana pad, as iOS")
        // ABC: back to the kana pad it came from; the globe again: no second ask.
        try session.tap(EmojiPanel.abcKey, at: 300)
        #expect(session.definition.name == "ja-kana")
        let again = try session.tap(.globe, at: 400)
        #expect(!again.contains(.emojiDataNeeded) && session.definition.name == "emoji")
        // Its own 🌐 goes on round the globe key's list: en.
        #expect(try session.tap(.globe, at: 500).contains(.keyboardLayoutChanged("en")))
        #expect(session.definition.name == "en")
    }

    @Test func aTapTypesTheEmojiAndBackspaceDeletesItWhole() throws {
        var session = try KeyboardSession.emoji()
        let effects = try session.tap("😀", at: 300)
        #expect(session.typed == "😀")
        #expect(effects.contains(.emojiRecentsChanged(["😀"])))
        try session.tap("emoji:flags", at: 400)
        let flag: KeyID = "🇯🇵"  // on a later page of the flags
        session.send(.scroll(steps: 1), at: 450)
        while session.layout.keys[flag] == nil { session.send(.scroll(steps: 1), at: 460) }
        try session.tap(flag, at: 500)
        #expect(session.typed == "😀🇯🇵")
        try session.tap(.backspace, at: 600)
        #expect(session.typed == "😀")
        try session.tap(.backspace, at: 700)
        #expect(session.typed.isEmpty)
    }

    @Test func tappingACategoryJumpsToItsFirstPage() throws {
        var session = try KeyboardSession.emoji()
        let effects = try session.tap("emoji:animals", at: 300)
        #expect(session.layerName == "animals")
        #expect(effects.contains(.layerChanged("animals")) && effects.contains(.layoutChanged))
        #expect(session.layout.keys["🐱"] != nil)
        #expect(session.typed.isEmpty, "a category key types nothing")
    }

    @Test func aSidewaysDragTurnsOnePageAndTypesNothing() throws {
        var session = try KeyboardSession.emoji()
        let start = try session.center(of: "😃")
        session.send(.pointerDown(.finger(1), start), at: 300)
        session.send(.pointerMoved(.finger(1), Point(x: start.x - 10, y: start.y)), at: 320)
        #expect(session.layerName == "smileys", "10 points: still a press")
        let turned = session.send(.pointerMoved(.finger(1), Point(x: start.x - 35, y: start.y)), at: 340)
        #expect(session.layerName == "smileys.2")
        #expect(turned.contains(.keyTouched("😃", down: false)))
        session.send(.pointerMoved(.finger(1), Point(x: start.x - 100, y: start.y)), at: 360)
        #expect(session.layerName == "smileys.2", "one turn per drag")
        session.send(.pointerUp(.finger(1), Point(x: start.x - 100, y: start.y)), at: 380)
        #expect(session.typed.isEmpty)
        // Dragging right goes back; a drag mostly downwards does not turn.
        let point = try session.center(of: session.shownEmoji[0])
        session.send(.pointerDown(.finger(2), point), at: 400)
        session.send(.pointerMoved(.finger(2), Point(x: point.x + 40, y: point.y)), at: 420)
        #expect(session.layerName == "smileys")
        session.send(.pointerUp(.finger(2), Point(x: point.x + 40, y: point.y)), at: 440)
        #expect(session.typed.isEmpty)
    }

    @Test func theWheelTurnsPagesWithinTheGridOnly() throws {
        var session = try KeyboardSession.emoji()
        session.send(.scroll(steps: -1), at: 300)
        #expect(session.layerName == "recents")
        #expect(session.send(.scroll(steps: -1), at: 310).withoutDisplay.isEmpty, "the first page: nothing before it")
        session.send(.scroll(steps: 1), at: 320)
        session.send(.scroll(steps: 1), at: 330)
        #expect(session.layerName == "smileys.2")
        try session.tap("emoji:flags", at: 400)
        while session.emoji.page(1, after: session.layerName) != nil { session.send(.scroll(steps: 1), at: 500) }
        #expect(session.layerName.hasPrefix("flags"))
        // Not shown: the wheel does nothing.
        var letters = KeyboardSession.launched()
        #expect(letters.send(.scroll(steps: 1), at: 100).withoutDisplay.isEmpty)
    }

    @Test func aLongPressOffersTheFiveTonesAndTheChoiceIsRemembered() throws {
        var session = try KeyboardSession.emoji()
        try session.tap("emoji:smileys", at: 300)
        while session.layout.keys["👍"] == nil { session.send(.scroll(steps: 1), at: 310) }
        let thumb = try session.center(of: "👍")
        session.send(.pointerDown(.mouse, thumb), at: 400)
        session.send(.tick, at: 400 + Int(AlternatesBubble.holdDelay / .milliseconds(1)))
        let bubble = try #require(session.pointers.bubble)
        #expect(bubble.choices.map(\.text) == ["👍🏻", "👍🏼", "👍🏽", "👍🏾", "👍🏿"])
        let medium = bubble.choices[2].frame.center
        session.send(.pointerMoved(.mouse, medium), at: 1500)
        let up = session.send(.pointerUp(.mouse, medium), at: 1550)
        #expect(session.typed == "👍🏽")
        #expect(up.contains(.emojiRecentsChanged(["👍🏽"])))
        #expect(session.layout.keys["👍🏽"] != nil && session.layout.keys["👍"] == nil, "the tone shows in its place")
        try session.tap("👍🏽", at: 1700)
        #expect(session.typed == "👍🏽👍🏽")
    }

    @Test func frequentlyUsedIsShownFirstAsItWasWhenTheKeyboardOpened() throws {
        var session = try KeyboardSession.emoji(recents: ["🐱", "😀"])
        #expect(session.layerName == "recents")
        #expect(session.definition.firstLayer.keyIDs.filter { $0 != .hee }.prefix(2) == ["🐱", "😀"])
        try session.tap("😀", at: 300)
        #expect(session.emoji.recents.emoji == ["😀", "🐱"])
        #expect(session.shownEmoji.prefix(2) == ["🐱", "😀"], "the page does not move under the finger")
        try session.tap(EmojiPanel.abcKey, at: 400)
        try session.tap(.globe, at: 500)
        #expect(session.shownEmoji.prefix(2) == ["😀", "🐱"], "reopened: most recent first")
    }

    @Test func nothingTypedInASecureFieldIsRemembered() throws {
        var session = try KeyboardSession.emoji(mode: .system)
        session.send(.secureFieldChanged(true), at: 250)
        let effects = try session.tap("😀", at: 300)
        #expect(effects.contains(.send(.text("😀"))), "typed all the same")
        #expect(!effects.contains { if case .emojiRecentsChanged = $0 { true } else { false } })
        #expect(session.emoji.recents.emoji.isEmpty)
        session.send(.secureFieldChanged(false), at: 350)
        #expect(try session.tap("😀", at: 400).contains(.emojiRecentsChanged(["😀"])))
    }

    @Test func theGlobeEmojiIsAKeyOfItsOwnNotTheGlobeKey() throws {
        var session = try KeyboardSession.emoji()
        #expect(EmojiPanel.keyID(of: "🌐") == "emoji:🌐")
        let layer = try #require(session.definition.layers.first { $0.keyIDs.contains("emoji:🌐") })
        while session.layerName != layer.name { session.send(.scroll(steps: 1), at: 300) }
        try session.tap("emoji:🌐", at: 400)
        #expect(session.typed == "🌐" && session.definition.name == "emoji")
    }

    @Test func badDataGivesAnEmptyGridAndOneReason() throws {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize,
                                      layouts: [.english, EmojiPanel.placeholder])
        _ = session.handle(.launched, at: .zero)
        #expect(try session.tap(.globe, at: 100).contains(.emojiDataNeeded))
        let effects = session.send(.emojiData("😀\tnowhere\t\n"), at: 110)
        #expect(effects.contains(.emojiDataRejected("emoji data line 1: unknown category nowhere")))
        #expect(session.definition.name == "emoji" && session.layout.keys.count == 1 + 12)
    }
}

extension EmojiPanelTests {
    /// System mode announces the keys a press may need; the emoji pages are not announced
    /// (30 emoji would take every spare keycode at each page turn), a pressed emoji is.
    @Test func systemModeAnnouncesOnlyThePressedEmoji() throws {
        var session = try KeyboardSession.emoji(mode: .system)
        #expect(session.keysToPrepare == "へぇ〜")
        session.send(.pointerDown(.mouse, try session.center(of: "😀")), at: 300)
        #expect(session.keysToPrepare == "😀へぇ〜")
        session.send(.pointerUp(.mouse, try session.center(of: "😀")), at: 340)
        try session.tap(.globe, at: 400)
        #expect(session.definition.name == "en")
        #expect(session.keysToPrepare.contains("qwertyuiop"), "the letters are announced again")
    }
}
