/// The kana pad routed (issue 22): its keys and flicks go to `kana`, whose commits go into the
/// document through the same `insertText` as any key's (the text field's, or system mode's
/// keystrokes); and the globe key, which shows the next layout.
extension KeyboardSession {
    /// A key that acts when released, on a layout with a kana pad (or the pad's own `→` and
    /// `↶` anywhere): returns whether the pad took it. 空白 and 改行 go to the pad (次候補,
    /// 確定) and, when nothing is composed, do what they always do; a key that types text
    /// commits the composition first.
    mutating func typeOnKanaPad(_ action: KeyAction, _ effects: inout [KeyboardEffect]) -> Bool {
        switch action {
        case .kanaNext:
            // Outside a composition → moves the caret right, as on iOS.
            if kanaInput(.next, &effects) { effects += document.caretRight(at: clock) }
            return true
        case .kanaUndo:
            _ = kanaInput(.undo, &effects)
            return true
        case .space where definition.hasKanaPad:
            return !kanaInput(.space, &effects)
        case .return where definition.hasKanaPad:
            return !kanaInput(.returnKey, &effects)
        case .character, .escape, .tab, .space, .return:
            commitComposition(&effects)
            return false
        default:
            return false
        }
    }

    /// ⌫ (touched or repeating) while composing: deletes from the composition. Returns
    /// whether it did (nothing composed: the key is the document's).
    mutating func backspaceOnKanaPad(_ effects: inout [KeyboardEffect]) -> Bool {
        guard kana.isComposing else { return false }
        return !kanaInput(.backspace, &effects)
    }

    /// Commits whatever is composed (the へぇ button, the globe key, the keyboard closing,
    /// typing or clicking in the field): it becomes text, the candidate bar empties.
    mutating func commitComposition(_ effects: inout [KeyboardEffect]) {
        guard kana.isComposing else { return }
        _ = kanaInput(.commitAll, &effects)
    }

    /// Feeds `input` to the pad at the session's time and routes its effects. Returns whether
    /// the pad passed the key through (nothing was composed).
    mutating func kanaInput(_ input: KanaPadInput, _ effects: inout [KeyboardEffect]) -> Bool {
        let answer = kana.handle(input, at: clock, barFrame: layout.candidateBar)
        for effect in answer.effects {
            switch effect {
            case .report(let effect): effects.append(effect)
            case .insertText(let text): documentEdit(.insertText(text), &effects)
            case .compositionShown: document.caretMoved(at: clock)
            }
        }
        return answer.passThrough
    }

    /// The globe key: commits the composition and shows the next of the user's layouts (after
    /// the one shown; the first when the one shown is not among them), at its first layer.
    mutating func switchToNextLayout(_ effects: inout [KeyboardEffect]) {
        guard let next = layouts.nextChoice else { return }
        if next.name == EmojiPanel.layoutName { return switchToEmoji(&effects) }
        commitComposition(&effects)
        layouts.switchLayout(to: next)
        layoutShown(&effects)
    }
}
