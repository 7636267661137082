#if canImport(Glibc)
import Glibc
#endif

/// When borrowed keycodes may be pressed and changed again (issue 28, class 1): a press waits
/// until its keycode's new mapping has reached the clients (`settle`), and a keycode is given
/// to another character only once the clients have handled its last press (`reuseAfter`).
/// Real time (`ContinuousClock`), not the app's: what counts is how long the other clients
/// have had.
struct X11KeycodeTiming {
    /// How long after a mapping change (XChangeKeyboardMapping, then XSync: the server has
    /// sent every client its MappingNotify) a key on that keycode may be pressed. Chromium
    /// translates a key with the keymap it had when the press arrived: pressed sooner, the
    /// keycode types the character it held before, or nothing.
    ///
    /// Measured with bench/x11_keymap_lag.py on the 2-core test machine (Xvfb, openbox): a
    /// spare keycode remapped from one character to another (each keycode reused only 360 ms
    /// or more after its last press), XSync, D ms, the XTEST press. Characters wrong or lost
    /// of 144 (of 96 beside two busy processes):
    ///
    ///     D                 0    2    5   10   20 ms
    ///     Chromium 156      3    1    0    0    0
    ///     the same, loaded  0    1    2    0    0
    ///     Firefox ESR 153   0    0    0    0    0
    ///     GTK 3, Tk         0    0    0    0    0
    ///
    /// 20 ms: twice the shortest delay that never went wrong. Only a keystroke that could not
    /// be prepared waits for it (`waitUntilSettled`); a prepared key is older by then.
    static let settle: Duration = .milliseconds(20)

    /// How long after a press of a borrowed keycode it may be remapped to another character.
    /// GTK (Firefox's toolkit too) and Tk translate a key with the keymap of when they handle
    /// the press, so an application that handles it after the keycode was remapped types
    /// the new character in its place.
    ///
    /// Measured with bench/x11_keymap_lag.py: one keycode remapped for every character, the
    /// change G ms after the previous release, pressed 20 ms after the change; characters
    /// wrong or lost of 144 (96 loaded):
    ///
    ///     G                 0   20   50  100  200  400 ms
    ///     Chromium         25    0    0    0    0
    ///     Firefox          34    0    0    0    0
    ///     GTK 3            27    0    0    0    0
    ///     Tk               18    0    0    0    0
    ///     Chromium, loaded            0    0    0    0
    ///     Firefox, loaded             0    0    0    0
    ///
    /// and, beside two busy processes, Firefox typed 2 of 96 as the character their keycode got
    /// 90 ms after the press (three keycodes in turn, 30 ms apart). So: 500 ms, five times
    /// that. With about 20 spare keycodes given out least recently used first, only more
    /// than 20 new characters within half a second make a keystroke wait for it.
    static let reuseAfter: Duration = .milliseconds(500)

    /// Keycodes changed since the last `synced`.
    private var unsynced = Set<UInt8>()
    /// When each keycode's last change reached the server.
    private var mappedAt: [UInt8: ContinuousClock.Instant] = [:]
    /// When each keycode was last pressed.
    private var pressedAt: [UInt8: ContinuousClock.Instant] = [:]

    /// `keycode`'s mapping was changed (the request is not known to have reached the server).
    mutating func changed(_ keycode: UInt8) { unsynced.insert(keycode) }

    /// Whether there are changes the server may not have handled yet.
    var hasUnsyncedChanges: Bool { !unsynced.isEmpty }

    /// The server has handled every change so far (after XSync): `settle` runs from now.
    mutating func synced() {
        let now = ContinuousClock.now
        for keycode in unsynced { mappedAt[keycode] = now }
        unsynced = []
    }

    /// Blocks until `settle` has passed since the last change of each of `keycodes`.
    func waitUntilSettled(_ keycodes: [UInt8]) {
        guard let latest = keycodes.compactMap({ mappedAt[$0] }).max() else { return }
        Self.sleep(until: latest + Self.settle)
    }

    /// `keycodes` were pressed just now.
    mutating func pressed(_ keycodes: [UInt8]) {
        let now = ContinuousClock.now
        for keycode in keycodes { pressedAt[keycode] = now }
    }

    /// Whether `keycode` may get another character now: never pressed, or `reuseAfter` ago.
    func isReusable(_ keycode: UInt8) -> Bool {
        pressedAt[keycode].map { ContinuousClock.now - $0 >= Self.reuseAfter } ?? true
    }

    /// Of `keycodes`, the one that becomes reusable first.
    func firstReusable(of keycodes: [UInt8]) -> UInt8? {
        keycodes.min { (pressedAt[$0] ?? .now) < (pressedAt[$1] ?? .now) }
    }

    /// Blocks until `keycode` is reusable.
    func waitUntilReusable(_ keycode: UInt8) {
        guard let pressed = pressedAt[keycode] else { return }
        Self.sleep(until: pressed + Self.reuseAfter)
    }

    /// Blocks until `instant` (the loop waits: only a keystroke that could not be prepared).
    private static func sleep(until instant: ContinuousClock.Instant) {
        let remaining = instant - ContinuousClock.now
        guard remaining > .zero else { return }
        let (seconds, attoseconds) = remaining.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
    }
}
