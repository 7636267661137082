#if canImport(Glibc)
import Glibc
#endif
import CWaylandProtocols

/// A `zwp_virtual_keyboard_v1` on the seat, kept for the whole run, typing with the keymap
/// of `WaylandKeymap`.
///
/// Kept, not made per keystroke: when a keyboard goes away sway sends the next keyboard's
/// modifiers before its keymap, which SDL 2.26 mishandles (and every client would compile
/// keymaps back and forth). Made before the keyboard's first frame, its keymap sent after it
/// (`use`): joining the seat is what makes sway re-enter the focused window (see
/// `KeystrokeOrder`), compiling the keymap is what takes time. The keymap is sent again only
/// when its characters change or the compositor may have replaced it (`sendKeymap(force:)`).
/// Every keystroke sends its modifiers, group and locks (all zero but the ones it holds):
/// wlroots does not derive them from key presses, and the compositor may have set a group
/// or Caps Lock on our keyboard (`xkb_switch_layout`, `xkb_capslock`) that no event tells us.
final class WaylandVirtualKeyboard {
    private let object: WaylandObject
    private var keymap: WaylandKeymap?
    /// The keymap text the compositor has from us (the last one sent).
    private var sentKeymap = ""

    /// Creates the virtual keyboard on `seat` through `manager` (no keymap yet: no key may
    /// be sent before `use`).
    /// - Throws: `WaylandKeymap.Failure` when the compositor makes none.
    init(manager: WaylandObject, seat: WaylandObject) throws(WaylandKeymap.Failure) {
        guard let object = manager.request(0, [.object(seat), .newID], creating: hee_zwp_virtual_keyboard_v1()) else {
            throw WaylandKeymap.Failure(description: "the compositor did not make a virtual keyboard")
        }
        self.object = object
    }

    deinit {
        // Nothing held: every modifier is up between keystrokes.
        object.destroy(request: 3)
    }

    /// Types with `keymap` from now on, and sends it.
    /// - Throws: `WaylandKeymap.Failure` when the keymap cannot be sent.
    func use(_ keymap: WaylandKeymap) throws(WaylandKeymap.Failure) {
        self.keymap = keymap
        try sendKeymap(force: true)
    }

    /// Sends the keymap when it differs from the one the compositor has from us, or always
    /// (`force`: the compositor may have put another on our keyboard).
    func sendKeymap(force: Bool = false) throws(WaylandKeymap.Failure) {
        guard let text = keymap?.text, force || text != sentKeymap else { return }
        let size = text.utf8.count + 1
        let fd = hee_keymap_file(text, size)
        guard fd >= 0 else { throw WaylandKeymap.Failure(description: "cannot create the keymap file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        object.request(0, [.uint(1 /* xkb_v1 */), .fd(fd), .uint(UInt32(size))])
        sentKeymap = text
    }

    /// Presses and releases evdev key `keycode` with `modifiers` held (this keymap's mask),
    /// after the modifiers, group 0 and no locks.
    func tap(_ stroke: WaylandKeymap.Stroke, time: UInt32) {
        setModifiers(stroke.modifiers)
        object.request(1, [.uint(time), .uint(stroke.keycode), .uint(1)])  // key(time, key, pressed)
        object.request(1, [.uint(time), .uint(stroke.keycode), .uint(0)])  // released
    }

    /// Releases every modifier (after a keystroke that held some).
    func releaseModifiers() { setModifiers(0) }

    private func setModifiers(_ depressed: UInt32) {
        object.request(2, [.uint(depressed), .uint(0), .uint(0), .uint(0)])  // modifiers(depressed, latched, locked, group)
    }
}
