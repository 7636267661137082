import Foundation
import KeyboardCore
import Testing

/// The committed emoji data (`emoji/emoji.tsv`), read from the source tree.
enum EmojiData {
    static let text: String = {
        let repo = #filePath.split(separator: "/").dropLast(4).joined(separator: "/")
        return (try? String(contentsOfFile: "/" + repo + "/emoji/emoji.tsv", encoding: .utf8)) ?? ""
    }()
}

extension KeyboardSession {
    /// A launched session whose globe key goes en → ja-kana → emoji, with the emoji data
    /// handed in and the emoji keyboard shown (two globe presses, from `mode`).
    static func emoji(mode: KeyboardMode = .hostScreen, recents: [String] = []) throws -> KeyboardSession {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, mode: mode,
                                      layouts: [.english, .japaneseKana, EmojiPanel.placeholder], emojiRecents: recents)
        _ = session.handle(.launched, at: .zero)
        session.send(.tick, at: 10)
        try session.tap(.globe, at: 100)
        #expect(session.definition.name == "ja-kana")
        let asked = try session.tap(.globe, at: 200)
        #expect(asked.contains(.emojiDataNeeded))
        #expect(session.definition.name == "ja-kana", "not shown before its data arrives")
        let shown = session.send(.emojiData(EmojiData.text), at: 210)
        #expect(session.definition.name == EmojiPanel.layoutName)
        #expect(shown.contains(.keyboardLayoutChanged("emoji")) && shown.contains(.layoutChanged))
        return session
    }

    /// The emoji keys of the page shown, in reading order.
    var shownEmoji: [KeyID] { definition.layer(named: layerName)?.keyIDs.filter { $0 != .hee && layout.keys[$0]!.maxY < layout.keys[.backspace]!.minY } ?? [] }

    /// Every text the document typed so far: the field's, or system mode's keystrokes' texts.
    var typed: String { document.textField.text }
}
