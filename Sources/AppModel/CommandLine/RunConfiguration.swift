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

    /// A configuration of these values (see each property; `windowSize` in points, `scale` in
    /// window coordinates per point).
    public init(mute: Bool, volume: Int, limit: Int?, windowSize: Size, language: Language, scale: Double,
                maximized: Bool = false) {
        self.mute = mute
        self.maximized = maximized
        self.volume = volume
        self.limit = limit
        self.windowSize = windowSize
        self.language = language
        self.scale = scale
    }
}
