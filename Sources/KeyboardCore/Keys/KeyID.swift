/// A key of the keyboard.
public enum KeyID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The へぇ button (seed 000).
    case hee
    /// The shift key (seed 002).
    case shift
    /// Deletes the character before the caret.
    case backspace
    /// Types a space.
    case space
    /// Types a line break (system mode only: the host screen's field has one line).
    case `return`
    /// Types a letter a–z (stored lower case; shift decides the case typed).
    case letter(Character)

    /// The 26 letter keys in QWERTY rows, top row first.
    public static let letterRows: [[Character]] = [
        Array("qwertyuiop"), Array("asdfghjkl"), Array("zxcvbnm"),
    ]

    /// The key's name in the trace: `hee`, `shift`, `backspace`, `space`, `return`, or the
    /// letter.
    public var name: String {
        switch self {
        case .hee: "hee"
        case .shift: "shift"
        case .backspace: "backspace"
        case .space: "space"
        case .return: "return"
        case .letter(let c): String(c)
        }
    }

    public var description: String { name }

    /// Keys that act when pressed (the seeds' `touchDown`): the へぇ button, shift and
    /// backspace. The others (letters, space, return) type when released, like iOS.
    public var actsOnTouchDown: Bool {
        switch self {
        case .hee, .shift, .backspace: true
        case .space, .return, .letter: false
        }
    }
}
