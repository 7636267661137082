#if canImport(Glibc)
import Glibc
#endif
import CX11
import KeyboardCore

/// Types `Keystroke`s into the window that has the keyboard focus with the X server's XTEST
/// extension, the way matchbox-keyboard and xdotool do: fake key presses the server handles
/// as if they came from a keyboard.
///
/// For each keysym the current layout's key and modifiers come from `X11Keymap`
/// (xkbcommon-x11, so the result is exact under any layout and group, Caps Lock included);
/// characters the layout lacks go through `X11SpareKeycodes`. Modifiers the user holds down
/// (a Shift or Ctrl on their keyboard, or one held through XTEST) would change what a key
/// types, so they are released before our keys: the target sees exactly our characters.
/// Caps Lock and Num Lock stay as they are; the keymap lookup accounts for them.
///
/// A modifier held through XTEST (`xdotool keydown shift`, another on-screen keyboard's
/// sticky Shift) is pressed again afterwards, so that hold continues. One held on a real
/// keyboard is not: the X server keeps a key state per device, and an XTEST press of a key
/// the user holds on their keyboard would leave the XTEST device holding it after the user
/// lets go — the next XTEST press of that key would then be dropped as an auto-repeat (a
/// Ctrl+BackSpace arriving as BackSpace). So the XTEST device's own key state is read
/// (XInput 1) whenever modifiers are involved, and a modifier it holds without the user is
/// released before we press it.
///
/// The keyboard's state (layout group, held and locked modifiers) is read once and then
/// followed through XKB StateNotify events, so a keystroke needs no round trip: all its
/// requests go out together, in one flush. (Our own XTEST modifier presses come back as
/// StateNotify events too, before any later click: the server sends events in order.)
final class X11KeystrokeSender: KeySender {
    /// Why a keystroke was not typed.
    typealias Failure = KeySendFailure

    private let connection: X11Connection
    private let keymap: X11Keymap
    private let spare: X11SpareKeycodes
    /// The server's XTEST keyboard device (XInput 1), for its key state; `nil` if missing.
    private let xtestKeyboard: UnsafeMutablePointer<XDevice>?
    /// XKB's first event code on this connection.
    private let xkbEventBase: Int32
    /// The keyboard's state as the last StateNotify (or the first read) gave it.
    private var state: (layout: UInt32, locked: UInt8, held: UInt8)?

    /// Modifiers that must not be held while our keys go out: Shift, Control, Mod1 (Alt),
    /// Mod3, Mod4 (Super), Mod5 (AltGr) — all but the locks (Lock, Mod2 = Num Lock).
    private static let transientModifiers: UInt8 = ~(X11Keymap.lockMask | X11Keymap.mod2Mask)

    /// - Throws: `Failure` when the server lacks XTEST or XKB.
    init(connection: X11Connection) throws(Failure) {
        self.connection = connection
        var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XTestQueryExtension(connection.display, &event, &error, &major, &minor) != 0 else {
            throw Failure(description: "the X server has no XTEST extension")
        }
        do {
            keymap = try X11Keymap(connection: connection)
        } catch {
            throw Failure(description: error.description)
        }
        spare = X11SpareKeycodes(connection: connection)
        xtestKeyboard = hee_open_xtest_keyboard(connection.display)
        var opcode: Int32 = 0, xkbEvent: Int32 = 0, xkbError: Int32 = 0
        var xkbMajor = Int32(XkbMajorVersion), xkbMinor = Int32(XkbMinorVersion)
        if XkbQueryExtension(connection.display, &opcode, &xkbEvent, &xkbError, &xkbMajor, &xkbMinor) != 0 {
            xkbEventBase = xkbEvent
            let components = UInt(XkbGroupStateMask | XkbModifierBaseMask | XkbModifierLockMask | XkbModifierStateMask)
            XkbSelectEventDetails(connection.display, UInt32(XkbUseCoreKbd), UInt32(XkbStateNotify), components, components)
        } else {
            xkbEventBase = -1
        }
        state = readState()
    }

    /// The keyboard's state from the server (one round trip).
    private func readState() -> (layout: UInt32, locked: UInt8, held: UInt8)? {
        let cookie = xcb_xkb_get_state(connection.xcb, UInt16(XCB_XKB_ID_USE_CORE_KBD.rawValue))
        guard let reply = xcb_xkb_get_state_reply(connection.xcb, cookie, nil) else { return nil }
        defer { free(reply) }
        return (UInt32(reply.pointee.group), reply.pointee.lockedMods, reply.pointee.baseMods)
    }

    deinit {
        if let xtestKeyboard { XCloseDevice(connection.display, xtestKeyboard) }
    }

    /// When borrowed keycodes are due back, if any.
    var deadline: Duration? { spare.deadline }

    /// Gives borrowed keycodes back once they have been idle long enough (and every one of
    /// them when the sender goes: `X11SpareKeycodes` owns them).
    func tick(at now: Duration) {
        // The keymap as last read may hold our loans (read while they were lent, after
        // someone else's change): once they are back, it would type returned, empty keycodes
        // (found by the kana pad's test: GTK got nothing, or the wrong kana). Read it again.
        if spare.returnIfIdle(at: now) { keymap.markStale() }
    }

