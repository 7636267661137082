import HeeRender

/// Where the clip plays: SDL_mixer on one of SDL's audio drivers (`MixerOutput`), or the app's
/// own PipeWire stream (`PipeWireClipOutput`). `AudioEngine` decides when to open, suspend,
/// close and play (with `AudioDeviceModel`); an output does it.
protocol AudioOutput: AnyObject {
    /// The audio path, for the trace's `driver`: SDL's driver, or `pipewire-stream`.
    var driver: String { get }
    /// How long the clip plays (known once opened).
    var clipDuration: Duration { get }
    /// Whether the clip is playing now.
    var isPlaying: Bool { get }
    /// Opens the output and loads the clip, or makes a suspended output ready again.
    /// `redetect`: look for drivers and servers afresh first. Returns what opened, for the
    /// trace.
    /// - Throws: `SDLError` naming what failed.
    func open(redetect: Bool) throws(SDLError) -> AudioSpec
    /// Nothing has played for a while: cost nothing (no thread woken, no buffer mixed) until
    /// `open`.
    func suspend()
    /// Closes the output.
    func close()
    /// Plays the clip from its start, cutting off a playback still running. Returns why it
    /// cannot play, or `nil` when it started on a live output.
    func play() -> String?
    /// Playback volume, 0...100.
    func setVolume(_ volume: Int)
    /// Why the open output is not playing, or `nil` while it is; `opened`: seconds since it
    /// opened or resumed; `timeout`: how long without a buffer counts as stopped.
    func stalled(openedFor opened: Duration, after timeout: Duration) -> String?
    /// Whether SDL's removed output device `which` was this output.
    func isRemoved(_ which: UInt32) -> Bool
}

/// What an output opened with: the trace's `audio` `open` fields.
struct AudioSpec {
    var rate: Int
    var channels: Int
    /// `s16` or `f32`.
    var format: String
    /// Buffer size, sample frames.
    var chunk: Int
}
