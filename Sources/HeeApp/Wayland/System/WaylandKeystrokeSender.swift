#if canImport(Glibc)
import Glibc
#endif
import AppModel
import CWaylandProtocols
// libxkbcommon (CX11 links and imports it).
import CX11
import KeyboardCore

/// Types `Keystroke`s into the application that has the seat's keyboard focus, on a
/// compositor with `zwp_virtual_keyboard_v1` (and, where it offers one, `zwp_input_method_v2`).
///
/// Text goes through the input method while the focused application has a text input active
/// (GTK, Qt with text-input-v3): exactly its characters, whatever the layout; so does
/// BackSpace (`delete_surrounding_text`) where the field reports its text and nothing is
/// selected. Keys that are not text (Return, arrows, Ctrl combinations, other BackSpaces),
/// and everything when no text input
/// is active (XWayland applications) or the active one is a terminal's (content purpose
/// `terminal`, foot: see `WaylandInputMethod.takesText`), go through the virtual keyboard,
/// with the keymap of `WaylandKeymap`.
///
/// Keystrokes queue, in order, and `KeystrokeOrder` says when the next may go: after text,
/// when the application has answered it (a strict client, foot 1.13, drops text whose `done`
/// is older than its last commit; GTK and Firefox apply text before keys queued earlier);
/// after a key into a text field, text waits for the key's answer; just after the virtual
/// keyboard joined the seat, text waits for the focused window to enable its text input again.
///
/// The compositor may put another keymap on our virtual keyboard at any time (sway does on
/// `input … xkb_layout`, on `reload`): the seat's keymaps are watched for the whole run
/// (`seatKeymapChanged`), and after any that is not ours, ours is sent again before the next
/// key; a whole layout among them becomes our keymap's base (the user's new layout).
///
/// The virtual keyboard joins the seat when this is made, before the keyboard's first frame;
/// its keymap is made by `start()`, after that frame: compiling the seat's layout and ours
/// took about 20 ms here, and the compositor compiles the keymap we send before it answers
/// anything else of ours.
final class WaylandKeystrokeSender: KeySender {
    typealias Failure = KeySendFailure

    /// Which way a keystroke went (for the trace).
    enum Path: String {
        case inputMethod = "input-method"
        case virtualKeyboard = "virtual-keyboard"
    }

    /// The virtual keyboard, on the seat from the start (`nil` if the compositor made none).
    private let keyboard: WaylandVirtualKeyboard?
    /// The keymap, once `start()` made it.
    private var keymap: WaylandKeymap?
    /// The seat's keymaps seen before `start()` (newest last): the newest whole layout is the
    /// base.
    private var seatKeymaps: [String] = []
    /// Whether the compositor may have put another keymap on our keyboard since we sent ours.
    private var keymapInDoubt = false
    /// Characters to have keys for in the first keymap.
    private var readyKeysyms: [UInt32]
    /// Why `start()` failed, if it did (every keystroke then reports it).
    private var startFailure: Failure?
    /// `nil` when the compositor has no input-method-v2.
    let inputMethod: WaylandInputMethod?
    private let connection: WaylandConnection
    /// Keystrokes waiting their turn, with their timestamps.
    private var queue: [(stroke: Keystroke, time: UInt32)] = []
    /// When the next keystroke may go.
    private var order = KeystrokeOrder()
    /// The app's clock as of the last call that gave it.
    var now: Duration = .zero

    /// A sender on `seat`: its virtual keyboard joins the seat now (`joinedAt`: the app's
    /// clock), with keys for `readyText`'s characters in its first keymap once started; the
    /// seat's input method at once, when the compositor has `inputMethodManager`.
    init(connection: WaylandConnection, seat: WaylandObject, keyboardManager: WaylandObject, inputMethodManager: WaylandObject?,
         readyText: String, joinedAt: Duration) {
        self.connection = connection
        readyKeysyms = Self.keysyms(of: readyText)
        do throws(WaylandKeymap.Failure) {
            keyboard = try WaylandVirtualKeyboard(manager: keyboardManager, seat: seat)
        } catch {
            keyboard = nil
            startFailure = Failure(description: error.description)
        }
        order.virtualKeyboardJoined(at: joinedAt)
        now = joinedAt
        inputMethod = inputMethodManager.flatMap { WaylandInputMethod(manager: $0, seat: seat) }
        connection.flush()
    }

    /// Makes the keymap and sends it (once; again after a failure).
    /// - Throws: `Failure` when the keymap cannot be made or sent.
    func start() throws(Failure) {
        guard keymap == nil else { return }
        guard let keyboard else { throw startFailure ?? Failure(description: "the compositor did not make a virtual keyboard") }
        do {
            let keymap = try WaylandKeymap(seatKeymaps: seatKeymaps)
            _ = keymap.prepare(readyKeysyms)
            try keyboard.use(keymap)
            self.keymap = keymap
            startFailure = nil
        } catch {
            let failure = Failure(description: error.description)
            startFailure = failure
            throw failure
        }
        connection.flush()
    }

