#if canImport(Glibc)
import Glibc
#endif
import CWaylandProtocols
// libxkbcommon (CX11 links and imports it).
import CX11

/// The virtual keyboard's keymap: the seat's own layout (the keymap its keyboard gave
/// clients) when it is a whole layout (`isLayout`), else libxkbcommon's default
/// (`XKB_DEFAULT_LAYOUT` and friends, else us), plus one key for each character that layout
/// lacks (へ, ぇ, 〜 on most), on keycodes that have no symbols, from 9 to 255 (XWayland reads
/// no more) whatever the layout's own highest keycode. Answers which key and modifiers type a
/// keysym, as the receiving application computes it (libxkbcommon).
///
/// Another virtual keyboard's keymap is never the base: wtype's holds no key at all until it
/// types, squeekboard's only its own keys on keycodes 9…118. GTK 3.24 applies no key binding
/// (BackSpace, the arrows, Ctrl+A) to a key of a keymap whose modifiers are on no key: with
/// wtype's keymap plus BackSpace, even on its usual keycode 22, BackSpace did nothing in a
/// GtkEntry; with Shift, Control, Alt and Num Lock keys added it worked, as it does from a
/// whole layout with BackSpace moved to another keycode.
///
/// The extra keys are written into the keymap's text: a name in `xkb_keycodes` where the
/// keycode has none, and an `override key` in `xkb_symbols`. When no free keycode is left,
/// keys whose symbols are only XF86 function keysyms (which no on-screen key sends) are used,
/// then the extra key used longest ago.
final class WaylandKeymap {
    /// A way to type a keysym: press `keycode` (evdev's, as `zwp_virtual_keyboard_v1.key`
    /// takes it) with the modifiers in `modifiers` (this keymap's mask) depressed.
    struct Stroke: Hashable {
        var keycode: UInt32
        var modifiers: UInt32
    }

    /// Why a keymap cannot be made.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let context: OpaquePointer
    /// The seat's layout, as XKB text.
    private var base: String
    private var baseKeymap: OpaquePointer
    /// Extra keysyms on their keycodes (XKB keycodes), oldest use first.
    private(set) var extra: [(keysym: UInt32, keycode: UInt32)] = []
    /// The keymap made from `base` and `extra`, its text (sent to the compositor) and state.
    private(set) var text = ""
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var cache: [UInt32: Stroke?] = [:]
    /// Modifier masks in this keymap.
    private(set) var shiftMask: UInt32 = 0
    private(set) var controlMask: UInt32 = 0
    /// The Alt modifier's mask in the keymap (`Mod1`, the xkb name "Alt").
    private(set) var altMask: UInt32 = 0
    private var levelThreeMask: UInt32 = 0