    /// Notes keymap changes made by others (`setxkbmap`, `xmodmap`): the next keystroke
    /// reads the keymap again. Our own spare-keycode changes are not counted.
    func handle(_ event: UnsafePointer<XEvent>) {
        if event.pointee.type == xkbEventBase {
            UnsafeRawPointer(event).withMemoryRebound(to: XkbStateNotifyEvent.self, capacity: 1) { notify in
                guard notify.pointee.xkb_type == XkbStateNotify else { return }
                state = (UInt32(notify.pointee.group), UInt8(truncatingIfNeeded: notify.pointee.locked_mods),
                         UInt8(truncatingIfNeeded: notify.pointee.base_mods))
            }
            return
        }
        guard event.pointee.type == MappingNotify else { return }
        let mapping = event.pointee.xmapping
        switch mapping.request {
        case MappingKeyboard:
            if !spare.isOwnChange(first: Int(mapping.first_keycode), count: Int(mapping.count)) {
                keymap.markStale()
                spare.keymapChanged()
            }
        case MappingModifier:
            keymap.markStale()
        default:
            break
        }
    }

    /// The characters the session said may be typed next (`KeyboardEffect.prepareKeys`), for
    /// the pointer's next entry.
    private var readyText = ""

    /// Makes sure every character of `text` has a key, borrowing spare keycodes now for the
    /// ones the layout lacks, in `text`'s order (the session's: most urgent first) while
    /// keycodes last, so a long layer never takes the keycode of a character before it. The
    /// changes go out at once and are synced, so their time to reach the clients
    /// (`X11KeycodeTiming.settle`) runs before the press. Failures are left for `send`.
    func prepare(_ text: String, at now: Duration) {
        readyText = text
        if keymap.isStale { try? keymap.load() }
        if state == nil { state = readState() }
        guard !keymap.isStale, let (layout, locked, _) = state else { return }
        var seen = Set<UInt32>()
        let keysyms = text.unicodeScalars.map { xkb_utf32_to_keysym($0.value) }.filter { $0 != 0 && seen.insert($0).inserted }
        spare.startUse(at: now)
        var lent: [UInt8] = []
        for keysym in keysyms {
            if let found = keymap.stroke(for: keysym, layout: layout, locked: locked), !spare.lends(found.keycode, forOtherThan: keysym) {
                continue
            }
            if let borrowed = spare.key(for: keysym, keymap: keymap, waiting: false) { lent.append(borrowed.keycode) }
        }
        // The most urgent last used, so it is the last one taken back for another character.
        for keycode in lent.reversed() { spare.use(keycode) }
        spare.sync()
    }

    /// The pointer came onto the keyboard at `now`: loans stay while it is there, and what
    /// was given back meanwhile is borrowed again for the characters last announced.
    func pointerEntered(at now: Duration) {
        spare.setInUse(true, at: now)
        prepare(readyText, at: now)
    }

    /// The pointer left the keyboard at `now`: borrowed keycodes go back `hold` later.
    func pointerLeft(at now: Duration) { spare.setInUse(false, at: now) }

