/// Something that happened, as the session sees it. `HeeApp` translates SDL events into
/// these; points are window points (the space of SDL mouse events).
public enum KeyboardInput: Hashable, Sendable {
    /// The app started: the text field is focused and the keyboard shown (no slide).
    case launched
    /// A pointer went down at a point.
    case pointerDown(PointerID, Point)
    /// A pointer that is down moved.
    case pointerMoved(PointerID, Point)
    /// A pointer went up at a point.
    case pointerUp(PointerID, Point)
    /// A pointer moved with no button held (the mouse hovering): if we thought it was down,
    /// its release was lost.
    case pointerHover(PointerID, Point)
    /// Every pointer was lost without a release (the window lost focus): presses end
    /// without typing anything.
    case pointersCancelled
    /// The compositor took every touch back for a gesture of its own (Wayland's
    /// `wl_touch.cancel`; UIKit's `touchesCancelled`): the fingers' presses end without
    /// typing anything, and their later releases do nothing. The mouse's press stays.
    case touchesCancelled
    /// Text committed by the physical keyboard or an input method (`SDL_TEXTINPUT`). Ends
    /// any composition.
    case textInput(String)
    /// The input method's composition changed (`SDL_TEXTEDITING`): `text` is shown at the
    /// caret, underlined, and not stored; `cursor` is the IME's cursor in it (Characters).
    /// An empty text ends the composition (cancelled).
    case composition(String, cursor: Int)
    /// An editing command from the physical keyboard.
    case editing(EditingCommand)
    /// Text from the clipboard to paste (line breaks become spaces).
    case paste(String)
    /// A click or drag in the text field put the caret at a Character offset (the app
    /// maps the point to an offset with the text's layout). `clickCount` 2 selects the word
    /// there, 3 selects everything; `extendingSelection` keeps the anchor (a drag, or
    /// Shift+click).
    case placeCaret(at: Int, extendingSelection: Bool, clickCount: Int)
    /// Escape: closes the keyboard, or quits when it is already hidden.
    case escape
    /// Ctrl+Q: quit.
    case quitShortcut
    /// The window's size changed (points).
    case windowResized(Size)
    /// System mode: keys go somewhere else now (another window got the keyboard focus, or
    /// none has it).
    case keyTargetChanged(KeyTarget)
    /// System mode: the focused text field of another application is now `context`
    /// (`.inactive`: none has the focus), told whole (on Wayland at input-method-v2's `done`).
    /// `focus` changes whenever a field gains the focus (another field, or the same one again).
    case textContextChanged(TextContext, focus: UInt64)
    /// System mode: the platform cannot tell which field has the focus; the keyboard stays
    /// shown, as without auto-show.
    case textContextUnavailable
    /// System mode: the shell or the user asked for the keyboard shown (`true`) or hidden
    /// (Phosh's `sm.puri.OSK0.SetVisible`, issue 31), until the input method's active state
    /// next changes.
    case visibilityRequested(Bool)
    /// System mode: the window with the focus says nothing of what has it (on X11: no
    /// accessible has the focus, as in xterm or Tk, which expose nothing through AT-SPI); the
    /// keyboard is shown, as without auto-show, until a field or a non-text object is told.
    case textContextUnknown
    /// The kana–kanji converter's answer to a `.convert` effect: `reading`'s segments and
    /// their candidates (none when it could not convert). A stale answer is ignored.
    case conversion(reading: String, segments: [KanaKanjiSegment])
    /// The text of the emoji data file, answering `.emojiDataNeeded` (issue 34).
    case emojiData(String)
    /// The text of the 顔文字 file (`emoji/kaomoji.tsv`, issue 34), handed in at launch: the
    /// faces the kana pad's ^_^ tap shows (`Kaomoji.parse`).
    case kaomojiData(String)
    /// The mouse wheel turned over the keyboard: `steps` > 0 down or right (the emoji grid's
    /// next page), < 0 up or left.
    case scroll(steps: Int)
    /// System mode: whether the focused field is secure (a password or PIN: nothing typed
    /// there is remembered, issue 34's Frequently Used).
    case secureFieldChanged(Bool)
    /// Time passed: animations may have ended.
    case tick
}

/// Editing commands of the physical keyboard (and menus), applied to the text field.
public enum EditingCommand: Hashable, Sendable {
    /// Backspace: the selection, or the Character before the caret.
    case deleteBackward
    /// Delete: the selection, or the Character after the caret.
    case deleteForward
    /// Ctrl+Backspace: the selection, or the word before the caret.
    case deleteWordBackward
    /// Arrows, Ctrl+arrows, Home, End; with Shift, extending the selection.
    case move(CaretMovement, extendingSelection: Bool = false)
    /// Ctrl+A.
    case selectAll
    /// Ctrl+C, Ctrl+X.
    case copy, cut
    /// Ctrl+Z; Ctrl+Shift+Z and Ctrl+Y.
    case undo, redo
}
