#if canImport(Glibc)
import Glibc
#endif
import CWaylandProtocols

/// A `zwp_virtual_keyboard_v1` on the seat, kept for the whole run, typing with the keymap
/// of `WaylandKeymap`.
///
/// Kept, not made per keystroke: when a keyboard goes away sway sends the next keyboard's
/// modifiers before its keymap, which SDL 2.26 mishandles (and every client would compile
/// keymaps back and forth). The keymap is sent only when its set of characters changes.
/// Modifiers are sent explicitly around the keys that need them (wlroots does not derive
/// them from key presses), and are all up between keystrokes.
final class WaylandVirtualKeyboard {
    private let object: WaylandObject
    private let keymap: WaylandKeymap
    /// The keymap text the compositor has (the last one sent).
    private var sentKeymap = ""
    /// The modifiers the compositor last heard (this keymap's mask).
    private var sentModifiers: UInt32 = 0

    /// Creates the virtual keyboard on `seat` through `manager` and sends `keymap`.
    /// - Throws: `WaylandKeymap.Failure` when the keymap cannot be sent.
    init(manager: WaylandObject, seat: WaylandObject, keymap: WaylandKeymap) throws(WaylandKeymap.Failure) {
        guard let object = manager.request(0, [.object(seat), .newID], creating: hee_zwp_virtual_keyboard_v1()) else {
            throw WaylandKeymap.Failure(description: "the compositor did not make a virtual keyboard")
        }
        self.object = object
        self.keymap = keymap
        try sendKeymapIfChanged()
    }

    deinit {
        // Nothing held: every modifier is up between keystrokes.
        object.destroy(request: 3)
    }

    /// Sends the keymap when it differs from the one the compositor has.
    func sendKeymapIfChanged() throws(WaylandKeymap.Failure) {
        let text = keymap.text
        guard text != sentKeymap else { return }
        let size = text.utf8.count + 1
        let fd = hee_keymap_file(text, size)
        guard fd >= 0 else { throw WaylandKeymap.Failure(description: "cannot create the keymap file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        object.request(0, [.uint(1 /* xkb_v1 */), .fd(fd), .uint(UInt32(size))])
        sentKeymap = text
    }

    /// Presses and releases evdev key `keycode` with `modifiers` held (this keymap's mask).
    func tap(_ stroke: WaylandKeymap.Stroke, time: UInt32) {
        setModifiers(stroke.modifiers)
        object.request(1, [.uint(time), .uint(stroke.keycode), .uint(1)])  // key(time, key, pressed)
        object.request(1, [.uint(time), .uint(stroke.keycode), .uint(0)])  // released
    }

    /// Releases every modifier (after a keystroke).
    func releaseModifiers() { setModifiers(0) }

    private func setModifiers(_ depressed: UInt32) {
        guard depressed != sentModifiers else { return }
        object.request(2, [.uint(depressed), .uint(0), .uint(0), .uint(0)])  // modifiers(depressed, latched, locked, group)
        sentModifiers = depressed
    }
}
