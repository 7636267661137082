#if canImport(Glibc)
import Glibc
#endif
import CSDL
import HeeRender
import AppModel
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

/// Plays the clip: seed 000's `SoundEngine` on SDL_mixer, following the audio device as it
/// comes and goes.
///
/// `AudioDeviceModel` decides (open, close, retry, play, what to tell the user); this class
/// does it with SDL: `start` when the keyboard appears (the seed's `startEngine`), `stop`
/// when it disappears, `press` for the へぇ button. Each returns the trace events to write,
/// in order; `press` also says whether the clip started, and it only starts on a device that
/// is live: SDL still plays it (`SDL_GetAudioDeviceStatus`) and it has mixed a buffer within
/// `stallTimeout` (SDL 2.26's PipeWire driver says nothing when the server goes away: its
/// buffers just stop). A freshly opened device is live once it has mixed its first buffer.
///
/// An open SDL audio device wakes its thread for every buffer even when silent, so after
/// `idleTimeout` without sound the device is closed (suspended) and reopened by the next
/// press: an idle keyboard costs no CPU at all.
final class AudioEngine {
    /// Silence after which the device is suspended.
    static let idleTimeout: Duration = .seconds(3)
    /// Requested device spec: 48 kHz stereo, 16-bit, 128-frame buffer (2.7 ms). A press is
    /// mixed into the next buffer; through a sound server the buffer size also sets the
    /// stream's latency there (PipeWire's quantum follows it). 256 frames measured 8 ms
    /// median, 12 ms p99 from press to first sample on PulseAudio, 128 frames 5 and 7 ms
    /// (README, "Performance").
    static let frequency: Int32 = 48_000
    static let channels: Int32 = 2
    /// The buffer, in sample frames.
    static let chunkSize: Int32 = 128
    /// The mixer channel the clip plays on; replaying restarts it there.
    static let clipChannel: Int32 = 0
    /// An open device that mixes nothing for this long is taken as lost (SDL's PipeWire
    /// driver): `pressStallTimeout` at a press (a playing device mixes a buffer every 2.7 ms),
    /// `stallTimeout` by the periodic check and for a device that never mixed at all.
    static let pressStallTimeout: Duration = .milliseconds(200)
    static let stallTimeout: Duration = .seconds(1)
    /// How often an open device is checked for a stall while nothing else wakes the app.
    static let watchInterval: Duration = .milliseconds(500)
    /// `HEE_AUDIO_IDLE=keep`: never suspend the device while the keyboard is shown (the
    /// first press after a pause as fast as any other, for the CPU of an open stream; see
    /// README, "Performance").
    static let keepsDeviceOpen = getenv("HEE_AUDIO_IDLE").map { String(cString: $0) } == "keep"
    /// How long a press waits for a freshly opened device's first buffer.
    static let firstBufferTimeout: Duration = .milliseconds(300)

    private let soundPath: String
    private var model: AudioDeviceModel
    private var chunk: Chunk?
    /// SDL_mixer, loaded at the first open (see `MixerLibrary`).
    private var mixer: MixerLibrary?
    /// During a replay the app's clock is the file's, not the wall clock's: the clip counts as
    /// ended when that clock says so, whether or not the device has finished playing it, so
    /// the device is suspended at the same moment on every run.
    var followsVirtualTime = false
    /// The audio driver SDL runs (`nil` until the subsystem started).
    private var driver: String?
    /// SDL's id of the mixer's device while open (for its status and SDL_AUDIODEVICEREMOVED).
    private var deviceID: SDL_AudioDeviceID = 0
    /// With SDL's PipeWire driver, the server's socket when the device opened.
    private var pipeWireServer: PipeWireSocket?
    /// When the device opened and when its liveness was last checked (app clock).
    private var openedAt: Duration = .zero
    private var lastWatch: Duration = .zero
    /// When the device last started a sound, and how long the clip lasts.
    private var lastActivity: Duration = .zero
    private var clipDuration: Duration = .zero
    /// Playback volume 0...100.
    private var volume: Int

