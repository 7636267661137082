#if canImport(Glibc)
import Glibc
#endif
import CX11

/// Characters the keymap has no key for (へ, ぇ, 〜 on most layouts) are typed on spare
/// keycodes — ones with no keysyms and no modifier — mapped to them for the moment of use
/// and given back afterwards, so `xmodmap -pke` reads the same before and after.
///
/// Why a mapping is held for a while, not undone right after each key (as xdotool 3.2016
/// does): an X client reads a changed mapping only when it handles the KeyPress (Xlib and
/// GTK fetch it lazily after MappingNotify), so a mapping undone before the target got to
/// the event makes it type the wrong character or nothing — the "wrong characters" reports
/// against xdotool (jordansissel/xdotool#10, #49, #414); and every change makes every client
/// fetch the keymap and the server recompile it — the "X server stalls" (#10, #125, #231).
/// So: one mapping change per character when it is first needed — ahead of the press where
/// the session said it may come (`X11KeystrokeSender.prepare`: the layer shown, a bubble's
/// choices, the key under a finger, 「へぇ〜」), so no change lands between a press and its
/// keys — kept while the keyboard is in use (the pointer on it, or a key typed within
/// `hold`), given back after that, and when this object goes (`deinit`, at exit). A burst of
/// 1,000 presses changes the keymap twice per character, not 2,000 times. A mapping someone
/// else replaced meanwhile (e.g. `setxkbmap`) is left alone.
///
/// A key is pressed only once its mapping has reached the clients, and a keycode is remapped
/// only once the clients have handled its last press (`X11KeycodeTiming`: Chromium translates
/// a key with the keymap it had when the press arrived, GTK and Tk with the one of when they
/// handle it).
///
/// (Seen here: under openbox, clicks that arrive while the window manager digests a keymap
/// change and the clicked client is busy are lost — another reason to change the keymap
/// before the clicks, not during them.)
final class X11SpareKeycodes {
    /// How long a borrowed keycode stays mapped after it was last typed.
    static let hold: Duration = .seconds(2)

    /// A borrowed keycode and what it holds: `[lower, upper]` for a letter with two cases,
    /// `[keysym]` otherwise.
    private struct Loan {
        var keycode: UInt8
        var keysyms: [UInt32]
    }

    private let connection: X11Connection
    /// Loans by keysym (both cases of a letter point at the same loan).
    private var loans: [UInt32: Loan] = [:]
    private var lastUse: Duration = .zero
    /// When each keycode we lent was last used — typed, prepared, lent or given back — as a
    /// count of uses (the order is what matters, and several uses share one app time).
    private var keycodeUse: [UInt8: UInt64] = [:]
    private var uses: UInt64 = 0
    /// The first use of the keystroke or preparation under way (`startUse`): loans used since
    /// are not taken back for another character of it.
    private var useFloor: UInt64 = 0
    /// When our changes reached the server and our keys were pressed.
    private var timing = X11KeycodeTiming()
    /// The keycode each character was last lent on. A keycode that held another character
    /// before is a risk: Tk (Xlib's keymap cache) was seen typing the character a keycode
    /// held before, when it was changed just before the key (fresh keycodes never did, in
    /// the same test). So a character goes back to its old keycode, and a new one to a
    /// keycode never lent, or lent longest ago.
    private var lastKeycode: [UInt32: UInt8] = [:]
    /// The pointer is on the keyboard: the loans stay.
    private var inUse = false
    /// Someone else changed the keymap since the loans were checked: they may be gone.
    private var mayBeReplaced = false

    /// Nothing borrowed yet; keycodes are borrowed on `connection` (SDL's) when needed.
    init(connection: X11Connection) {
        self.connection = connection
    }

    /// The keymap is the X server's, shared by every client: the borrowed keycodes go back
    /// with their owner, however the app ends (`Application.run` releases system mode when
    /// its loop ends, also by an error).
    deinit { returnAll() }

    /// When the loans are due back, if any.
    var deadline: Duration? { loans.isEmpty || inUse ? nil : lastUse + Self.hold }

    /// The pointer came onto the keyboard (`true`) or left it (`false`) at `now`: loans are
    /// kept while it is there and for `hold` after it left.
    func setInUse(_ flag: Bool, at now: Duration) {
        inUse = flag
        lastUse = max(lastUse, now)
    }

    /// A keystroke or a preparation begins at `now`: the loans it uses from here on are not
    /// taken back for another of its characters, and the hold runs from `now`.
    func startUse(at now: Duration) {
        useFloor = uses + 1
        lastUse = max(lastUse, now)
    }

