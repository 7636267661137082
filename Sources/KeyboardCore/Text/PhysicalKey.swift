/// The physical keys that edit or act (letters only as far as shortcuts use them).
public enum PhysicalKey: Hashable, Sendable {
    /// Backspace and Delete; the arrow keys, Home and End (Up and Down act as Home and End in
    /// the one-line field); Escape.
    case backspace, delete, left, right, home, end, up, down, escape
    /// A letter key, by the lowercase letter its keysym names (`a` for SDLK_a).
    case letter(Character)
}