    init(soundPath: String, muted: Bool, volume: Int) {
        self.soundPath = soundPath
        model = AudioDeviceModel(muted: muted)
        self.volume = volume
    }

    deinit { closeDevice() }

    /// What one call did: trace events to write (in order) and whether the clip started.
    struct Outcome {
        var events: [TraceEvent] = []
        var started = false
    }

    /// Sets the playback volume (0...100); applies at once if the device is open.
    func setVolume(_ volume: Int) {
        self.volume = min(max(volume, 0), 100)
        if model.isOpen { applyVolume() }
    }

    /// The keyboard appeared: opens the device and loads the clip.
    func start(at time: Duration) -> Outcome {
        lastActivity = time
        return perform(model.start(at: time), at: time)
    }

    /// The keyboard disappeared: closes the device.
    func stop() -> Outcome {
        perform(model.stop(), at: .zero)
    }

    /// The へぇ button was pressed: plays the clip from its start on its channel, cutting off
    /// a playback still running (seed 000: `player.stop()` then `play()`), reopening the
    /// device first when it was suspended, lost or never opened.
    func press(at time: Duration) -> Outcome {
        var outcome = Outcome()
        if let reason = stalled(at: time, after: Self.pressStallTimeout) {
            outcome = perform(model.lost(reason, at: time), at: time)
        }
        let pressed = perform(model.press(at: time), at: time)
        outcome.events += pressed.events
        outcome.started = pressed.started
        return outcome
    }

    /// The pointer moved over the window at `time`: a press may follow. Reopens a device
    /// suspended after a silence ahead of it, and keeps an open one from being suspended.
    func pointerMoved(at time: Duration) -> Outcome {
        if model.isOpen {
            lastActivity = max(lastActivity, time - clipDuration)
            return Outcome()
        }
        let outcome = perform(model.pointerApproached(), at: time)
        if model.isOpen { lastActivity = max(lastActivity, time - clipDuration) }
        return outcome
    }

    /// SDL_AUDIODEVICEREMOVED for an output device `which`: if it is ours, it is gone. (SDL
    /// stops a device before it posts the event; one still playing under that id is a newer
    /// device that reuses the id, and the event is about the old one.)
    func deviceRemoved(_ which: UInt32, at time: Duration) -> Outcome {
        guard model.isOpen, which == deviceID, SDL_GetAudioDeviceStatus(deviceID) != SDL_AUDIO_PLAYING else {
            return Outcome()
        }
        return perform(model.lost("the audio device was removed", at: time), at: time)
    }

    /// Checks the open device for a stall, at most every `watchInterval` (live only: a
    /// replay's clock is not the device's).
    func watch(at time: Duration) -> Outcome {
        guard model.isOpen, time - lastWatch >= Self.watchInterval else { return Outcome() }
        lastWatch = time
        guard let reason = stalled(at: time, after: Self.stallTimeout) else { return Outcome() }
        return perform(model.lost(reason, at: time), at: time)
    }

    /// When the device is to be suspended if nothing plays: the end of the last clip plus
    /// `idleTimeout`; `nil` when it is not open (or kept open, `HEE_AUDIO_IDLE=keep`).
    var idleDeadline: Duration? {
        model.isOpen && !Self.keepsDeviceOpen ? lastActivity + clipDuration + Self.idleTimeout : nil
    }

    /// Suspends the device once it has been silent for `idleTimeout` (with
    /// `followsVirtualTime`, by the app's clock alone).
    func suspendIfIdle(at time: Duration) -> Outcome {
        guard let deadline = idleDeadline, time >= deadline, followsVirtualTime || mixer?.playing(-1) == 0 else {
            return Outcome()
        }
        return perform(model.suspend(), at: time)
    }

    /// When `watch` or `suspendIfIdle` has something to do next; `nil` when the device is not
    /// open.
    var wakeDeadline: Duration? {
        guard model.isOpen else { return nil }
        return [idleDeadline, lastWatch + Self.watchInterval].compactMap { $0 }.min()
    }

