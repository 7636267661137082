import KeyboardCore

/// How one key looks: its cap's colour and corner, what is drawn on it, and what its callout
/// shows while it is pressed. Worked out from the session by `Scene` (the layout's action and
/// label for the key, shift, the language), so the painter draws and never decides.
public struct KeyFace: Hashable, Sendable {
    /// What is drawn on the cap.
    public enum Content: Hashable, Sendable {
        /// Text at a size in points (letters and symbols 22 pt, words such as "space" 16 pt).
        case text(String, points: Double)
        /// One of the SF Symbol look-alikes (shift, delete).
        case icon(KeyIcon)
        /// Nothing (the へぇ button draws itself; labels fade in trackpad mode).
        case none
    }

    /// What is drawn on the cap.
    public var content: Content
    /// iOS's grey keys (backspace, return, the layer keys, shift while off) instead of white.
    public var isSpecial: Bool
    /// Corner radius in points: 5 as iOS's keys, 8 for seed 002's shift key.
    public var cornerRadius: Double
    /// The text the callout above the pressed key shows (keys that type characters), if any.
    public var callout: String?
    /// A locked modifier (Ctrl or Alt double-tapped): a bar under its label, as caps lock's.
    public var isLocked = false
    /// iOS's blue key (the kana pad's 確定 while composing): tint background, white label.
    public var isProminent = false
    /// A key whose colour is its state (shift, Ctrl, Alt: grey off, white on or locked): it
    /// keeps that colour while held, where other keys change colour when pressed.
    public var showsState = false

    /// Point sizes of key labels: characters, and words (space, return, 123).
    public static let characterPointSize = 22.0
    public static let wordPointSize = 16.0
    /// The space bar's label.
    public static let spaceLabel = "space"
    /// Kana labels (あ, か …) and the kana pad's longer ones (、。?!, ゛゜小).
    public static let kanaPointSize = 22.0
    public static let kanaWordPointSize = 17.0
    /// The kana pad's 空白 and 改行 while composing (issue 22, iOS 日本語かな).
    public static let nextCandidateLabel = "次候補"
    public static let confirmLabel = "確定"

    /// The face of `key` in `definition` with shift in `shift` (`upperCase`: letters type upper
    /// case now); `returnLabel` in the scene's language. `kanaPad`: the layout has a kana pad
    /// (its 空白 is grey); `composing`: it composes (its 空白 reads 次候補 and its 改行 確定, on a
    /// blue key).
    static func of(_ key: KeyID, definition: LayoutDefinition, shift: ShiftState, upperCase: Bool,
                   modifiers: (ctrl: ShiftState, alt: ShiftState) = (.off, .off), returnLabel: String,
                   kanaPad: Bool = false, composing: Bool = false) -> KeyFace {
        let label = definition.label(of: key)
        let composing = composing && kanaPad
        switch definition.action(of: key) {
        case .kana(let table):
            let text = label ?? table.tap
            return KeyFace(content: .text(text, points: text.count > 1 ? kanaWordPointSize : kanaPointSize), isSpecial: false,
                           cornerRadius: 5, callout: nil)
        case .kanaModifier:
            return KeyFace(content: .text(label ?? key.name, points: kanaWordPointSize), isSpecial: false, cornerRadius: 5,
                           callout: nil)
        case .kanaNext:
            return KeyFace(content: .icon(.nextArrow), isSpecial: true, cornerRadius: 5, callout: nil)
        case .kanaUndo:
            return KeyFace(content: .icon(.undoArrow), isSpecial: true, cornerRadius: 5, callout: nil)
        case .nextLayout:
            return KeyFace(content: .icon(.globe), isSpecial: true, cornerRadius: 5, callout: nil)
        case .space where composing:
            return KeyFace(content: .text(nextCandidateLabel, points: wordPointSize), isSpecial: true, cornerRadius: 5, callout: nil)
        case .return where composing:
            return KeyFace(content: .text(confirmLabel, points: wordPointSize), isSpecial: true, cornerRadius: 5, callout: nil,
                           isProminent: true)
        case .hee:
            return KeyFace(content: .none, isSpecial: false, cornerRadius: 5, callout: nil)
        case .shift:
            return KeyFace(content: .icon(.shift(shift)), isSpecial: shift == .off,
                           cornerRadius: 8, callout: nil, showsState: true)
        case .backspace:
            return KeyFace(content: .icon(.deleteLeft), isSpecial: true, cornerRadius: 5, callout: nil)
        case .space:
            // The kana pad's 空白 is grey, as iOS's (the English space bar is white).
            return KeyFace(content: .text(label ?? spaceLabel, points: wordPointSize), isSpecial: kanaPad,
                           cornerRadius: 5, callout: nil)
        case .return:
            return KeyFace(content: .text(label ?? returnLabel, points: wordPointSize), isSpecial: true, cornerRadius: 5, callout: nil)
        case .showLayer, .previousLayout:
            return KeyFace(content: .text(label ?? key.name, points: wordPointSize), isSpecial: true, cornerRadius: 5, callout: nil)
        case .escape, .tab, .dismissKeyboard:
            return KeyFace(content: .text(label ?? key.name, points: wordPointSize), isSpecial: true, cornerRadius: 5, callout: nil)
        case .arrow:
            // An arrow is a symbol, drawn at a character's size (a word's 16 pt looks thin).
            return KeyFace(content: .text(label ?? key.name, points: characterPointSize), isSpecial: true, cornerRadius: 5,
                           callout: nil)
        case .modifier(let modifier):
            let state = modifier == .ctrl ? modifiers.ctrl : modifiers.alt
            return KeyFace(content: .text(label ?? key.name, points: wordPointSize), isSpecial: state == .off, cornerRadius: 5,
                           callout: nil, isLocked: state == .capsLock, showsState: true)
        case .character(let text):
            let shown = upperCase ? casedUp(text) : text
            return KeyFace(content: .text(label ?? shown, points: characterPointSize), isSpecial: false, cornerRadius: 5,
                           callout: shown)
        }
    }

    /// `text` as an upper-case letter when it has one of the same length (ß stays ß), else
    /// as it is (digits, symbols).
    static func casedUp(_ text: String) -> String {
        let upper = text.uppercased()
        return upper.count == text.count ? upper : text
    }

    /// The face with its label faded out (iOS's trackpad mode).
    var faded: KeyFace {
        var copy = self
        copy.content = .none
        copy.callout = nil
        return copy
    }
}
