import CSDL
import HeeRender
import KeyboardCore

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

/// Plays the clip: seed 000's `SoundEngine` on SDL_mixer.
///
/// `start()` opens the audio device and loads the clip (the seed's `startEngine`, called
/// when the keyboard appears); `stop()` closes it (`stopEngine`, when it disappears);
/// `play()` restarts the clip if it is still playing. With `--mute`, or when no device can
/// be opened, the engine stays silent and says so once on stderr.
///
/// An open SDL audio device wakes its thread for every buffer even when silent, so after
/// `idleTimeout` without sound the device is closed (suspended) and reopened by the next
/// press: an idle keyboard costs no CPU at all.
final class AudioEngine {
    /// Silence after which the device is suspended.
    static let idleTimeout: Duration = .seconds(3)
    /// Requested device spec: 48 kHz stereo, 16-bit, 256-frame buffer (5.3 ms). A press is
    /// mixed into the next buffer, so the clip starts 1–2 buffers after it: at most 10.7 ms
    /// (issue 5's press→sound budget is 12 ms). The device only runs while the keyboard is
    /// up and sounds were heard in the last 3 s, so the small buffer costs no idle CPU.
    static let frequency: Int32 = 48_000
    static let channels: Int32 = 2
    static let chunkSize: Int32 = 256
    /// The mixer channel the clip plays on; replaying restarts it there.
    static let clipChannel: Int32 = 0

    private let soundPath: String
    private let muted: Bool
    private var chunk: Chunk?
    /// SDL_mixer, loaded at the first `open()` (see `MixerLibrary`).
    private var mixer: MixerLibrary?
    /// Count the frames mixed (for the benchmark's press→sound figure).
    var countsFrames = false
    /// During a replay the app's clock is the file's, not the wall clock's: the clip counts as
    /// ended when that clock says so, whether or not the device has finished playing it, so
    /// the device is suspended at the same moment on every run.
    var followsVirtualTime = false
    private var isOpen = false { didSet { if isOpen { openedSinceStart = true } } }
    /// Whether a device was opened since `start()` (so `stop()` reports a close).
    private var openedSinceStart = false
    /// Between `start()` and `stop()` (the keyboard is up), whether or not suspended.
    private(set) var isStarted = false
    /// When the device last made or started a sound, and how long the clip lasts.
    private var lastActivity: Duration = .zero
    private var clipDuration: Duration = .zero
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
        _ = mixer?.volume(-1, Int32((Double(volume) * Double(HEE_MIX_MAX_VOLUME) / 100).rounded()))
    }

    deinit { close() }

    /// Opens the device and loads the clip (the keyboard appears). Returns the trace event
    /// describing the outcome (`nil` when already started).
    func start(at time: Duration) -> TraceEvent? {
        if isStarted { return nil }
        isStarted = true
        lastActivity = time
        return open()
    }

    /// Opens the device and loads the clip.
    private func open() -> TraceEvent {
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
            if mixer == nil { mixer = try MixerLibrary() }
            guard let mixer else { throw SDLError("dlopen", message: "SDL_mixer not loaded") }
            let allowed = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
            try sdlCheck(mixer.openAudioDevice(Self.frequency, HEE_AUDIO_S16SYS, Self.channels, Self.chunkSize, nil, allowed),
                         "Mix_OpenAudioDevice")
            isOpen = true
            do throws(SDLError) {
                chunk = try Chunk(path: soundPath, mixer: mixer)
            } catch {
                close()
                warnOnce("cannot load the clip \(soundPath) (\(error.message)); running without sound")
                return .audioSilent(status: "unavailable", reason: error.description)
            }
            applyVolume()
            var rate: Int32 = 0, format: UInt16 = 0, channels: Int32 = 0
            _ = mixer.querySpec(&rate, &format, &channels)
            let bytesPerFrame = Int(channels) * (format == HEE_AUDIO_F32SYS ? 4 : 2)
            if countsFrames {
                mixedFrameBytes.store(UInt64(max(bytesPerFrame, 1)), ordering: .relaxed)
                mixedFrames.store(0, ordering: .relaxed)
                mixer.setPostMix(countMixedFrames, nil)
            }
            if let chunk, rate > 0, bytesPerFrame > 0 {
                clipDuration = .milliseconds(Int64(chunk.pointer.pointee.alen) * 1000 / Int64(Int(rate) * bytesPerFrame))
            }
            return .audioOpen(rate: Int(rate), channels: Int(channels),
                              format: format == HEE_AUDIO_F32SYS ? "f32" : "s16", chunk: Int(Self.chunkSize))
        } catch {
            warnOnce("no usable audio device (\(error)); running without sound")
            return .audioSilent(status: "unavailable", reason: error.description)
        }
    }

    /// Closes the device (the keyboard disappears). Returns whether a device had been opened
    /// since `start` (it counts as closed now, even if it was suspended).
    @discardableResult
    func stop() -> Bool {
        guard isStarted else { return false }
        isStarted = false
        close()
        defer { openedSinceStart = false }
        return openedSinceStart
    }

    private func close() {
        guard isOpen else { return }
        _ = mixer?.haltChannel(-1)
        chunk = nil
        mixer?.closeAudio()
        isOpen = false
    }

    /// Plays the clip from its start on its channel, cutting off a playback still running
    /// (seed 000: `player.stop()` then `play()`); a suspended device is reopened first.
    /// Returns whether playback started, and the trace event of a resume.
    func play(at time: Duration) -> (started: Bool, resumed: TraceEvent?) {
        guard isStarted, !muted else { return (false, nil) }
        var resumed: TraceEvent?
        if !isOpen {
            let outcome = open()
            guard isOpen else { return (false, nil) }
            resumed = .audioResumed(outcome)
        }
        guard let chunk else { return (false, resumed) }
        lastActivity = time
        guard let mixer else { return (false, resumed) }
        _ = mixer.haltChannel(Self.clipChannel)
        return (mixer.playChannel(Self.clipChannel, chunk.pointer, 0) >= 0, resumed)
    }

    /// When the device should be suspended if nothing plays: the end of the last clip plus
    /// `idleTimeout`; `nil` when it is not open.
    var idleDeadline: Duration? {
        isOpen ? lastActivity + clipDuration + Self.idleTimeout : nil
    }

    /// Suspends the device if it has been silent long enough. Returns whether it did.
    func suspendIfIdle(at time: Duration) -> Bool {
        guard isOpen, let deadline = idleDeadline, time >= deadline, followsVirtualTime || mixer?.playing(-1) == 0 else {
            return false
        }
        close()
        return true
    }

    private func warnOnce(_ message: String) {
        guard !warned else { return }
        warned = true
        Console.error("\(Console.program): warning: \(message)")
    }
}
