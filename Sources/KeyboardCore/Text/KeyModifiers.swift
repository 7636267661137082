/// Modifier keys held with a physical key (SDL's `SDL_Keymod`, told apart only as far as
/// shortcuts need).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// One bit per modifier (ours, not SDL's `SDL_Keymod` bits: left and right are one).
    public let rawValue: Int
    /// The modifiers whose bits are set in `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Either Shift (SDL's `KMOD_SHIFT`): extends the selection, redo with Ctrl+Z.
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    /// Either Ctrl (`KMOD_CTRL`): shortcuts, moving and deleting by word.
    public static let control = KeyModifiers(rawValue: 1 << 1)
    /// Either Alt (`KMOD_ALT`): with Ctrl, AltGr on systems that report it that way.
    public static let alt = KeyModifiers(rawValue: 1 << 2)
    /// AltGr where the system reports it as its own modifier (X11's ISO_Level3_Shift, SDL's
    /// `KMOD_MODE`).
    public static let altGr = KeyModifiers(rawValue: 1 << 3)

    /// Whether Ctrl makes the key a shortcut: Ctrl held without Alt or AltGr. Where AltGr
    /// arrives as Ctrl+Alt (Windows, and X servers set up that way; Polish, German and other
    /// layouts type `ą`, `@`, `€` with it), Ctrl+Alt+key is the layout typing a character,
    /// which comes as text: it must type, not select all or undo.
    public var isCommand: Bool { contains(.control) && isDisjoint(with: [.alt, .altGr]) }
}