    /// Types `stroke` into the focused window. `now` is the app's clock (for the spare
    /// keycodes' hold).
    /// - Returns: `nil`: XTEST is the only way keys go.
    /// - Throws: `Failure` when the keymap or the keyboard's state cannot be read, or a
    ///   character has no key and no spare keycode is left.
    @discardableResult
    func send(_ stroke: Keystroke, at now: Duration) throws(Failure) -> String? {
        if keymap.isStale {
            do { try keymap.load() } catch { throw Failure(description: error.description) }
        }
        if state == nil { state = readState() }
        guard let (layout, locked, held) = state else { throw Failure(description: "cannot read the keyboard's state") }

        // What to press: (keycode, modifiers to hold) for each unit.
        var presses: [X11Keymap.Stroke] = []
        var borrowedKeycodes: [UInt8] = []
        spare.startUse(at: now)
        for (keysym, held) in try Self.keysyms(of: stroke) {
            // (A key the keymap names that we lent since, for another character, is not it.)
            if let found = keymap.stroke(for: keysym, layout: layout, locked: locked), !spare.lends(found.keycode, forOtherThan: keysym) {
                presses.append(X11Keymap.Stroke(keycode: found.keycode, modifiers: found.modifiers | held))
            } else if let borrowed = spare.key(for: keysym, keymap: keymap, waiting: true) {
                borrowedKeycodes.append(borrowed.keycode)
                // A borrowed key acts like a letter key: Shift or Caps Lock (not both) selects
                // the upper case.
                let capsLock = locked & X11Keymap.lockMask != 0
                let shift: UInt8 = borrowed.upper != capsLock ? X11Keymap.shiftMask : 0
                presses.append(X11Keymap.Stroke(keycode: borrowed.keycode, modifiers: shift | held))
            } else {
                throw Failure(description: "no key types \(Self.name(of: keysym)) and no spare keycode is left")
            }
        }
        guard keymap.canHold(presses.reduce(0) { $0 | $1.modifiers }) else {
            throw Failure(description: "the keymap has no key for a modifier that is needed")
        }
        // A borrowed key whose mapping is newer than the clients may know (not prepared, or
        // just before): wait until it has reached them, so nobody translates the press with
        // the keymap of before.
        spare.waitUntilSettled(borrowedKeycodes)

        // Modifier keys involved: the ones the user holds (released first) and the ones our
        // keys need. The XTEST device's own key state tells which holds are ours to restore.
        let chordKeys = Set(presses.flatMap { modifierKeys(for: $0.modifiers) })
        let heldKeys = held & Self.transientModifiers != 0 ? heldModifierKeys(Self.transientModifiers) : []
        let xtestDown = heldKeys.isEmpty && chordKeys.isEmpty ? nil : xtestKeysDown()
        func xtestHolds(_ keycode: UInt8) -> Bool {
            guard let xtestDown else { return false }
            return xtestDown[Int(keycode) / 8] & (1 << (keycode % 8)) != 0
        }
        let restore = heldKeys.filter(xtestHolds)
        for keycode in heldKeys { fake(keycode, down: false) }
        // A modifier the XTEST device holds while the user does not (it would swallow our
        // press as a repeat): let it go first.
        for keycode in chordKeys.sorted() where xtestHolds(keycode) && !heldKeys.contains(keycode) { fake(keycode, down: false) }
        for press in presses {
            let modifierKeys = modifierKeys(for: press.modifiers)
            for keycode in modifierKeys { fake(keycode, down: true) }
            fake(press.keycode, down: true)
            fake(press.keycode, down: false)
            for keycode in modifierKeys.reversed() { fake(keycode, down: false) }
        }
        for keycode in restore.reversed() { fake(keycode, down: true) }
        connection.flush()
        spare.pressed(borrowedKeycodes)
        return nil
    }

    /// One key per modifier in `mask`, as the core modifier map binds them.
    private func modifierKeys(for mask: UInt8) -> [UInt8] {
        (0..<8).compactMap { bit in mask & (1 << UInt8(bit)) != 0 ? keymap.modifierKeycodes[bit].first : nil }
    }

    /// The XTEST keyboard device's keys down (32 bytes, a bit per keycode), or `nil`.
    private func xtestKeysDown() -> [UInt8]? {
        guard let xtestKeyboard else { return nil }
        var keys = [UInt8](repeating: 0, count: 32)
        return hee_device_keys_down(connection.display, xtestKeyboard, &keys) != 0 ? keys : nil
    }

    private func fake(_ keycode: UInt8, down: Bool) {
        XTestFakeKeyEvent(connection.display, UInt32(keycode), down ? 1 : 0, 0 /* CurrentTime */)
    }

    /// Keys bound to a modifier in `mask` that are down now.
    private func heldModifierKeys(_ mask: UInt8) -> [UInt8] {
        guard let reply = xcb_query_keymap_reply(connection.xcb, xcb_query_keymap(connection.xcb), nil) else { return [] }
        let keys = withUnsafeBytes(of: reply.pointee.keys) { Array($0) }
        free(reply)
        var down: [UInt8] = []
        for bit in 0..<8 where mask & (1 << UInt8(bit)) != 0 {
            for keycode in keymap.modifierKeycodes[bit] where keys[Int(keycode) / 8] & (1 << (keycode % 8)) != 0 {
                down.append(keycode)
            }
        }
        return down
    }

    /// The keysyms a keystroke types, with the core modifier mask (Control, Mod1 for Alt) held
    /// with each. A shortcut's character is the keysym it types (Ctrl+C: Control with `c`,
    /// wherever the layout has it; an upper-case one adds the Shift its level needs).
    static func keysyms(of stroke: Keystroke) throws(Failure) -> [(UInt32, UInt8)] {
        func keysym(_ scalar: Unicode.Scalar) throws(Failure) -> UInt32 {
            let keysym = xkb_utf32_to_keysym(scalar.value)
            guard keysym != 0 else { throw Failure(description: "no keysym for U+\(String(scalar.value, radix: 16, uppercase: true))") }
            return keysym
        }
        let held = (stroke.modifiers.contains(.control) ? X11Keymap.controlMask : 0)
            | (stroke.modifiers.contains(.alt) ? X11Keymap.altMask : 0)
        switch stroke {
        case .text(let text):
            return try text.unicodeScalars.map { scalar throws(Failure) in (try keysym(scalar), 0) }
        case .key(let key, _):
            return [(xkb_keysym_from_name(key.rawValue, XKB_KEYSYM_NO_FLAGS), held)]
        case .shortcut(let character, _):
            return try character.unicodeScalars.map { scalar throws(Failure) in (try keysym(scalar), held) }
        }
    }

    /// A keysym's name for messages (`U3078`, `BackSpace`).
    static func name(of keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard xkb_keysym_get_name(keysym, &buffer, buffer.count) > 0 else { return "0x" + String(keysym, radix: 16) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
