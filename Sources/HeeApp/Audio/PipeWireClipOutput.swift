#if canImport(Glibc)
import Glibc
#endif
import CPipeWire
import CSDL
import HeeRender

/// The clip through a PipeWire stream of the app's own (`pipewire_clip.c`), on a PipeWire
/// desktop (Debian 12's default): connected once, and while silent made inactive rather than
/// closed, so the first press after a pause — a touch, which no pointer motion announces —
/// starts sound as fast as any press, and an idle keyboard wakes nothing.
///
/// Measured against SDL's PipeWire driver, which must be closed while idle
/// (docs/performance.md): reopening it at a press makes a new stream that WirePlumber links first.
/// Used when PipeWire's socket is there and the user chose no `SDL_AUDIODRIVER`
/// (`HEE_AUDIO_OUTPUT=sdl` keeps SDL's driver, for comparisons); if the stream cannot be
/// made, the engine falls back to `MixerOutput`.
final class PipeWireClipOutput: AudioOutput {
    /// The stream's quantum, in sample frames (as `MixerOutput`'s buffer).
    static let quantum: UInt32 = 128
    static let rate: Int32 = 48_000

    let driver = "pipewire-stream"
    private let soundPath: String
    private var clip: OpaquePointer?
    /// The socket of the server the stream is connected to.
    private var server: PipeWireSocket?
    private var frames: [Int16] = []
    private(set) var clipDuration: Duration = .zero
    private var gain: Float = 1

    /// Whether this output is the one to try: a PipeWire server's socket is there, and
    /// neither `SDL_AUDIODRIVER` nor `HEE_AUDIO_OUTPUT=sdl` asks for SDL's drivers.
    static var isWanted: Bool {
        func environment(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "" }
        return environment("SDL_AUDIODRIVER").isEmpty && environment("HEE_AUDIO_OUTPUT") != "sdl"
            && PipeWireSocket.current() != nil
    }

    init(soundPath: String) {
        self.soundPath = soundPath
    }

    deinit { close() }

    var isPlaying: Bool { clip.map { hee_pw_clip_is_playing($0) != 0 } ?? false }

    func open(redetect: Bool) throws(SDLError) -> AudioSpec {
        let spec = AudioSpec(rate: Int(Self.rate), channels: 2, format: "s16", chunk: Int(Self.quantum))
        if let clip, !redetect, state(of: clip) >= 0, PipeWireSocket.current() == server {
            hee_pw_clip_set_active(clip, 1)
            return spec
        }
        close()
        var error = [CChar](repeating: 0, count: 256)
        guard hee_pw_load(&error, error.count) == 0 else {
            throw SDLError("dlopen(libpipewire-0.3.so.0)", message: text(error))
        }
        if frames.isEmpty { try loadClip() }
        server = PipeWireSocket.current()
        let opened = frames.withUnsafeBufferPointer { samples in
            hee_pw_clip_open(AudioSubsystem.applicationName, AudioSubsystem.applicationName, "Notification",
                             AudioSubsystem.iconName, UInt32(Self.rate), Self.quantum, samples.baseAddress,
                             samples.count / 2, &error, error.count)
        }
        guard let opened else { throw SDLError("pw_stream_connect", message: text(error)) }
        clip = opened
        hee_pw_clip_set_volume(opened, gain)
        return spec
    }

    /// The clip as 48 kHz 16-bit stereo, converted by SDL from the WAV file.
    private func loadClip() throws(SDLError) {
        var spec = SDL_AudioSpec()
        var buffer: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        guard let file = SDL_RWFromFile(soundPath, "rb"), SDL_LoadWAV_RW(file, 1, &spec, &buffer, &length) != nil,
              let buffer else {
            throw SDLError("SDL_LoadWAV(\(soundPath))")
        }
        defer { SDL_FreeWAV(buffer) }
        guard let stream = SDL_NewAudioStream(spec.format, spec.channels, spec.freq, HEE_AUDIO_S16SYS, 2, Self.rate) else {
            throw SDLError("SDL_NewAudioStream")
        }
        defer { SDL_FreeAudioStream(stream) }
        guard SDL_AudioStreamPut(stream, buffer, Int32(length)) == 0, SDL_AudioStreamFlush(stream) == 0 else {
            throw SDLError("SDL_AudioStreamPut")
        }
        var converted = [Int16](repeating: 0, count: Int(SDL_AudioStreamAvailable(stream)) / 2)
        let got = converted.withUnsafeMutableBytes { SDL_AudioStreamGet(stream, $0.baseAddress, Int32($0.count)) }
        guard got > 0 else { throw SDLError("SDL_AudioStreamGet") }
        frames = Array(converted.prefix(Int(got) / 2 / 2 * 2))
        clipDuration = .milliseconds(Int64(frames.count / 2) * 1000 / Int64(Self.rate))
    }

    func suspend() {
        if let clip { hee_pw_clip_set_active(clip, 0) }
    }

    func close() {
        guard let clip else { return }
        hee_pw_clip_close(clip)
        self.clip = nil
    }

    /// Starts the clip. A stream just made waits for its first buffer, as `MixerOutput` does,
    /// so a stream the server never runs is not taken for a live one; an activated one has
    /// run before.
    func play() -> String? {
        guard let clip else { return "no clip loaded" }
        hee_pw_clip_play(clip)
        if hee_pw_clip_frames(clip) == 0 {
            let deadline = BenchDriver.nanoseconds() + UInt64(MixerOutput.firstBufferTimeout.seconds * 1e9)
            while hee_pw_clip_frames(clip) == 0 && BenchDriver.nanoseconds() < deadline && state(of: clip) >= 0 {
                SDL_Delay(1)
            }
            if hee_pw_clip_frames(clip) == 0 {
                hee_pw_clip_stop(clip)
                return failure(of: clip) ?? "the audio device does not play"
            }
        }
        return nil
    }

    func setVolume(_ volume: Int) {
        gain = Float(min(max(volume, 0), 100)) / 100
        if let clip { hee_pw_clip_set_volume(clip, gain) }
    }

    /// The stream failed (the server went away: PipeWire tells its clients), the server's
    /// socket changed, or the active stream handed nothing to the server for `timeout`.
    func stalled(openedFor opened: Duration, after timeout: Duration) -> String? {
        guard let clip else { return nil }
        if let reason = failure(of: clip) { return reason }
        if let server, PipeWireSocket.current() != server { return "the PipeWire server went away" }
        let since = hee_pw_clip_since_process(clip)
        guard since != UInt64.max else { return opened > AudioEngine.stallTimeout ? "the audio device does not play" : nil }
        // Since it was activated, that is: an inactive stream is not run at all.
        return Double(since) / 1e9 > timeout.seconds && opened > timeout ? "the audio device stopped playing" : nil
    }

    func isRemoved(_ which: UInt32) -> Bool { false }

    /// A C string in `buffer`, up to its first NUL.
    private func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func state(of clip: OpaquePointer) -> Int32 {
        var error = [CChar](repeating: 0, count: 2)
        return hee_pw_clip_state(clip, &error, error.count)
    }

    private func failure(of clip: OpaquePointer) -> String? {
        var error = [CChar](repeating: 0, count: 256)
        guard hee_pw_clip_state(clip, &error, error.count) < 0 else { return nil }
        return "the PipeWire stream failed: \(text(error))"
    }
}
