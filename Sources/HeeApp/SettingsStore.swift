import KeyboardCore

/// The saved settings and the file they live in.
struct SettingsStore: Sendable {
    let file: SettingsFile
    /// This run's saved settings: what was loaded, with the user's changes in the app.
    var settings: Settings
    /// What the file held at launch (the defaults when there was no usable file).
    let loaded: Settings
    /// The file's document as loaded, or `nil` when there was no usable file.
    let document: SettingsDocument?

    /// Loads from `file` (defaults when missing; a bad file is set aside with a warning).
    init(file: SettingsFile) {
        self.file = file
        (loaded, document) = file.load()
        settings = loaded
    }

    /// Saves what changed since launch (nothing when nothing did), atomically.
    func save() { file.save(settings, loaded: loaded, document: document) }
}
