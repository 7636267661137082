/// A key of the keyboard, by its id in the layout file: for a key that types characters, the
/// text it types (`"a"`, `"3"`, `"?"`); for the others a name (`"hee"`, `"shift"`,
/// `"backspace"`, `"space"`, `"return"`, the layer keys `"123"`, `"#+="`, `"ABC"`).
///
/// The id is what the trace's `layout` line and `touch` lines name the key by. What a key
/// does is its `KeyAction` (`LayoutDefinition.action(of:)`).
public struct KeyID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as the layout file and the trace spell it.
    public let name: String

    /// The key with id `name`.
    public init(_ name: String) { self.name = name }

    public init(stringLiteral value: String) { self.init(value) }

    /// The へぇ button (seed 000).
    public static let hee = KeyID("hee")
    /// The shift key (seed 002).
    public static let shift = KeyID("shift")
    /// Deletes the character before the caret.
    public static let backspace = KeyID("backspace")
    /// Types a space.
    public static let space = KeyID("space")
    /// iOS's return key: a line break in system mode; on the host screen's one-line field it
    /// ends editing.
    public static let `return` = KeyID("return")

    /// The kana pad's 「゛゜小」 key (issue 22).
    public static let kanaModifier = KeyID("゛゜小")
    /// The kana pad's `→` (next) key.
    public static let kanaNext = KeyID("→")
    /// The kana pad's `↶` (undo the last toggle) key.
    public static let kanaUndo = KeyID("↶")
    /// The globe key: the next of the user's layouts.
    public static let globe = KeyID("🌐")

    /// The key that types `letter` (stored lower case; shift decides the case typed).
    public static func letter(_ letter: Character) -> KeyID { KeyID(String(letter)) }

    /// The 26 letter keys of the English layout in QWERTY rows, top row first.
    public static let letterRows: [[Character]] = [
        Array("qwertyuiop"), Array("asdfghjkl"), Array("zxcvbnm"),
    ]

    /// The character this key's id spells when it is one character (`"a"`, `"3"`), else `nil`.
    public var character: Character? { name.count == 1 ? name.first : nil }

    public var description: String { name }

    /// Keys in a stable order: the へぇ button, shift, backspace, space, return, then every
    /// other key by id (so several keys changing at once are reported in one order).
    public static func < (a: KeyID, b: KeyID) -> Bool {
        let (ra, rb) = (a.rank, b.rank)
        return ra != rb ? ra < rb : a.name < b.name
    }

    private var rank: Int {
        switch self {
        case .hee: 0
        case .shift: 1
        case .backspace: 2
        case .space: 3
        case .return: 4
        default: 5
        }
    }
}
