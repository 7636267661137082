import AppModel
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
    /// Whether `save` may write: `false` when the path is not a regular file (`/dev/null`, a
    /// FIFO) or could not be read.
    let savable: Bool

    /// Loads from `file` (defaults when missing; a bad file is set aside with a warning,
    /// invalid members corrected with one).
    init(file: SettingsFile) {
        self.file = file
        let found = file.load()
        (loaded, document, savable) = (found.settings, found.document, found.savable)
        settings = loaded
    }

    /// Saves what changed since launch (nothing when nothing did, or when not `savable`), atomically.
    func save() {
        guard savable else { return }
        file.save(settings, loaded: loaded, document: document)
    }
}
