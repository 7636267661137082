/// What the host screen knows about the keyboard: seed 001's `ViewModel`, fed by
/// keyboard-did-change-frame notifications.
///
/// The frame is in window points. As in seed 001, a zero frame means hidden and any other
/// frame means shown.
public struct KeyboardMonitor: Hashable, Sendable {
    public private(set) var keyboardStatus: KeyboardStatus = .hide
    public private(set) var keyboardRect: Rect = .zero

    public init() {}

    /// The keyboard's frame finished changing to `rect` (UIKit's
    /// `keyboardDidChangeFrameNotification` with `keyboardFrameEndUserInfoKey`).
    public mutating func keyboardDidChangeFrame(_ rect: Rect) {
        keyboardRect = rect
        keyboardStatus = rect == .zero ? .hide : .show
    }

    /// The 「サイズ」 row's text: the frame's size like `CGSize`'s description, e.g.
    /// `(480.0, 392.0)`, and `(0.0, 0.0)` when hidden.
    public var sizeText: String { keyboardRect.size.description }
}
