import CSDL
import HeeRender
import KeyboardCore

/// Owns one loaded `Mix_Chunk` and frees it in `deinit` (before the device closes).
final class Chunk {
    let pointer: UnsafeMutablePointer<Mix_Chunk>

    /// Loads a WAV file.
    /// - Throws: `SDLError` from `Mix_LoadWAV` naming the file.
    init(path: String) throws(SDLError) {
        pointer = try sdlNonNull(Mix_LoadWAV(path), "Mix_LoadWAV(\(path))")
    }

    deinit { Mix_FreeChunk(pointer) }
}

/// Plays the clip: seed 000's `SoundEngine` on SDL_mixer.
///
/// `start()` opens the audio device and loads the clip (the seed's `startEngine`, called
/// when the keyboard appears); `stop()` closes it (`stopEngine`, when it disappears);
/// `play()` restarts the clip if it is still playing. With `--mute`, or when no device can
/// be opened, the engine stays silent and says so once on stderr.
final class AudioEngine {
    /// Requested device spec: 48 kHz stereo, 16-bit, 512-frame buffer (10.7 ms).
    static let frequency: Int32 = 48_000
    static let channels: Int32 = 2
    static let chunkSize: Int32 = 512
    /// The mixer channel the clip plays on; replaying restarts it there.
    static let clipChannel: Int32 = 0

    private let soundPath: String
    private let muted: Bool
    private var chunk: Chunk?
    private var isOpen = false
    private var warned = false
    private var subsystemStarted = false

    /// Playback volume 0...100.
    private var volume: Int

    init(soundPath: String, muted: Bool, volume: Int) {
        self.soundPath = soundPath
        self.muted = muted
        self.volume = volume
    }

    /// Sets the playback volume (0...100); applies at once if the device is open.
    func setVolume(_ volume: Int) {
        self.volume = min(max(volume, 0), 100)
        if isOpen { applyVolume() }
    }

    private func applyVolume() {
        Mix_Volume(-1, Int32((Double(volume) * Double(HEE_MIX_MAX_VOLUME) / 100).rounded()))
    }

    deinit { stop() }

    /// Opens the device and loads the clip. Returns the trace event describing the outcome
    /// (`nil` when already open).
    func start() -> TraceEvent? {
        if isOpen { return nil }
        if muted {
            warnOnce("sound is off (--mute)")
            return .audioSilent(status: "muted", reason: "--mute")
        }
        do throws(SDLError) {
            if !subsystemStarted {
                hee_silence_alsa()
                try sdlCheck(SDL_InitSubSystem(SDL_INIT_AUDIO), "SDL_InitSubSystem(SDL_INIT_AUDIO)")
                subsystemStarted = true
            }
            let allowed = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
            try sdlCheck(Mix_OpenAudioDevice(Self.frequency, HEE_AUDIO_S16SYS, Self.channels, Self.chunkSize, nil, allowed),
                         "Mix_OpenAudioDevice")
            isOpen = true
            do throws(SDLError) {
                chunk = try Chunk(path: soundPath)
            } catch {
                stop()
                throw error
            }
            applyVolume()
            var rate: Int32 = 0, format: UInt16 = 0, channels: Int32 = 0
            _ = Mix_QuerySpec(&rate, &format, &channels)
            return .audioOpen(rate: Int(rate), channels: Int(channels),
                              format: format == HEE_AUDIO_F32SYS ? "f32" : "s16", chunk: Int(Self.chunkSize))
        } catch {
            warnOnce("no usable audio device (\(error)); running without sound")
            return .audioSilent(status: "unavailable", reason: error.description)
        }
    }

    /// Halts playback, frees the clip and closes the device. Returns whether it was open.
    @discardableResult
    func stop() -> Bool {
        guard isOpen else { return false }
        Mix_HaltChannel(-1)
        chunk = nil
        Mix_CloseAudio()
        isOpen = false
        return true
    }

    /// Plays the clip from its start on its channel, cutting off a playback still running
    /// (seed 000: `player.stop()` then `play()`). Returns whether playback started.
    func play() -> Bool {
        guard isOpen, let chunk else { return false }
        Mix_HaltChannel(Self.clipChannel)
        return Mix_PlayChannel(Self.clipChannel, chunk.pointer, 0) >= 0
    }

    private func warnOnce(_ message: String) {
        guard !warned else { return }
        warned = true
        Console.error("HeeApp: warning: \(message)")
    }
}
