#if canImport(Glibc)
import Glibc
#endif
import CWaylandProtocols
// libxkbcommon (CX11 links and imports it).
import CX11
import KeyboardCore

/// Types `Keystroke`s into the application that has the seat's keyboard focus, on a
/// compositor with `zwp_virtual_keyboard_v1` (and, where it offers one, `zwp_input_method_v2`).
///
/// Text goes through the input method while the focused application has a text input active
/// (GTK, Qt with text-input-v3): exactly its characters, whatever the layout. Keys that are
/// not text (BackSpace, Return, arrows, Ctrl combinations), and everything when no text input
/// is active (XWayland applications) or the active one is a terminal's (content purpose
/// `terminal`, foot: see `WaylandInputMethod.takesText`), go through the virtual keyboard,
/// with the keymap of `WaylandKeymap`.
///
/// After text committed through the input method, the next keystroke waits for the input
/// method's next `done`: the application answers our text with a commit of its own (its new
/// cursor or surrounding text), and a strict client (foot 1.13) drops text whose `done`
/// carries a serial older than its last commit, which happens when our next text reaches the
/// compositor before that answer. Keystrokes queue meanwhile, in order (a BackSpace never
/// overtakes text); a client that never answers is waited for at most `answerWait`.
///
/// The virtual keyboard and its keymap are made by `start()`, after the keyboard's first
/// frame is on the screen: compiling the seat's layout and ours took about 20 ms here, and
/// the compositor compiles the keymap we send before it answers anything else of ours.
final class WaylandKeystrokeSender: KeySender {
    /// The longest wait for the application's answer to committed text.
    static let answerWait: Duration = .milliseconds(100)
    typealias Failure = KeySendFailure

    /// Which way a keystroke went (for the trace).
    enum Path: String {
        case inputMethod = "input-method"
        case virtualKeyboard = "virtual-keyboard"
    }

    /// The keymap and the virtual keyboard, once `start()` made them.
    private var typing: (keymap: WaylandKeymap, keyboard: WaylandVirtualKeyboard)?
    /// What `start()` needs: the seat, its manager, the seat's layout, and the characters to
    /// have keys for from the start.
    private let seat: WaylandObject
    private let keyboardManager: WaylandObject
    private let seatKeymap: String?
    private var readyKeysyms: [UInt32]
    /// Why `start()` failed, if it did (every keystroke then reports it).
    private var startFailure: Failure?
    /// `nil` when the compositor has no input-method-v2.
    let inputMethod: WaylandInputMethod?
    private let connection: WaylandConnection
    /// Keystrokes waiting for the application's answer, with their timestamps.
    private var queue: [(stroke: Keystroke, time: UInt32)] = []
    /// Since when we wait for the answer to committed text, if we do.
    private var waitingSince: Duration?

    /// A sender on `seat`, with the seat's layout (`seatKeymap`, XKB text, if the seat has a
    /// keyboard) and keys for `readyText`'s characters in its first keymap once started; the
    /// seat's input method at once, when the compositor has `inputMethodManager`.
    init(connection: WaylandConnection, seat: WaylandObject, keyboardManager: WaylandObject, inputMethodManager: WaylandObject?,
         seatKeymap: String?, readyText: String) {
        self.connection = connection
        self.seat = seat
        self.keyboardManager = keyboardManager
        self.seatKeymap = seatKeymap
        readyKeysyms = Self.keysyms(of: readyText)
        inputMethod = inputMethodManager.flatMap { WaylandInputMethod(manager: $0, seat: seat) }
        connection.flush()
    }

    /// Makes the keymap and the virtual keyboard (once; again after a failure).
    /// - Throws: `Failure` when the keymap cannot be made or sent.
    func start() throws(Failure) {
        guard typing == nil else { return }
        do {
            let keymap = try WaylandKeymap(seatKeymap: seatKeymap)
            _ = keymap.prepare(readyKeysyms)
            typing = (keymap, try WaylandVirtualKeyboard(manager: keyboardManager, seat: seat, keymap: keymap))
            startFailure = nil
        } catch {
            let failure = Failure(description: error.description)
            startFailure = failure
            throw failure
        }
        connection.flush()
    }

    /// The input method's `done`: the application has answered; queued keystrokes go.
    func inputMethodDone() {
        waitingSince = nil
        sendQueued(at: nil)
    }

    /// When the wait for an answer ends, if one is awaited.
    var deadline: Duration? { queue.isEmpty ? nil : waitingSince.map { $0 + Self.answerWait } }

    /// Sends what waited for an answer that did not come by `now`.
    func tick(at now: Duration) {
        guard let since = waitingSince, now >= since + Self.answerWait else { return }
        waitingSince = nil
        sendQueued(at: now)
    }

    /// The seat's keymap arrived or changed (the user switched layouts).
    func seatKeymapChanged(_ text: String) {
        guard let (keymap, keyboard) = typing, !keymap.isOwn(text), keymap.seatLayoutChanged(to: text) else { return }
        try? keyboard.sendKeymapIfChanged()
        connection.flush()
    }

