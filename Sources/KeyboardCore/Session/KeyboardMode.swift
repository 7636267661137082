/// Where the keyboard's keys type.
///
/// The same `KeyboardSession` rules (shift, repeat, rollover, the counter) run in both modes;
/// only the `TextDocumentProxy` the keys edit through differs, as a custom keyboard on iOS
/// types into whichever app hosts it.
public enum KeyboardMode: String, Hashable, Sendable {
    /// The seeds' demo: a host screen with its own text field (seed 001) above the keyboard.
    case hostScreen
    /// `--system`: a window holding only the keyboard, typing into whatever window of the
    /// desktop has the keyboard focus (`KeystrokeDocumentProxy`). It adds a `return` key and
    /// a line naming the window the keys go to.
    case system
}
