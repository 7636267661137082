import CSDL
import KeyboardCore

/// Where system mode learns which text field of another application has the focus, and what
/// it is (issue 30). One implementation per platform: `AtspiContextSource` on X11 (AT-SPI 2's
/// focus events); on Wayland the input method's `content_type` and `surrounding_text`, applied
/// on `done`, are to be the next. The loop knows a source only through this protocol: it hands
/// it the SDL events meant for the platform layer, and when the source says its context
/// changed it reads `context` (today for the trace's `context` line; next as the session's
/// input for showing and hiding the keyboard).
protocol TextContextSource: AnyObject {
    /// The focused field now: `.inactive` when none has the focus, or while it is not known yet.
    var context: TextContext { get }
    /// Changes whenever the focus moves to a field — another one, or the same again after it
    /// lost the focus — also when the new field is of the same kind (and `context` then reads
    /// the same): what "until the focus moves to another field" is measured by.
    var focusSerial: UInt64 { get }
    /// Why the platform cannot tell which field has the focus at all, once that is clear
    /// (`nil` while it can, or may still): the keyboard then behaves as without a context.
    var unavailableReason: String? { get }
    /// Whether the platform knows what has the focus: false where the focused window says
    /// nothing of it (on X11 no accessible has the focus: xterm, Tk), so a `context` of
    /// `.inactive` means "unknown", not "a non-text object" (auto-show then keeps the keyboard
    /// shown). Wayland's input method always knows.
    var isFocusKnown: Bool { get }
    /// Looks at an SDL event meant for the platform layer (the wake-up the source posted from
    /// its own thread). Returns whether `context`, `focusSerial` or `unavailableReason` changed.
    func handle(_ event: UnsafePointer<SDL_Event>) -> Bool
}

extension TextContextSource {
    var isFocusKnown: Bool { true }
}