    /// Why the open device is not playing, or `nil` while it is: SDL stopped it (its drivers
    /// for PulseAudio and ALSA notice a lost server or device themselves), or — with SDL's
    /// PipeWire driver, which does not — the server's socket changed or nothing was mixed
    /// for `timeout`. (PulseAudio's buffers may legitimately pause for a second or two when
    /// a stream starts on an idle null sink, so a pause alone means nothing there.)
    private func stalled(at time: Duration, after timeout: Duration) -> String? {
        guard model.isOpen else { return nil }
        if SDL_GetAudioDeviceStatus(deviceID) != SDL_AUDIO_PLAYING { return "the audio device stopped" }
        guard driver == "pipewire" else { return nil }
        if let server = pipeWireServer, PipeWireSocket.current() != server { return "the PipeWire server went away" }
        let mixed = mixedFrames.load(ordering: .relaxed) > 0
        if !mixed {
            return time - openedAt > Self.stallTimeout ? "the audio device does not play" : nil
        }
        let since = BenchDriver.nanoseconds() &- lastMixNanoseconds.load(ordering: .relaxed)
        return Double(since) / 1e9 > timeout.seconds ? "the audio device stopped playing" : nil
    }

    // MARK: Effects

    private func perform(_ effects: [AudioDeviceModel.Effect], at time: Duration) -> Outcome {
        var outcome = Outcome()
        var queue = effects[...]
        while let effect = queue.popFirst() {
            switch effect {
            case .openDevice(let redetect):
                switch openDevice(redetect: redetect, at: time) {
                case .success(let spec): queue += model.opened(spec, at: time)
                case .failure(let error): queue += model.openFailed(error.description, at: time)
                }
            case .closeDevice:
                closeDevice()
            case .play:
                if let reason = play(at: time) {
                    queue += model.lost(reason, at: time)
                } else {
                    outcome.started = true
                }
            case .warn(let message):
                Console.error("\(Console.program): \(message)")
            case .trace(let event):
                outcome.events.append(event)
            }
        }
        return outcome
    }

    /// Opens the default device and loads the clip; `redetect`: restarts SDL's audio
    /// subsystem first so drivers and servers are looked for again. A plain reopen that
    /// fails is tried once more with `redetect` (the server may have restarted meanwhile).
    private func openDevice(redetect: Bool, at time: Duration) -> Result<TraceEvent, SDLError> {
        let result = openDeviceOnce(redetect: redetect, at: time)
        if case .failure = result, !redetect { return openDeviceOnce(redetect: true, at: time) }
        return result
    }

    private func openDeviceOnce(redetect: Bool, at time: Duration) -> Result<TraceEvent, SDLError> {
        do throws(SDLError) {
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
            openedAt = time
            lastWatch = time
            lastActivity = max(lastActivity, time)
            return .success(.audioOpen(rate: Int(rate), channels: Int(channels), format: format == HEE_AUDIO_F32SYS ? "f32" : "s16",
                                       chunk: Int(Self.chunkSize), driver: driver))
        } catch {
            return .failure(error)
        }
    }

    /// The id of the one open output device (the mixer's): SDL numbers devices from 2.
    private static func openDeviceID() -> SDL_AudioDeviceID {
        for id in SDL_AudioDeviceID(2)...SDL_AudioDeviceID(32) where SDL_GetAudioDeviceStatus(id) != SDL_AUDIO_STOPPED {
            return id
        }
        return 0
    }

    private func closeDevice() {
        guard deviceID != 0 || chunk != nil else { return }
        _ = mixer?.haltChannel(-1)
        chunk = nil
        mixer?.closeAudio()
        deviceID = 0
    }

    /// Starts the clip. Returns why it cannot play, or `nil` when it started on a live device.
    private func play(at time: Duration) -> String? {
        guard let mixer, let chunk else { return "no clip loaded" }
        lastActivity = time
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

    private func applyVolume() {
        _ = mixer?.volume(-1, Int32((Double(volume) * Double(HEE_MIX_MAX_VOLUME) / 100).rounded()))
    }
}
