/// The session's modifier keys: the shift key and the desktop row's Ctrl and Alt, each with
/// seed 002's rules (`ShiftKeyModel`: a tap latches for the next key, a double tap within
/// 0.25 s locks, a tap while locked turns off, held while another key types makes a chord).
///
/// A part of `KeyboardSession`: it owns the three keys' states and answers with the effects
/// that report them (`.shiftChanged`, `.modifierChanged`). Others read `active` (what goes
/// with the next key) and `cased(_:)` (the case shift gives letters) and tell it when a key
/// used them (`keyActed`, `letterTyped`).
public struct Modifiers: Hashable, Sendable {
    /// One of the three modifier keys.
    public enum Key: Hashable, Sendable {
        case shift
        /// Ctrl or Alt of the desktop row (issue 21).
        case desktop(KeyAction.Modifier)
    }

    /// The shift key (seed 002).
    public private(set) var shift = ShiftKeyModel() { didSet { noteChange(shift, oldValue) } }
    /// The desktop row's Ctrl: `on` latches it for the next key, `capsLock` is its locked state.
    public private(set) var ctrl = ShiftKeyModel() { didSet { noteChange(ctrl, oldValue) } }
    /// The desktop row's Alt, as `ctrl`.
    public private(set) var alt = ShiftKeyModel() { didSet { noteChange(alt, oldValue) } }
    /// Counts changes of what is drawn: a key's state, or whether it is held (letters are
    /// upper case while shift is held).
    public private(set) var revision = 0

    /// Modifiers off, none held.
    public init() {}

    private mutating func noteChange(_ model: ShiftKeyModel, _ old: ShiftKeyModel) {
        if model.state != old.state || model.isTouching != old.isTouching { revision &+= 1 }
    }

    // MARK: Reading

    /// The modifiers that go with the next key: Ctrl and Alt latched, locked or held.
    public var active: KeyModifiers {
        var modifiers: KeyModifiers = []
        if ctrl.typesUpperCase { modifiers.insert(.control) }
        if alt.typesUpperCase { modifiers.insert(.alt) }
        return modifiers
    }

    /// The state model of `key`.
    public func model(of key: Key) -> ShiftKeyModel {
        switch key {
        case .shift: shift
        case .desktop(.ctrl): ctrl
        case .desktop(.alt): alt
        }
    }

    /// `text` in the case shift gives letters now. A letter whose upper case is longer (ß →
    /// SS) keeps its form; text without case (digits, symbols) is unchanged.
    public func cased(_ text: String) -> String {
        guard Self.hasCase(text) else { return text }
        let cased = shift.apply(to: text)
        return cased.count == text.count ? cased : text
    }

    /// Whether `text` has an upper and a lower case (letters do; digits and symbols do not).
    public static func hasCase(_ text: String) -> Bool { text.uppercased() != text.lowercased() }

    // MARK: Inputs

    /// `key` went down (`down`) or up at `time` (seconds since the session started, as a
    /// `Duration`). Returns the effect reporting its new state, if it changed.
    public mutating func touched(_ key: Key, down: Bool, at time: Duration) -> [KeyboardEffect] {
        var model = model(of: key)
        let changed = down ? model.touchDown(at: time) : model.touchUp()
        set(key, model)
        return changed ? [report(key, model.state)] : []
    }

    /// A key that takes Ctrl and Alt acted: latched ones turn off (held ones make a chord), as
    /// shift does after a letter.
    public mutating func keyActed() -> [KeyboardEffect] {
        var effects: [KeyboardEffect] = []
        if ctrl.letterTyped() { effects.append(.modifierChanged(.ctrl, ctrl.state)) }
        if alt.letterTyped() { effects.append(.modifierChanged(.alt, alt.state)) }
        return effects
    }

    /// `text` was typed: when it is a letter (it has case), a one-shot shift turns off (held,
    /// it makes a chord); text without case leaves shift as it is.
    public mutating func letterTyped(_ text: String) -> [KeyboardEffect] {
        guard Self.hasCase(text), shift.letterTyped() else { return [] }
        return [.shiftChanged(shift.state)]
    }

    private mutating func set(_ key: Key, _ model: ShiftKeyModel) {
        switch key {
        case .shift: shift = model
        case .desktop(.ctrl): ctrl = model
        case .desktop(.alt): alt = model
        }
    }

    private func report(_ key: Key, _ state: ShiftState) -> KeyboardEffect {
        switch key {
        case .shift: .shiftChanged(state)
        case .desktop(let modifier): .modifierChanged(modifier, state)
        }
    }
}