    /// The input method's `done`: the application may have answered; queued keystrokes go.
    func inputMethodDone() {
        if let inputMethod { order.inputMethodDone(active: inputMethod.isActive, surrounding: inputMethod.surrounding) }
        sendQueued()
    }

    /// When the wait for an answer ends or the field is asked for its state, if keystrokes
    /// wait.
    var deadline: Duration? { queue.isEmpty ? nil : order.deadline }

    /// Whether keystrokes wait in the queue or a virtual-keyboard keystroke is on its way.
    var hasQueuedKeystrokes: Bool { !queue.isEmpty || check.pending != nil }

    /// Sends what waited for an answer that did not come by `now`.
    func tick(at now: Duration) {
        self.now = max(self.now, now)
        order.expire(at: now)
        sendQueued()
    }

    /// A keymap the seat's keyboard gave its clients (on every change of the seat's active
    /// keyboard or of its keymap): ours, another keyboard's, or one the compositor put on ours.
    func seatKeymapChanged(_ text: String) {
        guard let keymap else {
            seatKeymaps.removeAll { $0 == text }
            seatKeymaps = Array((seatKeymaps + [text]).suffix(3))
            return
        }
        let own = keymap.isOwn(text)
        check.keymapSeen(text, own: own)
        guard !own else { return }
        keymapInDoubt = true
        _ = keymap.seatLayoutChanged(to: text)
    }

    /// Gives every character of `text` a key ahead of time, so its first press sends no
    /// keymap.
    func prepare(_ text: String, at now: Duration) {
        guard let keymap, let keyboard else {
            readyKeysyms += Self.keysyms(of: text)
            return
        }
        if keymap.prepare(Self.keysyms(of: text)) {
            try? keyboard.sendKeymap(force: keymapInDoubt)
            keymapInDoubt = false
            connection.flush()
        }
    }

    /// The keysyms of `text`'s characters that have one.
    private static func keysyms(of text: String) -> [UInt32] {
        text.unicodeScalars.map { xkb_utf32_to_keysym($0.value) }.filter { $0 != 0 }
    }

    /// Types `stroke` (at once, or after the keystrokes before it, see the type's comment);
    /// `now` is the app's clock (its milliseconds are the key events' timestamps).
    /// - Returns: the way it goes as things stand (`input-method`, `virtual-keyboard`).
    /// - Throws: `Failure` when a character has no keysym.
    @discardableResult
    func send(_ stroke: Keystroke, at now: Duration) throws(Failure) -> String? {
        self.now = max(self.now, now)
        let time = UInt32(truncatingIfNeeded: Int64((now.seconds * 1000).rounded(.down)))
        if case .text(let text) = stroke {
            for scalar in text.unicodeScalars where xkb_utf32_to_keysym(scalar.value) == 0 {
                throw Failure(description: "no keysym for U+\(String(scalar.value, radix: 16, uppercase: true))")
            }
        }
        try start()
        queue.append((stroke, time))
        let path: Path = way(of: stroke) == .inputMethod ? .inputMethod : .virtualKeyboard
        sendQueued()
        return path.rawValue
    }

    /// The way `stroke` goes now: text to an active text input that takes it through the
    /// input method, everything else through the virtual keyboard.
    private func way(of stroke: Keystroke) -> KeystrokeOrder.Way {
        switch stroke {
        case .text where inputMethod?.takesText == true: .inputMethod
        // BackSpace as delete_surrounding_text where the field reports its text (see KeystrokeOrder).
        case .key(.backSpace, let modifiers) where modifiers.isEmpty && order.stateIsCurrent && inputMethod?.characterBeforeCursor != nil:
            .inputMethod
        default: .virtualKeyboard
        }
    }

    /// Sends queued keystrokes while `order` lets them go and no virtual-keyboard keystroke
    /// is on its way (`check`).
    private func sendQueued() {
        let before = queue.count
        defer {
            if queue.count < before { awaitArrival() }
            connection.flush()
        }
        if order.shouldAsk(at: now), let inputMethod, inputMethod.isActive {
            inputMethod.requestState()
            order.asked(at: now)
        }
        while check.pending == nil, let (stroke, time) = queue.first {
            let way = way(of: stroke)
            guard order.mayGo(way, at: now) else { break }
            queue.removeFirst()
            if case .text(var text) = stroke, way == .inputMethod, let inputMethod {
                // Text queued behind a wait goes as one commit: each commit waits for its
                // answer (Firefox: 50 ms), taps come faster.
                while case .text(let next)? = queue.first?.stroke {
                    text += next
                    queue.removeFirst()
                }
                // commit_string takes at most 4000 bytes: longer text goes in turns.
                let (head, rest) = Self.split(text, maxBytes: WaylandInputMethod.maximumCommitBytes)
                if !rest.isEmpty { queue.insert((.text(rest), time), at: 0) }
                inputMethod.commit(head)
                order.sentText(head, at: now)
            } else if case .key(.backSpace, _) = stroke, way == .inputMethod, let inputMethod,
                      let bytes = inputMethod.characterBeforeCursor {
                inputMethod.deleteBeforeCursor(bytes: bytes)
                order.sentDeletion(at: now)
            } else {
                do {
                    check.sent(stroke, units: try type(stroke, time: time), time: time)
                } catch {
                    Console.error("\(Console.program): --system: \(stroke) not typed: \(error)")
                }
                // Answered unless a terminal reads it or the input method is not ours.
                let answered = inputMethod.map { !$0.isUnavailable && !($0.isActive && !$0.takesText) } ?? false
                order.sentKey(at: now, answered: answered)
            }
            connection.flush()  // each keystroke's requests fit libwayland's buffer
        }
    }

