/// What a key does when it acts, as the layout file says (or, for the reserved ids, as the
/// keyboard defines them).
public enum KeyAction: Hashable, Sendable {
    /// The へぇ button (seed 000): inserts 「へぇ〜」, plays the clip, counts up.
    case hee
    /// The shift key (seed 002): one-shot upper case, double tap for caps lock.
    case shift
    /// Deletes the character before the caret; repeats while held.
    case backspace
    /// Types a space; held, the space bar becomes iOS's trackpad and moves the caret.
    case space
    /// iOS's return key: a line break in system mode; on the host screen it ends editing.
    case `return`
    /// Types `text`. When the text has an upper-case form and the letters layer's shift
    /// says so, the upper case is typed (shift applies to letters, and to their alternates).
    case character(String)
    /// Shows the layer of that name (`123`, `#+=`, `ABC`): acts when touched, as on iOS.
    case showLayer(String)
    /// The desktop's keys (system mode's extra row, issue 21): Escape and Tab type once per
    /// press; the arrows act when touched and repeat while held.
    case escape, tab
    case arrow(Arrow)
    /// Ctrl or Alt: seed 002's shift rules (tap latches for the next key, double tap locks).
    case modifier(Modifier)
    /// A flick key of the kana pad (issue 22): what a tap, each flick and repeated taps type,
    /// into the composition. Acts when released, once the flick's direction is known.
    case kana(KanaKey)
    /// The kana pad's 「゛゜小」: changes the last kana of the composition (tap or flick).
    case kanaModifier
    /// The kana pad's `→`: ends a toggle cycle; outside a composition it moves the caret right.
    case kanaNext
    /// The kana pad's `↶`: steps the last toggle back, or the candidate choice.
    case kanaUndo
    /// 🌐: the next of the user's keyboard layouts (iOS's globe key); acts when touched, as
    /// the layer keys do.
    case nextLayout
    /// System mode's `hide` key (issue 30; iOS's `dismissKeyboard()`): the keyboard hides
    /// until a text field gains the focus again. Acts when released.
    case dismissKeyboard
    /// The emoji keyboard's ABC (issue 34): back to the layout shown before it; acts when
    /// touched, as the globe key.
    case previousLayout

    /// An arrow key's direction.
    public enum Arrow: String, Hashable, Sendable, CaseIterable {
        case left, down, up, right
    }

    /// A modifier key of the desktop row.
    public enum Modifier: String, Hashable, Sendable, CaseIterable {
        /// Its id and trace name: `ctrl`, `alt`.
        case ctrl, alt
    }

    /// The ids whose action is the keyboard's own, whatever the layout file says about them
    /// (it may give them a label): `hee`, `shift`, `backspace`, `space`, `return`, and the
    /// desktop row's `esc`, `tab`, `ctrl`, `alt`, `left`, `down`, `up`, `right`, and the kana
    /// pad's `゛゜小`, `→`, `↶`, the globe key `🌐` (issue 22) and `hide` (issue 30).
    public static let reservedIDs: [KeyID: KeyAction] = [
        .hee: .hee, .shift: .shift, .backspace: .backspace, .space: .space, .return: .return,
        "esc": .escape, "tab": .tab, "ctrl": .modifier(.ctrl), "alt": .modifier(.alt),
        "left": .arrow(.left), "down": .arrow(.down), "up": .arrow(.up), "right": .arrow(.right),
        .kanaModifier: .kanaModifier, .kanaNext: .kanaNext, .kanaUndo: .kanaUndo, .globe: .nextLayout,
        "hide": .dismissKeyboard,
    ]

    /// Whether the key acts when touched rather than when released: the へぇ button, shift,
    /// backspace, the layer keys (the seeds' `touchDown`; iOS switches layers on touch), the
    /// arrows (they repeat, as backspace does), Ctrl / Alt (as shift) and 🌐 (as the layer
    /// keys). Keys that type characters, space, return, Escape, Tab and the kana pad's keys act
    /// when released, like iOS.
    public var actsOnTouchDown: Bool {
        switch self {
        case .hee, .shift, .backspace, .showLayer, .arrow, .modifier, .nextLayout, .previousLayout: true
        case .space, .return, .character, .escape, .tab, .kana, .kanaModifier, .kanaNext, .kanaUndo, .dismissKeyboard: false
        }
    }

    /// Whether the key is flicked: its press follows the finger's direction (the kana keys and
    /// 「゛゜小」) instead of sliding onto the key under it.
    public var isFlicked: Bool {
        switch self {
        case .kana, .kanaModifier: true
        default: false
        }
    }

    /// The text the key types, if it types characters.
    public var text: String? {
        if case .character(let text) = self { text } else { nil }
    }
}