    /// The newest whole layout among `seatKeymaps` (XKB texts the seat showed, newest last),
    /// else libxkbcommon's default.
    /// - Throws: `Failure` when none compiles.
    init(seatKeymaps: [String]) throws(Failure) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw Failure(description: "libxkbcommon cannot start") }
        self.context = context
        let layout = seatKeymaps.reversed().lazy.compactMap { Self.compileLayout($0, context: context) }.first
        guard let (text, keymap) = layout ?? Self.defaultLayout(context) else {
            xkb_context_unref(context)
            throw Failure(description: "no keymap: neither the seat's nor libxkbcommon's default compiles")
        }
        base = text
        baseKeymap = keymap
        try rebuild()
    }

    deinit {
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        xkb_keymap_unref(baseKeymap)
        xkb_context_unref(context)
    }

    /// Whether `text` is the keymap last made here (the compositor hands our own keymap back
    /// to us while our keyboard is the seat's), also when the compositor's libxkbcommon
    /// wrote it differently.
    func isOwn(_ text: String) -> Bool {
        if text == self.text { return true }
        if let known = lastForeign, known.text == text { return known.isOwn }
        let own = Self.compile(text, context: context).map { normalized, keymap in
            xkb_keymap_unref(keymap)
            return normalized == self.text
        } ?? false
        lastForeign = (text, own)
        return own
    }
    private var lastForeign: (text: String, isOwn: Bool)?

    /// Takes a new seat layout (the user switched layouts, or the compositor gave our keyboard
    /// its configured layout), keeping the extra keysyms; keymaps that are not a whole layout
    /// (another virtual keyboard's) are ignored. Returns whether the keymap changed.
    func seatLayoutChanged(to seatKeymap: String) -> Bool {
        guard seatKeymap != base, !isOwn(seatKeymap), let (text, keymap) = Self.compileLayout(seatKeymap, context: context) else {
            return false
        }
        guard text != base else {
            xkb_keymap_unref(keymap)
            return false
        }
        xkb_keymap_unref(baseKeymap)
        base = text
        baseKeymap = keymap
        let wanted = extra.map(\.keysym)
        extra = []
        for keysym in wanted where lookup(keysym, in: baseKeymap) == nil { _ = place(keysym) }
        return (try? rebuild()) != nil
    }

    /// The key for `keysym`, adding it to the keymap when the layout has none.
    /// - Returns: the stroke and whether the keymap changed (it must be sent again first).
    /// - Throws: `Failure` when the keymap cannot be made.
    func stroke(for keysym: UInt32) throws(Failure) -> (Stroke, changed: Bool) {
        if let found = cache[keysym] ?? lookupCached(keysym) {
            touch(keysym)
            return (found, false)
        }
        guard place(keysym) else { throw Failure(description: "no keycode left for \(Self.name(of: keysym))") }
        try rebuild()
        guard let found = lookupCached(keysym) else { throw Failure(description: "the keymap has no key for \(Self.name(of: keysym))") }
        return (found, true)
    }

    /// Makes sure every keysym in `keysyms` has a key; returns whether the keymap changed.
    func prepare(_ keysyms: [UInt32]) -> Bool {
        var changed = false
        for keysym in keysyms where (cache[keysym] ?? lookupCached(keysym)) == nil && !extra.contains(where: { $0.keysym == keysym }) {
            changed = place(keysym) || changed
        }
        if changed { _ = try? rebuild() }
        return changed
    }

    private func lookupCached(_ keysym: UInt32) -> Stroke? {
        let found = keymap.flatMap { lookup(keysym, in: $0) }
        cache[keysym] = found
        return found
    }

    /// Moves `keysym` to the end of the use order.
    private func touch(_ keysym: UInt32) {
        if let index = extra.firstIndex(where: { $0.keysym == keysym }), index != extra.count - 1 {
            extra.append(extra.remove(at: index))
        }
    }

    /// Puts `keysym` on a free keycode (or the one used longest ago); returns `false` when
    /// there is none at all.
    private func place(_ keysym: UInt32) -> Bool {
        let used = Set(extra.map(\.keycode))
        // Keycode 8 is evdev's KEY_RESERVED (0): never sent. Up to 255 whatever the layout's
        // highest keycode (squeekboard's ends at 118): `rebuild` raises the maximum.
        let free = (UInt32(9)...Self.highestKeycode).filter { !used.contains($0) }
        if let keycode = free.first(where: { xkb_keymap_num_layouts_for_key(baseKeymap, $0) == 0 })
            ?? free.first(where: { onlyFunctionKeysyms($0) }) {
            extra.append((keysym, keycode))
        } else if !extra.isEmpty {
            let oldest = extra.removeFirst()
            extra.append((keysym, oldest.keycode))
        } else {
            return false
        }
        return true
    }

    /// Whether every symbol of `keycode` in the seat's layout is an XF86 function keysym.
    private func onlyFunctionKeysyms(_ keycode: UInt32) -> Bool {
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(baseKeymap, keycode, 0, 0, &syms)
        guard count > 0, let syms else { return false }
        return (0..<Int(count)).allSatisfy { Self.name(of: syms[$0]).hasPrefix("XF86") }
    }

    /// Makes the keymap text from `base` and `extra` and compiles it.
    private func rebuild() throws(Failure) {
        var lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !extra.isEmpty {
            guard let keycodes = lines.firstIndex(where: { $0.hasPrefix("xkb_keycodes") }),
                  let symbols = lines.firstIndex(where: { $0.hasPrefix("xkb_symbols") }),
                  let symbolsEnd = lines[symbols...].firstIndex(where: { $0 == "};" }) else {
                throw Failure(description: "the seat's keymap is not in libxkbcommon's text form")
            }
            var symbolLines: [String] = []
            var nameLines: [String] = []
            for (keysym, keycode) in extra {
                let name: String
                if let existing = xkb_keymap_key_get_name(baseKeymap, keycode) {
                    name = String(cString: existing)
                } else {
                    // xkbcomp (XWayland) reads key names of at most 4 characters.
                    name = "Z\(keycode)"
                    nameLines.append("\t<\(name)> = \(keycode);")
                }
                symbolLines.append("\toverride key <\(name)> { type= \"ONE_LEVEL\", symbols[Group1]= [ \(Self.name(of: keysym)) ] };")
            }
            lines.insert(contentsOf: symbolLines, at: symbolsEnd)
            // A keycode above the layout's declared maximum would not be read (xkbcomp).
            if let maximum = lines[keycodes...].firstIndex(where: { $0.drop { $0 == "\t" || $0 == " " }.hasPrefix("maximum") }),
               maximum < symbols {
                lines[maximum] = "\tmaximum = \(Self.highestKeycode);"
            }
            lines.insert(contentsOf: nameLines, at: keycodes + 1)
        }
        let candidate = lines.joined(separator: "\n")
        guard let compiled = xkb_keymap_new_from_string(context, candidate, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let newState = xkb_state_new(compiled) else {
            throw Failure(description: "the keymap with the extra keys does not compile")
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = compiled
        state = newState
        // The text as libxkbcommon writes it: what the compositor and every client compile.
        text = xkb_keymap_get_as_string(compiled, XKB_KEYMAP_FORMAT_TEXT_V1).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? candidate
        shiftMask = Self.mask(compiled, "Shift")
        controlMask = Self.mask(compiled, "Control")
        altMask = Self.mask(compiled, "Mod1")
        levelThreeMask = Self.mask(compiled, "Mod5")
        cache = [:]
    }

    /// The highest XKB keycode an extra key takes: XWayland reads no more.
    static let highestKeycode: UInt32 = 255

    static func mask(_ keymap: OpaquePointer, _ name: String) -> UInt32 {
        let index = xkb_keymap_mod_get_index(keymap, name)
        return index == XKB_MOD_INVALID ? 0 : 1 << index
    }

    /// The key and modifiers (none, Shift, AltGr, both; fewest first) that type `keysym` in
    /// the first layout of `keymap`, never a modifier key.
    private func lookup(_ keysym: UInt32, in keymap: OpaquePointer) -> Stroke? {
        guard let state = keymap == self.keymap ? self.state : xkb_state_new(keymap) else { return nil }
        defer { if keymap != self.keymap { xkb_state_unref(state) } }
        let shift = Self.mask(keymap, "Shift"), levelThree = Self.mask(keymap, "Mod5")
        var candidates: [UInt32] = [0, shift]
        if levelThree != 0 { candidates += [levelThree, shift | levelThree] }
        for mods in candidates {
            xkb_state_update_mask(state, mods, 0, 0, 0, 0, 0)
            for keycode in UInt32(9)...min(xkb_keymap_max_keycode(keymap), 255) {
                if xkb_state_key_get_one_sym(state, keycode) == keysym, !isModifierKey(keycode, state) {
                    return Stroke(keycode: keycode - 8, modifiers: mods)
                }
            }
        }
        return nil
    }

    /// Whether pressing `keycode` changes modifiers (Shift_L, ISO_Level3_Shift, …).
    private func isModifierKey(_ keycode: UInt32, _ state: OpaquePointer) -> Bool {
        let sym = xkb_state_key_get_one_sym(state, keycode)
        return (0xffe1...0xffee).contains(sym) || (0xfe01...0xfe0f).contains(sym)
    }

    /// A keysym's name (`U3078`, `BackSpace`), as keymaps and messages write it.
    static func name(of keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard xkb_keysym_get_name(keysym, &buffer, buffer.count) > 0 else { return "0x" + String(keysym, radix: 16) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
