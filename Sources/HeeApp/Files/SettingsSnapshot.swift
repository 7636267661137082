import Synchronization

/// The settings as the app would save them at this moment, kept up to date by the app
/// whenever the user changes one, for the one path that cannot return to the event loop to
/// save: the X server connection lost (Xlib's I/O error handler must not return).
///
/// Any thread may save it (Xlib calls its handler on the thread whose call found the
/// connection gone), at most once.
enum SettingsSnapshot {
    private static let state = Mutex<(store: SettingsStore?, saved: Bool)>((nil, false))

    /// Replaces the snapshot (`nil`: nothing to save, e.g. replays).
    static func publish(_ store: SettingsStore?) {
        state.withLock { $0.store = store }
    }

    /// Saves the snapshot now, once; later calls do nothing.
    static func saveOnce() {
        let store: SettingsStore? = state.withLock { s in
            if s.saved { return nil }
            s.saved = true
            return s.store
        }
        store?.save()
    }
}