    /// Gives every character of `text` a key ahead of time, so its first press sends no
    /// keymap.
    func prepare(_ text: String, at now: Duration) {
        guard let (keymap, keyboard) = typing else {
            readyKeysyms += Self.keysyms(of: text)
            return
        }
        if keymap.prepare(Self.keysyms(of: text)) {
            try? keyboard.sendKeymapIfChanged()
            connection.flush()
        }
    }

    /// The keysyms of `text`'s characters that have one.
    private static func keysyms(of text: String) -> [UInt32] {
        text.unicodeScalars.map { xkb_utf32_to_keysym($0.value) }.filter { $0 != 0 }
    }

    /// Types `stroke` (at once, or after the keystrokes before it, see the type's comment);
    /// `now` is the app's clock (its milliseconds are the key events' timestamps).
    /// - Returns: the way it goes (`input-method`, `virtual-keyboard`).
    /// - Throws: `Failure` when a character has no keysym.
    @discardableResult
    func send(_ stroke: Keystroke, at now: Duration) throws(Failure) -> String? {
        let time = UInt32(truncatingIfNeeded: Int64((now.seconds * 1000).rounded(.down)))
        if case .text(let text) = stroke {
            for scalar in text.unicodeScalars where xkb_utf32_to_keysym(scalar.value) == 0 {
                throw Failure(description: "no keysym for U+\(String(scalar.value, radix: 16, uppercase: true))")
            }
        }
        try start()
        lastNow = now
        queue.append((stroke, time))
        let path: Path = if case .text = stroke, inputMethod?.takesText == true { .inputMethod } else { .virtualKeyboard }
        sendQueued(at: now)
        return path.rawValue
    }

    /// Sends queued keystrokes until one is committed text (then waits for the answer).
    private func sendQueued(at now: Duration?) {
        let before = queue.count
        defer {
            if queue.count < before { awaitArrival(since: now ?? lastNow) }
            connection.flush()
        }
        while waitingSince == nil, !queue.isEmpty {
            let (stroke, time) = queue.removeFirst()
            if case .text(let text) = stroke, let inputMethod, inputMethod.takesText {
                // commit_string takes at most 4000 bytes: longer text goes in turns.
                let (head, rest) = Self.split(text, maxBytes: WaylandInputMethod.maximumCommitBytes)
                if !rest.isEmpty { queue.insert((.text(rest), time), at: 0) }
                inputMethod.commit(head)
                waitingSince = now ?? lastNow
                connection.flush()
                continue
            }
            do {
                try type(stroke, time: time)
            } catch {
                Console.error("\(Console.program): --system: \(stroke) not typed: \(error)")
            }
            connection.flush()  // each keystroke's requests fit libwayland's buffer
        }
    }

    /// Since when keystrokes sent have not been confirmed as handled by the compositor (a
    /// `wl_display.sync` follows every batch), if any are in flight.
    private(set) var inFlightSince: Duration?
    private var inFlight = 0

    /// Asks the compositor to confirm the keystrokes just sent.
    private func awaitArrival(since now: Duration) {
        let asked = connection.sync { [weak self] in
            guard let self else { return }
            inFlight -= 1
            if inFlight == 0 { inFlightSince = nil }
        }
        guard asked else { return }
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

    /// The app's clock at the last `send`/`tick` (for a wait that starts in `inputMethodDone`).
    private var lastNow: Duration = .zero

    /// Types `stroke` through the virtual keyboard.
    private func type(_ stroke: Keystroke, time: UInt32) throws(Failure) {
        guard let (keymap, keyboard) = typing else { throw startFailure ?? Failure(description: "the virtual keyboard is not made") }
        func keysym(_ scalar: Unicode.Scalar) throws(Failure) -> UInt32 {
            let keysym = xkb_utf32_to_keysym(scalar.value)
            guard keysym != 0 else { throw Failure(description: "no keysym for U+\(String(scalar.value, radix: 16, uppercase: true))") }
            return keysym
        }
        // Control and Alt held with a key (the desktop row's modifiers), by their masks.
        let held = (stroke.modifiers.contains(.control) ? keymap.controlMask : 0)
            | (stroke.modifiers.contains(.alt) ? keymap.altMask : 0)
        let units: [(keysym: UInt32, held: UInt32)]
        switch stroke {
        case .text(let text):
            units = try text.unicodeScalars.map { scalar throws(Failure) in (try keysym(scalar), 0) }
        case .key(let key, _):
            units = [(xkb_keysym_from_name(key.rawValue, XKB_KEYSYM_NO_FLAGS), held)]
        case .shortcut(let character, _):
            units = try character.unicodeScalars.map { scalar throws(Failure) in (try keysym(scalar), held) }
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
            if changed {
                // Keys found before the keymap grew keep their keycodes: extra keys only
                // take free ones or their own.
                try keyboard.sendKeymapIfChanged()
            }
        } catch {
            throw Failure(description: error.description)
        }
        for found in strokes { keyboard.tap(found, time: time) }
        keyboard.releaseModifiers()
    }
}
