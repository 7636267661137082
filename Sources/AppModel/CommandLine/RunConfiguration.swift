import KeyboardCore
/// The settings one run of the app uses: saved settings overridden by the command line.
public struct RunConfiguration: Hashable, Sendable {
    /// Never open an audio device.
    public var mute: Bool
    /// Playback volume 0...100.
    public var volume: Int
    /// The show's limit, if any.
    public var limit: Int?
    /// Window size in points (the normal size when `maximized`).
    public var windowSize: Size
    /// Open the window maximized (the saved state; never with `--size`).
    public var maximized: Bool
    /// Label language.
    public var language: Language
    /// Window coordinates per point.
    public var scale: Double
    /// The keyboard layout's name (`en`, `de`, a user's own).
    public var layout: String
    /// Whether the desktop row (esc tab ctrl alt ← ↓ ↑ →) is shown under the へぇ button.
    public var desktopKeys: Bool
    /// System mode: the keyboard hides while no text field has the focus, where the platform
    /// tells which has (issue 30; `--auto-show` / `--no-auto-show`, setting `"autoShow"`).
    public var autoShow = true
    /// System mode on Phosh (issue 31): the phone dock — no target line, no desktop row by
    /// default, the へぇ button in a strip above the letters (`KeyboardLayout`'s `phoneDock`).
    public var phoneDock = false

    /// A configuration of these values (see each property; `windowSize` in points, `scale` in
    /// window coordinates per point; `desktopKeys` by default off, as the host screen has it).
    public init(mute: Bool, volume: Int, limit: Int?, windowSize: Size, language: Language, scale: Double,
                maximized: Bool = false, layout: String = LayoutCatalog.defaultName, desktopKeys: Bool = false) {
        self.layout = layout
        self.desktopKeys = desktopKeys
        self.mute = mute
        self.maximized = maximized
        self.volume = volume
        self.limit = limit
        self.windowSize = windowSize
        self.language = language
        self.scale = scale
    }
}
