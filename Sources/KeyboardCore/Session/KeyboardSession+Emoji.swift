/// The emoji keyboard routed (issue 34): the globe key reaches it through `layouts` (its keys
/// are `emoji`'s layout), its presses go through `pointers` like any key's, what it types goes
/// into the document; `emoji` turns its pages and remembers what was chosen.
extension KeyboardSession {
    /// Whether the emoji keyboard is shown.
    var showsEmoji: Bool { definition.name == EmojiPanel.layoutName }

    /// The globe key reached the emoji keyboard: shown at once when its catalog is there,
    /// otherwise asked of the app first (the keyboard changes when it answers).
    mutating func switchToEmoji(_ effects: inout [KeyboardEffect]) {
        guard emoji.isLoaded else {
            effects.append(.emojiDataNeeded)
            return
        }
        commitComposition(&effects)
        emoji.opened(from: definition.name, kana: definition.hasKanaPad)
        let first = emoji.recents.emoji.isEmpty ? EmojiCategory.smileys.rawValue : EmojiCategory.recents.rawValue
        layouts.replaceDefinition(with: emoji.definition, layer: first)
        layoutShown(&effects)
        emojiCategoryShown(after: nil, &effects)
    }

    /// A layer was shown after the one named `before` (`nil`: the emoji keyboard just opened):
    /// when the emoji keyboard shows a page of another category, the trace says which.
    mutating func emojiCategoryShown(after before: String?, _ effects: inout [KeyboardEffect]) {
        guard showsEmoji, let category = EmojiPanel.category(of: layerName),
              before.flatMap(EmojiPanel.category(of:)) != category else { return }
        effects.append(.emojiCategoryChanged(category))
    }

    /// The emoji data file's text arrived: the catalog is read (a malformed file gives an empty
    /// grid and one line saying why) and the emoji keyboard shown.
    mutating func emojiDataArrived(_ text: String, _ effects: inout [KeyboardEffect]) {
        guard !emoji.isLoaded else { return }
        do {
            emoji.load(try EmojiCatalog(parsing: text))
        } catch {
            emoji.load(EmojiCatalog([]))
            effects.append(.emojiDataRejected(error.description))
        }
        if layouts.nextChoice?.name == EmojiPanel.layoutName { switchToEmoji(&effects) }
    }

    /// ABC: the layout shown before the emoji keyboard (the first of the globe key's when it
    /// is no longer among them).
    mutating func leaveEmoji(_ effects: inout [KeyboardEffect]) {
        guard let back = layouts.choices.first(where: { $0.name == emoji.returnLayout && $0.name != EmojiPanel.layoutName })
            ?? layouts.choices.first(where: { $0.name != EmojiPanel.layoutName }) else { return }
        layouts.switchLayout(to: back)
        layoutShown(&effects)
    }

    /// An emoji typed from the grid or its bubble: Frequently Used and the skin tone learn it
    /// (not from a secure field); a changed tone shows in the grid at once.
    mutating func emojiTyped(_ text: String, _ effects: inout [KeyboardEffect]) {
        guard showsEmoji else { return }
        effects += emoji.chose(text, secure: document.isSecureField)
        if layouts.definition != emoji.definition {
            layouts.replaceDefinition(with: emoji.definition)
            effects.append(.layoutChanged)
        }
    }

    /// The grid's page `steps` pages on (back when negative), if there is one.
    mutating func turnEmojiPage(_ steps: Int, _ effects: inout [KeyboardEffect]) {
        guard steps != 0, let page = emoji.page(steps, after: layerName) else { return }
        let before = layerName
        effects += layouts.showLayer(page)
        emojiCategoryShown(after: before, &effects)
    }

    /// A pointer went down at `point` on `key` (or on none): a press on the emoji grid may
    /// become a page turn.
    mutating func emojiPointerDown(_ id: PointerID, at point: Point, on key: KeyID?) {
        let onGrid = showsEmoji && key.map { if case .character = layouts.action(of: $0) { true } else { false } } == true
        emoji.pressed(id, at: onGrid ? point : nil)
    }

    /// A pointer on the emoji grid moved: dragged far enough sideways, its press ends typing
    /// nothing and the page turns. Returns whether it did.
    mutating func emojiPointerDragged(_ id: PointerID, to point: Point, time: Duration,
                                      _ effects: inout [KeyboardEffect]) -> Bool {
        guard showsEmoji else { return false }
        let steps = emoji.dragged(id, to: point)
        guard steps != 0 else { return false }
        let held = pressedKeys
        abandonPress(of: id, &effects)
        pointers.set(id, to: Pointers.Target.none)
        updatePressedKeys(from: held, time: time, &effects)
        turnEmojiPage(steps, &effects)
        return true
    }

    /// Another layout is shown (the globe key, ABC): the pad and the pointers learn it, the
    /// trace says so, the field's text input rectangle follows.
    mutating func layoutShown(_ effects: inout [KeyboardEffect]) {
        kana.layoutSwitched(to: definition, barFrame: layout.candidateBar)
        pointers.layoutSwitched()
        effects.append(.keyboardLayoutChanged(definition.name))
        effects.append(.layoutChanged)
        if hostScreen.isTextFieldFocused { effects.append(.startTextInput(layout.textField)) }
    }
}
