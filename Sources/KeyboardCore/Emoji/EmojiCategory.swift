/// A category of the emoji keyboard, as iOS's category bar shows them left to right
/// (issue 34). The data's groups (Unicode's `emoji-test.txt`) are mapped onto them by
/// `scripts/emoji-data.py`; `recents` is the user's own.
public enum EmojiCategory: String, Hashable, Sendable, CaseIterable {
    /// Frequently Used: the last emoji chosen, most recent first.
    case recents
    /// Smileys & People (Unicode's Smileys & Emotion and People & Body).
    case smileys
    case animals, food, activity, travel, objects, symbols, flags

    /// The icon on its key in the category bar (an emoji of the category; iOS draws glyphs).
    public var icon: String {
        switch self {
        case .recents: "🕘"
        case .smileys: "😀"
        case .animals: "🐻"
        case .food: "🍔"
        case .activity: "⚽"
        case .travel: "🚗"
        case .objects: "💡"
        case .symbols: "🔣"
        case .flags: "🏳️"
        }
    }

    /// Its key in the category bar: `emoji:smileys` (the trace's `layout` line names it so).
    public var keyID: KeyID { KeyID("emoji:\(rawValue)") }
}
