/// Typing a key that acts when released, routed: the kana pad takes it first, then the
/// modifiers go with it (and are used up), the document types it, and the host screen's return
/// and Escape end editing.
extension KeyboardSession {
    /// Types a key that acts when released: its characters (in the case shift gives letters),
    /// a space, Escape, Tab, or return — a line break in system mode; on the host screen's
    /// one-line field, return ends editing as a SwiftUI `TextField` does. Ctrl and Alt
    /// latched, locked or held go with it (`Document.typeWithModifiers`) and are used up.
    mutating func type(_ key: KeyID, at time: Duration, _ effects: inout [KeyboardEffect]) {
        let action = layouts.action(of: key)
        if typeOnKanaPad(action, &effects) { return }
        let active = activeModifiers
        switch action {
        case .return where mode == .hostScreen:
            // The host screen's field ends editing once the key's release is reported
            // (`finishReturn`), so keys held by other pointers are released once.
            hostScreen.returnTyped()
        case .return where active.isEmpty:
            documentEdit(.insertText("\n"), &effects)
        case .character, .space, .escape, .tab, .return:
            let casing = modifiers
            routeTyped(document.type(action, with: active, at: clock, cased: casing.cased), &effects)
            if !active.isEmpty, case .character(let text) = action { effects += modifiers.letterTyped(text) }
        default:
            return
        }
        effects += modifiers.keyActed()
    }

    /// Types `text`, upper case when it is a letter and shift says so (a one-shot shift then
    /// turns off, as after a letter); text without case (digits, symbols) leaves shift as it is.
    mutating func typeCharacters(_ text: String, _ effects: inout [KeyboardEffect]) {
        documentEdit(.insertText(modifiers.cased(text)), &effects)
        effects += modifiers.letterTyped(text)
    }

    /// Types an alternate chosen from a key's bubble (already in the case shift gives): with
    /// Ctrl or Alt latched, locked or held, as a key of its own does (they are used up).
    mutating func typeChosen(_ text: String, _ effects: inout [KeyboardEffect]) {
        let active = activeModifiers
        guard !active.isEmpty else { return typeCharacters(text, &effects) }
        let casing = modifiers
        routeTyped(document.typeWithModifiers(.character(text), active, at: clock, cased: casing.cased), &effects)
        effects += modifiers.letterTyped(text)
        effects += modifiers.keyActed()
    }

    /// What the document could not do itself: the host screen's Escape, characters to type in
    /// the case shift gives.
    mutating func routeTyped(_ outcome: Document.KeyOutcome, _ effects: inout [KeyboardEffect]) {
        switch outcome {
        case .done(let done): effects += done
        case .escape: escapePressed(at: clock, &effects)
        case .characters(let text): typeCharacters(text, &effects)
        }
    }

    /// Performs a key's edit through the document at the session's time.
    mutating func documentEdit(_ change: Document.Edit, _ effects: inout [KeyboardEffect]) {
        effects += document.edit(change, at: clock)
    }
}