    /// The keycode that types `keysym` and whether Shift selects it (the upper case of a
    /// pair) — borrowing a spare keycode for it when needed (the change goes out with the next
    /// flush; `sync` makes sure it reached the server). When none is free (a layout leaves
    /// about 20; Japanese text needs one per kana and kanji it types), the loan used least
    /// recently, and not since `startUse` (the keystroke or preparation being made), is taken
    /// back for it — one pressed `X11KeycodeTiming.reuseAfter` ago or longer; when every such loan was pressed
    /// more recently, it waits for the oldest (`waiting`: a keystroke) or gives up. `nil`
    /// when there is none.
    func key(for keysym: UInt32, keymap: X11Keymap, waiting: Bool) -> (keycode: UInt8, upper: Bool)? {
        if mayBeReplaced { forgetReplacedLoans() }
        if let loan = loans[keysym] {
            use(loan.keycode)
            return (loan.keycode, loan.keysyms.count == 2 && loan.keysyms[1] == keysym)
        }
        guard let keycode = spareKeycode(keymap: keymap, for: keysym) ?? reclaimLeastRecent(waiting: waiting) else { return nil }
        use(keycode)
        lastKeycode[keysym] = keycode
        let keysyms = Self.casePair(keysym) ?? [keysym]
        var mapping: [KeySym] = keysyms.map { KeySym($0) }
        if mapping.count == 1 { mapping.append(0) }
        XChangeKeyboardMapping(connection.display, Int32(keycode), 2, &mapping, 1)
        changedByUs.insert(keycode)
        timing.changed(keycode)
        let loan = Loan(keycode: keycode, keysyms: keysyms)
        for symbol in keysyms { loans[symbol] = loan }
        return (keycode, keysyms.count == 2 && keysyms[1] == keysym)
    }

    /// Marks `keycode` used now (the latest of all).
    func use(_ keycode: UInt8) {
        uses += 1
        keycodeUse[keycode] = uses
    }

    /// The loan of `keysym`, if it has one.
    func loanedKeycode(for keysym: UInt32) -> UInt8? { loans[keysym]?.keycode }

    /// Takes back the loan used least recently, not since `startUse` and not pressed within
    /// `X11KeycodeTiming.reuseAfter`, for another character (`waiting`: after waiting for the
    /// one pressed longest ago, if every loan was pressed within it); returns its keycode.
    private func reclaimLeastRecent(waiting: Bool) -> UInt8? {
        let lent = Set(loans.values.map(\.keycode))
        let candidates = lent.filter { (keycodeUse[$0] ?? 0) < useFloor }.sorted { (keycodeUse[$0] ?? 0, $0) < (keycodeUse[$1] ?? 0, $1) }
        var chosen = candidates.first(where: timing.isReusable)
        if chosen == nil, waiting, let first = timing.firstReusable(of: candidates) {
            timing.waitUntilReusable(first)
            chosen = first
        }
        guard let chosen else { return nil }
        loans = loans.filter { $0.value.keycode != chosen }
        return chosen
    }

    /// `keycodes` were pressed just now (for `X11KeycodeTiming.reuseAfter`).
    func pressed(_ keycodes: [UInt8]) { timing.pressed(keycodes) }

    /// Sends the mapping changes made since the last call and waits until the server has
    /// handled them (XSync: one round trip, only when there were changes); from then on
    /// `X11KeycodeTiming.settle` runs for those keycodes.
    func sync() {
        guard timing.hasUnsyncedChanges else { return }
        XSync(connection.display, 0)
        timing.synced()
    }

    /// Waits until the mappings of `keycodes` have reached the clients (`sync`, then
    /// `X11KeycodeTiming.settle` after their last change). A keystroke the session could
    /// not announce in time pays this, at most `settle`; one prepared earlier waits for
    /// nothing.
    func waitUntilSettled(_ keycodes: [UInt8]) {
        sync()
        timing.waitUntilSettled(keycodes)
    }

    /// Whether `keycode` is lent for another character than `keysym`: a keymap read while it
    /// held an earlier loan would name it for that one.
    func lends(_ keycode: UInt8, forOtherThan keysym: UInt32) -> Bool {
        loans.values.contains { $0.keycode == keycode } && loans[keysym]?.keycode != keycode
    }

    /// Keycodes we have changed since someone else last changed the keymap.
    private var changedByUs = Set<UInt8>()

    /// Whether a MappingNotify for `count` keycodes from `first` only reports changes of
    /// ours. (The server sends one per keyboard device, so several come for each change.)
    func isOwnChange(first: Int, count: Int) -> Bool {
        guard count > 0, first >= 0, first + count <= 256 else { return false }
        return (first..<(first + count)).allSatisfy { changedByUs.contains(UInt8($0)) }
    }

    /// Someone else changed the keymap (`setxkbmap` replaces every key): the loans are
    /// checked before their next use.
    func keymapChanged() {
        mayBeReplaced = !loans.isEmpty
        changedByUs = Set(loans.values.map(\.keycode))
    }

