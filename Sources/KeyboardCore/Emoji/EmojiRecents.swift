/// iOS's Frequently Used (issue 34): the last `limit` emoji chosen, most recent first, each
/// once. Kept in the settings file (`emojiRecents`) by the app, which hands the saved list in.
public struct EmojiRecents: Hashable, Sendable {
    /// How many are kept.
    public static let limit = 30
    /// The emoji, most recent first.
    public private(set) var emoji: [String]

    /// The saved list (duplicates and those past the limit dropped).
    public init(_ saved: [String] = []) {
        var seen = Set<String>()
        emoji = Array(saved.filter { seen.insert($0).inserted }.prefix(Self.limit))
    }

    /// `text` was chosen: it goes first (moved if it was there). Returns whether the list changed.
    public mutating func chose(_ text: String) -> Bool {
        let next = [text] + emoji.filter { $0 != text }
        let kept = Array(next.prefix(Self.limit))
        guard kept != emoji else { return false }
        emoji = kept
        return true
    }
}
