/// The emoji the emoji keyboard offers, in Unicode's order (issue 34): each with its
/// category, its skin-tone variants and its names, parsed from `emoji/emoji.tsv` (written by
/// `scripts/emoji-data.py` from Debian's `unicode-data` and `unicode-cldr-core`). The app
/// reads the file when the emoji keyboard is first shown and hands its text in
/// (`KeyboardInput.emojiCatalog`); KeyboardCore reads no files.
public struct EmojiCatalog: Hashable, Sendable {
    /// One emoji of the grid.
    public struct Emoji: Hashable, Sendable {
        /// What it types: one fully-qualified emoji sequence (one grapheme cluster).
        public var text: String
        /// Its category (never `recents`).
        public var category: EmojiCategory
        /// Its five skin-tone variants, light to dark (Fitzpatrick 1-2 ... 6), or none.
        public var tones: [String]
        /// Its CLDR names and keywords: English, then Japanese (for the search to come).
        public var names: [String]
    }

    /// Every emoji, in the data's order.
    public let emoji: [Emoji]
    /// Each category's emoji, in the data's order.
    public let byCategory: [EmojiCategory: [Emoji]]
    /// The emoji of each text, a skin-tone variant included (its base's entry).
    private let index: [String: Int]

    /// A line of the data that is not `emoji, category, tones, names...` (`line` counts from 1).
    public struct Malformed: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "emoji data line \(line): \(reason)" }
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// The catalog in `text`, `emoji/emoji.tsv`'s format: lines of tab-separated columns
    /// (emoji, category, tones separated by spaces or empty, then names and keywords);
    /// lines starting with `#` and empty lines are skipped.
    /// - Throws: `Malformed` for a line with fewer than three columns, an unknown category,
    ///   an emoji that is not one Character, or tones that are not five.
    public init(parsing text: String) throws(Malformed) {
        var emoji: [Emoji] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3 else { throw Malformed(line: number, reason: "fewer than 3 columns") }
            guard let category = EmojiCategory(rawValue: columns[1]), category != .recents else {
                throw Malformed(line: number, reason: "unknown category \(columns[1])")
            }
            guard columns[0].count == 1 else { throw Malformed(line: number, reason: "\(columns[0]) is not one emoji") }
            let tones = columns[2].split(separator: " ").map(String.init)
            guard tones.isEmpty || tones.count == 5 else {
                throw Malformed(line: number, reason: "\(tones.count) skin tones (5 or none)")
            }
            emoji.append(Emoji(text: columns[0], category: category, tones: tones, names: Array(columns.dropFirst(3))))
        }
        self.init(emoji)
    }

    /// A catalog of `emoji`, in that order.
    public init(_ emoji: [Emoji]) {
        self.emoji = emoji
        byCategory = Dictionary(grouping: emoji, by: \.category)
        var index: [String: Int] = [:]
        for (i, entry) in emoji.enumerated() {
            index[entry.text] = i
            for tone in entry.tones { index[tone] = i }
        }
        self.index = index
    }

    /// The entry of `text`: the emoji itself, or the base of a skin-tone variant.
    public func entry(of text: String) -> Emoji? { index[text].map { emoji[$0] } }
}
