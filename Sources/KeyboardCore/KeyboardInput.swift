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
    /// Text committed by the physical keyboard or an input method (`SDL_TEXTINPUT`).
    case textInput(String)
    /// An editing key of the physical keyboard.
    case editingKey(EditingKey)
    /// The window's size changed (points).
    case windowResized(Size)
    /// Time passed: animations may have ended.
    case tick
}

/// Physical-keyboard editing keys.
public enum EditingKey: Hashable, Sendable {
    case backspace
    case left
    case right
    case home
    case end
}
