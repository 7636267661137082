/// The settings one run of the app uses: saved settings overridden by the command line.
public struct RunConfiguration: Hashable, Sendable {
    /// Never open an audio device.
    public var mute: Bool
    /// Playback volume 0...100.
    public var volume: Int
    /// The show's limit, if any.
    public var limit: Int?
    /// Window size in points.
    public var windowSize: Size
    /// Label language.
    public var language: Language
    /// Window coordinates per point.
    public var scale: Double

    public init(mute: Bool, volume: Int, limit: Int?, windowSize: Size, language: Language, scale: Double) {
        self.mute = mute
        self.volume = volume
        self.limit = limit
        self.windowSize = windowSize
        self.language = language
        self.scale = scale
    }
}
