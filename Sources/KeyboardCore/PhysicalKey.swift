/// The physical keys that edit or act (letters only as far as shortcuts use them).
public enum PhysicalKey: Hashable, Sendable {
    case backspace, delete, left, right, home, end, up, down, escape
    /// A letter key, by the lowercase letter its keysym names (`a` for SDLK_a).
    case letter(Character)
}