    /// Since when keystrokes sent have not been confirmed as handled by the compositor (a
    /// `wl_display.sync` follows every batch), if any are in flight.
    private(set) var inFlightSince: Duration?
    private var inFlight = 0
    /// The virtual-keyboard keystroke on its way and the keymap it is read with.
    private let check = WaylandKeystrokeCheck()

    /// Asks the compositor to confirm the keystrokes just sent; once it has, a keystroke read
    /// with a keymap not ours goes again where it typed nothing (see `WaylandKeystrokeCheck`).
    private func awaitArrival() {
        let asked = connection.sync { [weak self] in
            guard let self else { return }
            inFlight -= 1
            if inFlight == 0 { inFlightSince = nil }
            guard check.pending != nil else { return }
            let time = check.pending?.time ?? 0
            let (again, wrong) = check.confirmed(with: keymap)
            if !wrong.isEmpty {
                Console.error("\(Console.program): --system: the compositor changed the virtual keyboard's keymap while "
                              + "keys were on their way: typed \(wrong.joined(separator: ", "))")
            }
            if let again { queue.insert((again, time), at: 0) }
            sendQueued()
        }
        guard asked else {
            check.confirmed(with: nil)
            return
        }
        inFlight += 1
        if inFlightSince == nil { inFlightSince = now }
    }

    /// `text` cut after the last whole character that fits in `maxBytes` of UTF-8 (at least
    /// one character), and the rest.
    static func split(_ text: String, maxBytes: Int) -> (head: String, rest: String) {
        var bytes = 0
        var end = text.startIndex
        while end < text.endIndex {
            let next = text.index(after: end)
            bytes += text[end..<next].utf8.count
            if bytes > maxBytes && end > text.startIndex { break }
            end = next
        }
        return (String(text[..<end]), String(text[end...]))
    }

    /// Types `stroke` through the virtual keyboard; returns its keys.
    private func type(_ stroke: Keystroke, time: UInt32) throws(Failure) -> [WaylandKeystrokeCheck.Unit] {
        guard let keymap, let keyboard else { throw startFailure ?? Failure(description: "the virtual keyboard is not made") }
        func keysym(_ scalar: Unicode.Scalar) throws(Failure) -> UInt32 {
            let keysym = xkb_utf32_to_keysym(scalar.value)
            guard keysym != 0 else { throw Failure(description: "no keysym for U+\(String(scalar.value, radix: 16, uppercase: true))") }
            return keysym
        }
        // Control and Alt held with a key (the desktop row's modifiers), by their masks.
        let held = (stroke.modifiers.contains(.control) ? keymap.controlMask : 0)
            | (stroke.modifiers.contains(.alt) ? keymap.altMask : 0)
        let units: [(keysym: UInt32, held: UInt32, character: Unicode.Scalar?)]
        switch stroke {
        case .text(let text):
            units = try text.unicodeScalars.map { scalar throws(Failure) in (try keysym(scalar), 0, scalar) }
        case .key(let key, _):
            units = [(xkb_keysym_from_name(key.rawValue, XKB_KEYSYM_NO_FLAGS), held, nil)]
        case .shortcut(let character, _):
            units = try character.unicodeScalars.map { scalar throws(Failure) in (try keysym(scalar), held, nil) }
        }
        // Every key first (a keymap that grows is sent once, before the keys that need it).
        var strokes: [WaylandKeymap.Stroke] = []
        var changed = false
        do {
            for unit in units {
                var (found, grew) = try keymap.stroke(for: unit.keysym)
                found.modifiers |= unit.held
                strokes.append(found)
                changed = changed || grew
            }
            if changed || keymapInDoubt {
                // Keys found before the keymap grew keep their keycodes: extra keys only
                // take free ones or their own.
                try keyboard.sendKeymap(force: keymapInDoubt)
                keymapInDoubt = false
            }
        } catch {
            throw Failure(description: error.description)
        }
        for found in strokes { keyboard.tap(found, time: time) }
        if strokes.contains(where: { $0.modifiers != 0 }) { keyboard.releaseModifiers() }
        return zip(strokes, units).map { WaylandKeystrokeCheck.Unit(stroke: $0, keysym: $1.keysym, character: $1.character) }
    }
}
