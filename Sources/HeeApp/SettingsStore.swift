import KeyboardCore

/// The saved settings and the file they live in.
struct SettingsStore: Sendable {
    let file: SettingsFile
    var settings: Settings

    /// Loads from `file` (defaults when missing; a bad file is set aside with a warning).
    init(file: SettingsFile) {
        self.file = file
        settings = file.load()
    }

    /// Saves the current settings atomically.
    func save() { file.save(settings) }
}
