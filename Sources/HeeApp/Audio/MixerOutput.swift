#if canImport(Glibc)
import Glibc
#endif
import CSDL
import HeeRender

/// Owns one loaded `Mix_Chunk` and frees it in `deinit` (before the device closes).
final class Chunk {
    let pointer: UnsafeMutablePointer<Mix_Chunk>
    private let mixer: MixerLibrary

    /// Loads a WAV file.
    /// - Throws: `SDLError` from `Mix_LoadWAV` naming the file.
    init(path: String, mixer: MixerLibrary) throws(SDLError) {
        self.mixer = mixer
        pointer = try sdlNonNull(mixer.loadWAV(path), "Mix_LoadWAV(\(path))")
    }

    deinit { mixer.freeChunk(pointer) }
}

/// The clip through SDL_mixer on one of SDL's audio drivers (PulseAudio, SDL's PipeWire
/// driver, ALSA, disk, dummy): seed 000's `SoundEngine`. An open SDL audio device wakes its
/// thread for every buffer even when silent (paused too), so `suspend` closes it and the next
/// `open` opens it again.
final class MixerOutput: AudioOutput {
    /// Requested device spec: 48 kHz stereo, 16-bit, 128-frame buffer (2.7 ms). A press is
    /// mixed into the next buffer; through a sound server the buffer size also sets the
    /// stream's latency there (PipeWire's quantum follows it). 256 frames measured 8 ms
    /// median, 12 ms p99 from press to first sample on PulseAudio, 128 frames 5 and 7 ms
    /// (docs/performance.md).
    static let frequency: Int32 = 48_000
    static let channels: Int32 = 2
    /// The buffer, in sample frames.
    static let chunkSize: Int32 = 128
    /// The mixer channel the clip plays on; replaying restarts it there.
    static let clipChannel: Int32 = 0
    /// How long a press waits for a freshly opened device's first buffer.
    static let firstBufferTimeout: Duration = .milliseconds(300)

    private let soundPath: String
    private var chunk: Chunk?
    /// SDL_mixer, loaded at the first open (see `MixerLibrary`).
    private var mixer: MixerLibrary?
    private(set) var driver = "none"
    /// SDL's id of the mixer's device while open (for its status and SDL_AUDIODEVICEREMOVED).
    private var deviceID: SDL_AudioDeviceID = 0
    /// With SDL's PipeWire driver, the server's socket when the device opened.
    private var pipeWireServer: PipeWireSocket?
    private(set) var clipDuration: Duration = .zero
    private var volume = 100

    init(soundPath: String) {
        self.soundPath = soundPath
    }

    deinit { close() }

    var isPlaying: Bool { (mixer?.playing(-1) ?? 0) != 0 }

    func open(redetect: Bool) throws(SDLError) -> AudioSpec {
        if redetect && AudioSubsystem.isStarted { AudioSubsystem.stop() }
        if !AudioSubsystem.isStarted { driver = try AudioSubsystem.start() }
        if mixer == nil { mixer = try MixerLibrary() }
        guard let mixer else { throw SDLError("dlopen", message: "SDL_mixer not loaded") }
        mixedFrames.store(0, ordering: .relaxed)
        let allowed = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        try sdlCheck(mixer.openAudioDevice(Self.frequency, HEE_AUDIO_S16SYS, Self.channels, Self.chunkSize, nil, allowed),
                     "Mix_OpenAudioDevice")
        deviceID = Self.openDeviceID()
        do throws(SDLError) {
            chunk = try Chunk(path: soundPath, mixer: mixer)
        } catch {
            mixer.closeAudio()
            deviceID = 0
            throw error
        }
        applyVolume()
        var rate: Int32 = 0, format: UInt16 = 0, channels: Int32 = 0
        _ = mixer.querySpec(&rate, &format, &channels)
        let bytesPerFrame = Int(channels) * (format == HEE_AUDIO_F32SYS ? 4 : 2)
        mixedFrameBytes.store(UInt64(max(bytesPerFrame, 1)), ordering: .relaxed)
        mixer.setPostMix(countMixedFrames, nil)
        if let chunk, rate > 0, bytesPerFrame > 0 {
            clipDuration = .milliseconds(Int64(chunk.pointer.pointee.alen) * 1000 / Int64(Int(rate) * bytesPerFrame))
        }
        pipeWireServer = driver == "pipewire" ? PipeWireSocket.current() : nil
        return AudioSpec(rate: Int(rate), channels: Int(channels), format: format == HEE_AUDIO_F32SYS ? "f32" : "s16",
                         chunk: Int(Self.chunkSize))
    }