    /// Forgets the loans whose keycodes no longer hold what we put there.
    private func forgetReplacedLoans() {
        mayBeReplaced = false
        let kept = stillHeld()
        loans = loans.filter { kept.contains($0.value.keycode) }
    }

    /// The lent keycodes that still hold what we put there (one read of the mapping).
    private func stillHeld() -> Set<UInt8> {
        let keycodes = Set(loans.values.map(\.keycode)).sorted()
        guard let first = keycodes.first, let last = keycodes.last,
              let current = mapping(from: first, count: Int(last - first) + 1) else { return [] }
        var held = Set<UInt8>()
        for loan in loans.values {
            let offset = Int(loan.keycode - first)
            guard offset < current.count else { continue }
            // (XKB reports a key's first group again in the second group's columns.)
            let symbols = current[offset].filter { $0 != 0 }
            if current[offset].first == loan.keysyms.first, symbols.allSatisfy(loan.keysyms.contains) { held.insert(loan.keycode) }
        }
        return held
    }

    /// Gives the loans back when `hold` has passed since the last use. Returns whether it did.
    @discardableResult
    func returnIfIdle(at now: Duration) -> Bool {
        guard let deadline, now >= deadline else { return false }
        returnAll()
        return true
    }

    /// Gives every loan back: each keycode that still holds what we put there is emptied
    /// again (one read of the mapping, one change per keycode); a keycode someone else
    /// remapped meanwhile (`setxkbmap`) is theirs now and left alone.
    func returnAll() {
        guard !loans.isEmpty else { return }
        for keycode in stillHeld().sorted() {
            var empty: [KeySym] = [0]
            XChangeKeyboardMapping(connection.display, Int32(keycode), 1, &empty, 1)
            use(keycode)
            timing.changed(keycode)
        }
        loans = [:]
        mayBeReplaced = false
        // A keycode lent again right after has to settle from this change too.
        sync()
    }

    /// A keycode with no keysyms that is not a modifier and not lent already, for `keysym`:
    /// the one it had before if that is free, else one never lent (the highest), else the one
    /// last used longest ago.
    private func spareKeycode(keymap: X11Keymap, for keysym: UInt32) -> UInt8? {
        let range = keymap.keycodeRange
        guard let all = mapping(from: range.lowerBound, count: Int(range.upperBound - range.lowerBound) + 1) else { return nil }
        let modifiers = Set(keymap.modifierKeycodes.joined())
        let lent = Set(loans.values.map(\.keycode))
        let free = all.indices.reversed().map { range.lowerBound + UInt8($0) }.filter { keycode in
            all[Int(keycode - range.lowerBound)].allSatisfy { $0 == 0 } && !modifiers.contains(keycode) && !lent.contains(keycode)
        }
        // Its own keycode of before, else one never lent (highest first), else the one given
        // back longest ago.
        if let own = lastKeycode[keysym], free.contains(own) { return own }
        return free.first { keycodeUse[$0] == nil } ?? free.min { (keycodeUse[$0]!, $0) < (keycodeUse[$1]!, $1) }
    }

    /// The core keyboard mapping of `count` keycodes from `first`: each keycode's keysyms.
    private func mapping(from first: UInt8, count: Int) -> [[UInt32]]? {
        let cookie = xcb_get_keyboard_mapping(connection.xcb, first, UInt8(count))
        guard let reply = xcb_get_keyboard_mapping_reply(connection.xcb, cookie, nil) else { return nil }
        defer { free(reply) }
        let perKeycode = Int(reply.pointee.keysyms_per_keycode)
        guard perKeycode > 0, let syms = xcb_get_keyboard_mapping_keysyms(reply) else { return Array(repeating: [], count: count) }
        let total = Int(xcb_get_keyboard_mapping_keysyms_length(reply))
        return (0..<count).map { k in
            (0..<perKeycode).compactMap { i in k * perKeycode + i < total ? syms[k * perKeycode + i] : nil }
        }
    }

    /// `[lower, upper]` when `keysym` is a letter with two cases (so the key behaves like the
    /// layout's letter keys under Shift and Caps Lock), else `nil`.
    static func casePair(_ keysym: UInt32) -> [UInt32]? {
        let code = xkb_keysym_to_utf32(keysym)
        guard code != 0, let scalar = Unicode.Scalar(code) else { return nil }
        let lower = String(scalar).lowercased().unicodeScalars, upper = String(scalar).uppercased().unicodeScalars
        guard lower.count == 1, upper.count == 1, let l = lower.first, let u = upper.first, l != u else { return nil }
        let lowerSym = xkb_utf32_to_keysym(l.value), upperSym = xkb_utf32_to_keysym(u.value)
        guard lowerSym != 0, upperSym != 0 else { return nil }
        return [lowerSym, upperSym]
    }
}
