/// What the app must do after the session handled an input. The session decides; the app
/// performs (plays the clip, starts text input, writes the trace, redraws).
public enum KeyboardEffect: Hashable, Sendable {
    /// The layout changed (read `KeyboardSession.layout`).
    case layoutChanged
    /// The keyboard's frame finished changing (seed 001's keyboard-did-change-frame):
    /// `.hide` comes with a zero frame.
    case keyboardFrameChanged(KeyboardStatus, Rect)
    /// A key's pressed state changed.
    case keyTouched(KeyID, down: Bool)
    /// The へぇ button counted a press; the value is the full count (not the display).
    case heeCounted(Int)
    /// The shift key's state changed.
    case shiftChanged(ShiftState)
    /// The text field changed; `caret` is in `Character`s.
    case textChanged(String, caret: Int)
    /// The input method's composition shown at the caret changed (not part of the text);
    /// an empty text means it ended. `cursor` is in `Character`s of the composition.
    case compositionChanged(String, cursor: Int)
    /// Play a sound from the start, restarting it if it is still playing (seed 000's
    /// `SoundEngine.play()`).
    case playSound(SoundName)
    /// The keyboard is about to appear: open the audio device and load the clip (seed 000's
    /// `viewWillAppear` → `startEngine()`).
    case startAudioEngine
    /// The keyboard is about to disappear: close the audio device (seed 000's
    /// `viewWillDisappear` → `stopEngine()`).
    case stopAudioEngine
    /// The text field gained focus: start SDL text input at its rectangle (points).
    case startTextInput(Rect)
    /// The text field lost focus: stop SDL text input.
    case stopTextInput
    /// The count went back to 0.
    case countReset
    /// Set the playback volume (0...100).
    case setVolume(Int)
    /// Quit the app (Ctrl+Q, Escape with the keyboard hidden).
    case quit
    /// Put this text on the clipboard (copy, cut).
    case setClipboard(String)
    /// System mode: type this into the focused window (a key's edit through
    /// `KeystrokeDocumentProxy`).
    case send(Keystroke)
    /// System mode: the characters one press may type next changed (a layer shown, a key
    /// touched, a bubble opened, a composition or its candidates): get keys ready for them
    /// now, before a press needs them (`KeyboardSession.keysToPrepare`: most urgent first).
    case prepareKeys(String)
    /// Another layer of the layout is shown (its name); a `.layoutChanged` follows.
    case layerChanged(String)
    /// A key's alternates bubble opened, with its choices and their rectangles (points).
    case alternatesShown(KeyID, [AlternatesBubble.Choice])
    /// A desktop modifier key's state changed (`on`: latched for the next key, `capsLock`:
    /// locked, `off`).
    case modifierChanged(KeyAction.Modifier, ShiftState)
    /// The text field asks for the clipboard's text (Ctrl+V from the desktop row): the app
    /// reads it and sends `.paste`.
    case pasteRequested
    /// The kana pad committed this text (issue 22): it goes into the document next, through
    /// the same `insertText` as any key's (a `.textChanged` or `.send` follows).
    case kanaCommitted(String)
    /// The kana pad's candidate bar changed (read its cells for the trace).
    case candidatesChanged(CandidateBar)
    /// Convert this reading with the kana–kanji converter and answer with
    /// `KeyboardInput.conversion` (the app does it once the composition is on screen; without a
    /// converter it answers nothing and the pad types kana without candidates).
    case convert(String)
    /// The globe key switched to another of the user's layouts (its name); a `.layoutChanged`
    /// follows.
    case keyboardLayoutChanged(String)
    /// The space bar became iOS's trackpad (`true`: the labels fade, drags move the caret) or
    /// stopped being one (`false`).
    case trackpadChanged(Bool)
    /// Something visible changed: draw a frame.
    case needsDisplay
    /// The emoji keyboard is to be shown and has no catalog yet (issue 34): the app reads
    /// `emoji/emoji.tsv` and hands its text in (`KeyboardInput.emojiData`).
    case emojiDataNeeded
    /// The emoji data handed in could not be read (one line: why); the grid stays empty.
    case emojiDataRejected(String)
    /// Frequently Used changed (most recent first): the app saves it in the settings file.
    case emojiRecentsChanged([String])
    /// The emoji keyboard shows another category (issue 34): it opened, a page turn ran on
    /// into the next category, or a category key was touched. After the `.layoutChanged`.
    case emojiCategoryChanged(EmojiCategory)
}

/// The app's sounds.
public enum SoundName: String, Hashable, Sendable {
    /// The clip in `sounds/hee.wav`.
    case hee
}
