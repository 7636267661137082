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
        case .dismissKeyboard:
            dismissKeyboard(at: time, &effects)
        case .character, .space, .escape, .tab, .return:
            let casing = modifiers
            routeTyped(document.type(action, with: active, at: clock, cased: casing.cased), &effects)
            if !active.isEmpty, case .character(let text) = action { effects += modifiers.letterTyped(text) }
            if case .character(let text) = action { emojiTyped(text, &effects) }
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
        emojiTyped(text, &effects)
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

    // MARK: Keys to prepare (system mode, issue 28)

    /// The characters one press may type next, most urgent first, each once — system mode
    /// only (empty on the host screen, whose field needs no keys). A character the target's
    /// keymap lacks (é, ¥, へ) needs a keymap change before its press, and an application that
    /// handles the press before it has read the new keymap types the wrong character or
    /// nothing (Chromium on X11, Tk), so the app gets keys ready for these ahead of the press
    /// (`Document.announce`):
    ///
    /// 1. what the keys held now type on release (a letter types when lifted: touched, it is
    ///    next), then the open alternates bubble's choices (in the case shift gave them);
    /// 2. what a touch-down types at once, with no later chance to prepare: the kana pad's
    ///    composition as a commit types it, its first candidate, and 「へぇ〜」;
    /// 3. the characters of the layer shown (its keys that type text, in reading order; not
    ///    the emoji keyboard's pages).
    ///
    /// The order is what a sender short of spare keys keeps: the first are the last it gives
    /// up.
    public var keysToPrepare: String {
        guard mode == .system else { return "" }
        var texts: [String] = []
        var seen = Set<Character>()
        let bubble = pointers.bubble
        // (A key whose bubble is open types one of its choices, not itself.)
        for (id, target) in pointers.targets.sorted(by: { $0.key.precedes($1.key) }) where bubble?.pointer != id {
            if case .key(let key?) = target, let text = layouts.action(of: key).text { texts.append(modifiers.cased(text)) }
        }
        texts += bubble?.choices.map(\.text) ?? []
        if let composition = kana.compositionText { texts.append(composition) }
        if let first = kana.candidateBar.cells.first { texts.append(first.text) }
        texts.append(HeeButtonModel.insertedText)
        // The emoji keyboard's pages are not announced (issue 34): 30 emoji of one to ten
        // scalars each would borrow every spare keycode at each page turn (X11's keymap
        // changed over and over while the pointer rests on the grid, where openbox then stops
        // handing the keyboard its clicks); a press announces its own emoji.
        guard !showsEmoji else { return String(texts.joined().filter { seen.insert($0).inserted }) }
        let layer = definition.layer(named: layerName) ?? definition.firstLayer
        texts += layer.keyIDs.compactMap { layouts.action(of: $0).text.map(modifiers.cased) }
        return String(texts.joined().filter { seen.insert($0).inserted })
    }
}
