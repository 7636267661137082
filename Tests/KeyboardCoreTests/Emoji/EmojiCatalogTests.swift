import KeyboardCore
import Testing

/// The emoji data parsed (issue 34): the committed file, its categories and skin tones, and
/// what a malformed line gives; Frequently Used's list rules.
@Suite("Emoji catalog")
struct EmojiCatalogTests {
    @Test func theCommittedDataHasEveryCategoryInUnicodesOrderWithItsTones() throws {
        let catalog = try EmojiCatalog(parsing: EmojiData.text)
        #expect(catalog.emoji.count == 1870)
        #expect(catalog.emoji.first?.text == "😀")
        #expect(Set(catalog.byCategory.keys) == Set(EmojiCategory.allCases.filter { $0 != .recents }))
        let thumbs = try #require(catalog.entry(of: "👍"))
        #expect(thumbs.tones == ["👍🏻", "👍🏼", "👍🏽", "👍🏾", "👍🏿"])
        #expect(catalog.entry(of: "👍🏽") == thumbs, "a variant finds its base")
        #expect(catalog.emoji.filter { !$0.tones.isEmpty }.count == 305)
        #expect(catalog.byCategory[.flags]?.contains { $0.text == "🇯🇵" } == true)
        #expect(catalog.byCategory[.smileys]?.contains { $0.text == "👨‍👩‍👧" } == true)
        #expect(catalog.entry(of: "🐱")?.names.contains { $0.contains("ネコ") } == true)
        #expect(catalog.entry(of: "🐱")?.category == .animals)
    }

    @Test func aMalformedLineIsRefusedWithItsNumber() {
        #expect(throws: EmojiCatalog.Malformed(line: 2, reason: "unknown category food2")) {
            try EmojiCatalog(parsing: "# header\n🍔\tfood2\t\tx\n")
        }
        #expect(throws: EmojiCatalog.Malformed(line: 1, reason: "fewer than 3 columns")) { try EmojiCatalog(parsing: "😀\tsmileys") }
        #expect(throws: EmojiCatalog.Malformed(line: 1, reason: "ab is not one emoji")) { try EmojiCatalog(parsing: "ab\tsmileys\t") }
        #expect(throws: EmojiCatalog.Malformed(line: 1, reason: "2 skin tones (5 or none)")) {
            try EmojiCatalog(parsing: "👍\tsmileys\t👍🏻 👍🏼")
        }
        #expect(throws: EmojiCatalog.Malformed.self) { try EmojiCatalog(parsing: "🕘\trecents\t") }
        #expect((try? EmojiCatalog(parsing: ""))?.emoji.isEmpty == true)
    }

    @Test func frequentlyUsedKeepsTheLast30MostRecentFirstEachOnce() {
        var recents = EmojiRecents(["😀", "😀", "🐱"])
        #expect(recents.emoji == ["😀", "🐱"])
        let moved = recents.chose("🐱")
        #expect(moved)
        #expect(recents.emoji == ["🐱", "😀"])
        let again = recents.chose("🐱")
        #expect(!again, "already first: unchanged")
        let many = (0 ..< 40).map { String(UnicodeScalar(0x1F600 + $0)!) }
        for text in many { _ = recents.chose(text) }
        #expect(recents.emoji.count == EmojiRecents.limit)
        #expect(recents.emoji.first == many.last && recents.emoji.last == many[10])
        #expect(EmojiRecents(many).emoji == Array(many.prefix(30)))
    }

    /// Backspace deletes one emoji whole: every fully-qualified sequence the data has (ZWJ
    /// families, flags, keycaps, skin tones) is one Character of the field.
    @Test func backspaceDeletesEveryEmojiSequenceWhole() throws {
        let catalog = try EmojiCatalog(parsing: EmojiData.text)
        let all = catalog.emoji.flatMap { [$0.text] + $0.tones }
        #expect(all.count == 1870 + 5 * 305)
        var document = Document(mode: .hostScreen)
        for text in all {
            _ = document.edit(.insertText("a" + text), at: .zero)
            _ = document.edit(.deleteBackward, at: .zero)
            #expect(document.textField.text == "a", "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            _ = document.edit(.deleteBackward, at: .zero)
        }
    }
}

extension EmojiCatalogTests {
    /// Search by CLDR names and keywords, English and Japanese (issue 34).
    @Test func searchMatchesEnglishAndJapaneseNamesAndKeywords() throws {
        let catalog = try EmojiCatalog(parsing: EmojiData.text)
        let cats = catalog.search(["cat"]).map(\.text)
        #expect(cats.prefix(2) == ["🐱", "🐈"] || cats.contains("🐱"))
        #expect(["😺", "🐱", "🐈"].allSatisfy(cats.contains))
        #expect(catalog.search(["CAT"]).map(\.text) == cats, "case does not matter")
        let neko = catalog.search(["ねこ"]).map(\.text)
        #expect(["🐱", "🐈", "🐈‍⬛"].allSatisfy(neko.contains), "hiragana finds ネコ")
        #expect(!neko.contains("😺"), "😺's Japanese keywords say 猫 only")
        #expect(catalog.search(["ねこ", "猫"]).map(\.text).contains("😺"), "a conversion of the reading finds it")
        #expect(catalog.search(["日本"]).map(\.text).contains("🇯🇵") && catalog.search(["japan"]).map(\.text).contains("🇯🇵"))
        #expect(catalog.search(["thumbs up"]).first?.text == "👍", "an exact name first")
        #expect(catalog.search(["", "  "]).isEmpty && catalog.search([]).isEmpty)
        #expect(catalog.search(["zzzzqq"]).isEmpty)
    }
}
