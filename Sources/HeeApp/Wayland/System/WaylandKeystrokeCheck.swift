// libxkbcommon (CX11 links and imports it).
import CX11
import KeyboardCore

/// Which keymap the compositor read our last virtual-keyboard keystroke with, and so what it
/// typed.
///
/// The compositor may put another keymap on our keyboard at any moment (sway: `input …
/// xkb_layout`, `reload`), and says so only by sending it to the seat's clients; a keystroke
/// already on its way is then read with it. One virtual-keyboard keystroke is on its way at a
/// time (a `wl_display.sync` follows it, and the next waits for its answer, about 1 ms): the
/// last `wl_keyboard.keymap` the seat showed before that answer is the keymap it was read
/// with, because wlroots sends our keyboard's keymap to every client when a key of ours makes
/// it the seat's active keyboard, and when the compositor changes it while it is. A keymap
/// not ours there means: keys that typed nothing with it go again (after ours is sent
/// again), keys that typed another character are said on stderr. (Typing at 20 ms a key with
/// the layout switched every 50 ms, 3–4 characters in 300 were lost or other ones before.)
final class WaylandKeystrokeCheck {
    /// One key of a keystroke: the stroke sent, the keysym it should type, and the
    /// character it stands for when the keystroke was text.
    struct Unit {
        var stroke: WaylandKeymap.Stroke
        var keysym: UInt32
        var character: Unicode.Scalar?
    }

    /// The keystroke on its way: what it was and its keys, and its timestamp.
    private(set) var pending: (stroke: Keystroke, units: [Unit], time: UInt32)?
    /// The last keymap not ours the seat showed since it went, `nil` once ours came after it.
    private var readWith: String?

    /// A keystroke just went through the virtual keyboard (`units`: its keys).
    func sent(_ stroke: Keystroke, units: [Unit], time: UInt32) {
        pending = (stroke, units, time)
        readWith = nil
    }

    /// A keymap the seat showed (`own`: ours).
    func keymapSeen(_ text: String, own: Bool) {
        guard pending != nil else { return }
        readWith = own ? nil : text
    }

    /// The compositor handled the keystroke: what must go again (the keys that typed nothing
    /// with the keymap it was read with, in order), and what came out instead where it typed
    /// another character (keysym names, for stderr).
    /// (`keymap` `nil`: the answer cannot come; nothing goes again.)
    @discardableResult
    func confirmed(with keymap: WaylandKeymap?) -> (again: Keystroke?, wrong: [String]) {
        defer {
            pending = nil
            readWith = nil
        }
        guard let (stroke, units, _) = pending, let foreign = readWith, let keymap else { return (nil, []) }
        var missing: [Unit] = []
        var wrong: [String] = []
        for unit in units {
            let typed = keymap.keysym(of: unit.stroke, in: foreign)
            if typed == 0 {
                missing.append(unit)
            } else if typed != unit.keysym {
                wrong.append("\(WaylandKeymap.name(of: unit.keysym)) as \(WaylandKeymap.name(of: typed))")
            }
        }
        guard !missing.isEmpty else { return (nil, wrong) }
        if case .text = stroke {
            let text = String(String.UnicodeScalarView(missing.compactMap(\.character)))
            return (.text(text), wrong)
        }
        return (stroke, wrong)
    }
}
