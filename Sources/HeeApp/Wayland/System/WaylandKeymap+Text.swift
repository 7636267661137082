#if canImport(Glibc)
import Glibc
#endif
// libxkbcommon (CX11 links and imports it).
import CX11

/// Keymap texts: compiled, written back as libxkbcommon writes them, read from the
/// compositor's file descriptor, and told apart (a whole layout, or another virtual
/// keyboard's handful of keys).
extension WaylandKeymap {
    /// The keysyms every keystroke can need besides text (`NamedKey`'s keys, the modifiers the
    /// desktop row holds) and the letters and digits of shortcuts: a whole layout types each
    /// of them with no modifier or Shift.
    static let layoutKeysyms: [UInt32] = {
        let names = ["BackSpace", "Return", "Tab", "Escape", "Left", "Right", "Up", "Down", "Shift_L", "Control_L", "Alt_L", "space"]
        let keys: [UInt32] = names.map { xkb_keysym_from_name($0, XKB_KEYSYM_NO_FLAGS) }
        // Latin letters and digits: their keysyms are their ASCII codes.
        let letters: [UInt32] = Array(0x61...0x7a)
        let digits: [UInt32] = Array(0x30...0x39)
        return keys + letters + digits
    }()

    /// Whether `keymap` is a whole layout (what a compositor compiles for a keyboard), not
    /// another virtual keyboard's handful of keys: every one of `layoutKeysyms` has a key.
    static func isLayout(_ keymap: OpaquePointer) -> Bool {
        guard let state = xkb_state_new(keymap) else { return false }
        defer { xkb_state_unref(state) }
        var wanted = Set(layoutKeysyms)
        for mods in [0, mask(keymap, "Shift")] {
            xkb_state_update_mask(state, mods, 0, 0, 0, 0, 0)
            for keycode in UInt32(9)...min(xkb_keymap_max_keycode(keymap), highestKeycode) {
                wanted.remove(xkb_state_key_get_one_sym(state, keycode))
            }
        }
        return wanted.isEmpty
    }

    /// `text` compiled when it is a whole layout (`isLayout`), as `compile` gives it.
    static func compileLayout(_ text: String?, context: OpaquePointer) -> (String, OpaquePointer)? {
        guard let (normalized, keymap) = compile(text, context: context) else { return nil }
        guard isLayout(keymap) else {
            xkb_keymap_unref(keymap)
            return nil
        }
        return (normalized, keymap)
    }

    /// The default layout (`XKB_DEFAULT_*`, else us) as text and keymap.
    static func defaultLayout(_ context: OpaquePointer) -> (String, OpaquePointer)? {
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS) else { return nil }
        guard let pointer = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
            xkb_keymap_unref(keymap)
            return nil
        }
        defer { free(pointer) }
        return (String(cString: pointer), keymap)
    }

    /// `text` compiled, and rewritten as libxkbcommon writes it.
    static func compile(_ text: String?, context: OpaquePointer) -> (String, OpaquePointer)? {
        guard let text, let keymap = xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            return nil
        }
        guard let pointer = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
            xkb_keymap_unref(keymap)
            return nil
        }
        defer { free(pointer) }
        return (String(cString: pointer), keymap)
    }

    /// The text of a keymap file descriptor (`wl_keyboard.keymap`), `size` bytes with a NUL.
    static func read(fd: Int32, size: Int) -> String? {
        guard size > 0, size < 16 << 20, let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        defer { munmap(mapped, size) }
        let bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The keysym `stroke` types in the keymap `text` (0 when it types none, or `text` does not
    /// compile). Modifier masks carry over: Shift, Control, Mod1 and Mod5 are real modifiers,
    /// the same bits in every keymap.
    func keysym(of stroke: Stroke, in text: String) -> UInt32 {
        guard let (_, other) = Self.compile(text, context: context) else { return 0 }
        defer { xkb_keymap_unref(other) }
        guard let state = xkb_state_new(other) else { return 0 }
        defer { xkb_state_unref(state) }
        xkb_state_update_mask(state, stroke.modifiers, 0, 0, 0, 0, 0)
        return xkb_state_key_get_one_sym(state, stroke.keycode + 8)
    }
}