    /// The id of the one open output device (the mixer's): SDL numbers devices from 2.
    private static func openDeviceID() -> SDL_AudioDeviceID {
        for id in SDL_AudioDeviceID(2)...SDL_AudioDeviceID(32) where SDL_GetAudioDeviceStatus(id) != SDL_AUDIO_STOPPED {
            return id
        }
        return 0
    }

    func suspend() { close() }

    func close() {
        guard deviceID != 0 || chunk != nil else { return }
        _ = mixer?.haltChannel(-1)
        chunk = nil
        mixer?.closeAudio()
        deviceID = 0
    }

    func play() -> String? {
        guard let mixer, let chunk else { return "no clip loaded" }
        _ = mixer.haltChannel(Self.clipChannel)
        guard mixer.playChannel(Self.clipChannel, chunk.pointer, 0) >= 0 else {
            return SDLError("Mix_PlayChannel").description
        }
        // A device just opened: wait for its first buffer (it holds the clip's start), so a
        // device that never plays is not taken for a live one.
        if mixedFrames.load(ordering: .relaxed) == 0 {
            let deadline = BenchDriver.nanoseconds() + UInt64(Self.firstBufferTimeout.seconds * 1e9)
            while mixedFrames.load(ordering: .relaxed) == 0 && BenchDriver.nanoseconds() < deadline { SDL_Delay(1) }
            if mixedFrames.load(ordering: .relaxed) == 0 {
                _ = mixer.haltChannel(Self.clipChannel)
                return "the audio device does not play"
            }
        }
        return nil
    }

    func setVolume(_ volume: Int) {
        self.volume = volume
        if chunk != nil { applyVolume() }
    }

    private func applyVolume() {
        _ = mixer?.volume(-1, Int32((Double(volume) * Double(HEE_MIX_MAX_VOLUME) / 100).rounded()))
    }

    /// SDL stopped the device (its drivers for PulseAudio and ALSA notice a lost server or
    /// device themselves), or — with SDL's PipeWire driver, which does not — the server's
    /// socket changed or nothing was mixed for `timeout`. (PulseAudio's buffers may
    /// legitimately pause for a second or two when a stream starts on an idle null sink, so a
    /// pause alone means nothing there.)
    func stalled(openedFor opened: Duration, after timeout: Duration) -> String? {
        guard chunk != nil else { return nil }
        if SDL_GetAudioDeviceStatus(deviceID) != SDL_AUDIO_PLAYING { return "the audio device stopped" }
        guard driver == "pipewire" else { return nil }
        if let server = pipeWireServer, PipeWireSocket.current() != server { return "the PipeWire server went away" }
        guard mixedFrames.load(ordering: .relaxed) > 0 else {
            return opened > AudioEngine.stallTimeout ? "the audio device does not play" : nil
        }
        let since = BenchDriver.nanoseconds() &- lastMixNanoseconds.load(ordering: .relaxed)
        return Double(since) / 1e9 > timeout.seconds ? "the audio device stopped playing" : nil
    }

    /// SDL stops a device before it posts SDL_AUDIODEVICEREMOVED; one still playing under that
    /// id is a newer device that reuses the id, and the event is about the old one.
    func isRemoved(_ which: UInt32) -> Bool {
        chunk != nil && which == deviceID && SDL_GetAudioDeviceStatus(deviceID) != SDL_AUDIO_PLAYING
    }
}
