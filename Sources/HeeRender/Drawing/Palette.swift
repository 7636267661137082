/// Every colour the app draws. The へぇ button's come from seed 000's `KeyboardView`; the
/// rest are iOS's light-mode system colours, which seeds 001 and 002 rely on.
public enum Palette {
    // MARK: Seed 000 (KeyboardView)

    /// The cap while pressed, and the laurels: `Color(red: 0.963, green: 0.961, blue: 0.447, opacity: 0.7)`.
    public static let highlight = Color(red: 0.963, green: 0.961, blue: 0.447, opacity: 0.7)
    /// The cap at rest: `Color(red: 0.792, green: 0.826, blue: 0.851, opacity: 0.7)`.
    public static let top = Color(red: 0.792, green: 0.826, blue: 0.851, opacity: 0.7)
    /// The five dots: `Color(red: 0.824, green: 0.824, blue: 0.824)`.
    public static let dot = Color(red: 0.824, green: 0.824, blue: 0.824)
    /// The blue band and the visible 「へぇ」 label: `Color(red: 0.239, green: 0.569, blue: 0.754)`.
    public static let middle = Color(red: 0.239, green: 0.569, blue: 0.754)
    /// The lower band: `Color(red: 0.641, green: 0.785, blue: 0.873)`.
    public static let bottom = Color(red: 0.641, green: 0.785, blue: 0.873)
    /// The counter's digits: SwiftUI's `Color.red` (systemRed, light mode).
    public static let counterDigits = Color(rgb8: 255, 59, 48)
    /// The counter's box: `Color.black`.
    public static let counterBox = Color.black
    /// `.shadow(radius: 5)`'s default colour: black at 0.33 opacity.
    public static let shadow = Color(red: 0, green: 0, blue: 0, opacity: 0.33)

    // MARK: iOS light mode

    /// The keyboard's backdrop (iOS system keyboard, light).
    public static let keyboardBackground = Color(rgb8: 209, 212, 217)
    /// Letter keys and space.
    public static let key = Color.white
    /// Shift (off) and backspace keys.
    public static let specialKey = Color(rgb8: 172, 177, 187)
    /// A pressed key.
    public static let keyPressed = Color(rgb8: 172, 177, 187)
    /// The 1 pt shadow under keys.
    public static let keyShadow = Color(rgb8: 137, 139, 143)
    /// Key labels and icons.
    public static let keyLabel = Color.black

    /// The host screen's grouped background (systemGroupedBackground).
    public static let hostBackground = Color(rgb8: 242, 242, 247)
    /// The list's rows (secondarySystemGroupedBackground).
    public static let row = Color.white
    /// A row while pressed (systemGray4).
    public static let rowPressed = Color(rgb8: 209, 209, 214)
    /// Row separators (separator).
    public static let separator = Color(rgb8: 198, 198, 200)
    /// Labels (label).
    public static let label = Color.black
    /// Values and the placeholder (secondaryLabel, placeholderText).
    public static let secondaryLabel = Color(rgb8: 138, 138, 142)
    /// Selected text's background (the tint at 20 %).
    public static let selection = Color(rgb8: 0, 122, 255, opacity: 0.2)
    /// Buttons and the caret (systemBlue, the default tint).
    public static let tint = Color(rgb8: 0, 122, 255)
}
