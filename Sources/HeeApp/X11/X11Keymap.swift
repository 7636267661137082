#if canImport(Glibc)
import Glibc
#endif
import CX11

/// The X server's current keymap, read with xkbcommon-x11, answering "which key, with which
/// modifiers held, types this keysym in the current layout" — exactly as the receiving
/// application will compute it (xkbcommon implements the same XKB rules libX11 and GTK use:
/// key types, levels, Caps Lock's transformation).
///
/// Reloaded when the keymap changes (`markStale()` on MappingNotify / XkbNewKeyboardNotify /
/// XkbMapNotify). Answers are cached per keymap.
final class X11Keymap {
    /// A way to type a keysym: press `keycode` while the real modifiers in `modifiers` (X
    /// core mask bits) are held down.
    struct Stroke: Hashable {
        var keycode: UInt8
        var modifiers: UInt8
    }

    /// A failure to read the keymap (the XKB extension is missing or the server refused).
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// X core modifier masks.
    static let shiftMask: UInt8 = 1, lockMask: UInt8 = 2, controlMask: UInt8 = 4, mod2Mask: UInt8 = 16, mod5Mask: UInt8 = 128
    /// Modifier combinations tried, fewest first: none, Shift, AltGr (Mod5), both.
    private static let candidates: [UInt8] = [0, shiftMask, mod5Mask, shiftMask | mod5Mask]

    private let connection: X11Connection
    private let context: OpaquePointer
    private let deviceID: Int32
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    /// For each real modifier (0 Shift … 7 Mod5), the keycodes bound to it (core modifier map).
    private(set) var modifierKeycodes: [[UInt8]] = Array(repeating: [], count: 8)
    private var cache: [CacheKey: Stroke?] = [:]
    private struct CacheKey: Hashable { var keysym: UInt32, layout: UInt32, locked: UInt8 }
    /// Whether the keymap must be read again before the next lookup.
    private(set) var isStale = true

    /// - Throws: `LoadError` when the server has no usable XKB extension.
    init(connection: X11Connection) throws(LoadError) {
        self.connection = connection
        guard xkb_x11_setup_xkb_extension(connection.xcb, UInt16(XKB_X11_MIN_MAJOR_XKB_VERSION),
                                          UInt16(XKB_X11_MIN_MINOR_XKB_VERSION), XKB_X11_SETUP_XKB_EXTENSION_NO_FLAGS,
                                          nil, nil, nil, nil) == 1 else {
            throw LoadError(description: "the X server has no usable XKB extension")
        }
        deviceID = xkb_x11_get_core_keyboard_device_id(connection.xcb)
        guard deviceID >= 0, let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
            throw LoadError(description: "cannot find the core keyboard through XKB")
        }
        self.context = context
        try load()
    }

    deinit {
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        xkb_context_unref(context)
    }

    /// Forgets the keymap; the next lookup reads it again.
    func markStale() { isStale = true }

    /// Reads the keymap and the modifier map from the server.
    /// - Throws: `LoadError` when the server refuses.
    func load() throws(LoadError) {
        guard let fresh = xkb_x11_keymap_new_from_device(context, connection.xcb, deviceID, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let freshState = xkb_state_new(fresh) else {
            throw LoadError(description: "cannot read the keymap from the X server")
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = fresh
        state = freshState
        cache = [:]
        var modifiers: [[UInt8]] = Array(repeating: [], count: 8)
        if let reply = xcb_get_modifier_mapping_reply(connection.xcb, xcb_get_modifier_mapping(connection.xcb), nil) {
            let perModifier = Int(reply.pointee.keycodes_per_modifier)
            if let codes = xcb_get_modifier_mapping_keycodes(reply) {
                for modifier in 0..<8 {
                    modifiers[modifier] = (0..<perModifier).map { codes[modifier * perModifier + $0] }.filter { $0 != 0 }
                }
            }
            free(reply)
        }
        modifierKeycodes = modifiers
        isStale = false
    }

    /// The key and modifiers that type `keysym` in `layout` (0-based group) while the mods in
    /// `locked` are locked (Caps Lock, Num Lock), or `nil` when the layout has no such key
    /// reachable with Shift and AltGr. Modifier keys themselves are never chosen.
    func stroke(for keysym: UInt32, layout: UInt32, locked: UInt8) -> Stroke? {
        let key = CacheKey(keysym: keysym, layout: layout, locked: locked)
        if let known = cache[key] { return known }
        var found: Stroke?
        if let keymap, let state {
            let modifierKeys = Set(modifierKeycodes.joined())
            let low = xkb_keymap_min_keycode(keymap), high = xkb_keymap_max_keycode(keymap)
            search: for mods in Self.candidates where canHold(mods) {
                xkb_state_update_mask(state, xkb_mod_mask_t(mods), 0, xkb_mod_mask_t(locked), 0, 0, layout)
                for keycode in low...min(high, 255) where !modifierKeys.contains(UInt8(keycode)) {
                    if xkb_state_key_get_one_sym(state, keycode) == keysym {
                        found = Stroke(keycode: UInt8(keycode), modifiers: mods)
                        break search
                    }
                }
            }
        }
        cache[key] = found
        return found
    }

    /// Whether each modifier in `mods` has a key that holds it.
    func canHold(_ mods: UInt8) -> Bool {
        (0..<8).allSatisfy { bit in mods & (1 << bit) == 0 || !modifierKeycodes[bit].isEmpty }
    }

    /// The modifier (X core mask bit) a keycode is bound to, if any.
    func modifier(of keycode: UInt8) -> UInt8? {
        for bit in 0..<8 where modifierKeycodes[bit].contains(keycode) { return 1 << UInt8(bit) }
        return nil
    }

    /// The range of keycodes the server uses.
    var keycodeRange: ClosedRange<UInt8> {
        let setup = xcb_get_setup(connection.xcb)!
        return setup.pointee.min_keycode...setup.pointee.max_keycode
    }
}
