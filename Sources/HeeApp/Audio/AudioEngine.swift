#if canImport(Glibc)
import Glibc
#endif
import CSDL
import HeeRender
import AppModel
import KeyboardCore

/// Plays the clip: seed 000's `SoundEngine`, following the audio device as it comes and goes.
///
/// `AudioDeviceModel` decides (open, suspend, close, retry, play, what to tell the user); this
/// class does it through an `AudioOutput`: the app's own PipeWire stream on a PipeWire desktop
/// (`PipeWireClipOutput`), else SDL_mixer on SDL's driver (`MixerOutput`). `start` when the
/// keyboard appears (the seed's `startEngine`), `stop` when it disappears, `press` for the へぇ
/// button. Each returns the trace events to write, in order; `press` also says whether the
/// clip started, and it only starts on an output that is live (`AudioOutput.stalled`).
///
/// After `idleTimeout` without sound the output is suspended — an SDL device closed, the
/// PipeWire stream made inactive — and the next press (or the mouse moving over the window)
/// makes it ready again: an idle keyboard costs no CPU at all.
final class AudioEngine {
    /// Silence after which the device is suspended.
    static let idleTimeout: Duration = .seconds(3)
    /// The sample rate and buffer the outputs ask for (`MixerOutput`, `PipeWireClipOutput`).
    static let frequency: Int32 = MixerOutput.frequency
    static let chunkSize: Int32 = MixerOutput.chunkSize
    /// An open device that mixes nothing for this long is taken as lost: `pressStallTimeout`
    /// at a press (a playing device mixes a buffer every 2.7 ms), `stallTimeout` by the
    /// periodic check and for a device that never mixed at all.
    static let pressStallTimeout: Duration = .milliseconds(200)
    static let stallTimeout: Duration = .seconds(1)
    /// How often an open device is checked for a stall while nothing else wakes the app.
    static let watchInterval: Duration = .milliseconds(500)
    /// `HEE_AUDIO_IDLE=keep`: never suspend the device while the keyboard is shown (the
    /// first press after a pause as fast as any other, for the CPU of an open stream; see
    /// docs/performance.md).
    static let keepsDeviceOpen = getenv("HEE_AUDIO_IDLE").map { String(cString: $0) } == "keep"

    private let soundPath: String
    private var model: AudioDeviceModel
    /// The output in use, and the two there may be (made when first needed).
    private var output: (any AudioOutput)?
    private var pipeWire: PipeWireClipOutput?
    private var mixer: MixerOutput?
    /// During a replay the app's clock is the file's, not the wall clock's: the clip counts as
    /// ended when that clock says so, whether or not the device has finished playing it, so
    /// the device is suspended at the same moment on every run.
    var followsVirtualTime = false
    /// When the device opened (or resumed) and when its liveness was last checked (app clock).
    private var openedAt: Duration = .zero
    private var lastWatch: Duration = .zero
    /// When the device last started a sound, and how long the clip lasts.
    private var lastActivity: Duration = .zero
    private var clipDuration: Duration { output?.clipDuration ?? .zero }
    /// Playback volume 0...100.
    private var volume: Int

    init(soundPath: String, muted: Bool, volume: Int) {
        self.soundPath = soundPath
        model = AudioDeviceModel(muted: muted)
        self.volume = volume
    }

    deinit { output?.close() }

    /// What one call did: trace events to write (in order) and whether the clip started.
    struct Outcome {
        var events: [TraceEvent] = []
        var started = false
    }

    /// Sets the playback volume (0...100); applies at once if the device is open.
    func setVolume(_ volume: Int) {
        self.volume = min(max(volume, 0), 100)
        output?.setVolume(self.volume)
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

    /// SDL_AUDIODEVICEREMOVED for an output device `which`: if it is ours, it is gone.
    func deviceRemoved(_ which: UInt32, at time: Duration) -> Outcome {
        guard model.isOpen, output?.isRemoved(which) == true else { return Outcome() }
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
        guard let deadline = idleDeadline, time >= deadline, followsVirtualTime || output?.isPlaying == false else {
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

    /// Why the open device is not playing, or `nil` while it is (the output's own checks).
    private func stalled(at time: Duration, after timeout: Duration) -> String? {
        guard model.isOpen else { return nil }
        return output?.stalled(openedFor: time - openedAt, after: timeout)
    }

    // MARK: Effects

    private func perform(_ effects: [AudioDeviceModel.Effect], at time: Duration) -> Outcome {
        var outcome = Outcome()
        var queue = effects[...]
        while let effect = queue.popFirst() {
            switch effect {
            case .openDevice(let redetect):
                switch openDevice(redetect: redetect) {
                case .success(let (spec, driver)):
                    openedAt = time
                    lastWatch = time
                    lastActivity = max(lastActivity, time)
                    queue += model.opened(.audioOpen(rate: spec.rate, channels: spec.channels, format: spec.format,
                                                     chunk: spec.chunk, driver: driver), at: time)
                case .failure(let error):
                    queue += model.openFailed(error.description, at: time)
                }
            case .suspendDevice:
                output?.suspend()
            case .closeDevice:
                output?.close()
            case .play:
                lastActivity = time
                if let reason = output.map({ $0.play() }) ?? "no audio output" {
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

    /// Opens the output: the app's own PipeWire stream when PipeWire is the server (and the
    /// user chose none of SDL's drivers), else — or when the stream cannot be made — SDL_mixer
    /// on SDL's driver. `redetect`: drivers and servers are looked for afresh. A plain reopen
    /// of SDL's device that fails is tried once more with `redetect` (the server may have
    /// restarted meanwhile).
    private func openDevice(redetect: Bool) -> Result<(AudioSpec, String), SDLError> {
        if PipeWireClipOutput.isWanted {
            let stream = pipeWire ?? PipeWireClipOutput(soundPath: soundPath)
            pipeWire = stream
            if let spec = try? stream.open(redetect: redetect) {
                use(stream)
                return .success((spec, stream.driver))
            }
            stream.close()
        }
        let sdl = mixer ?? MixerOutput(soundPath: soundPath)
        mixer = sdl
        use(sdl)
        do throws(SDLError) {
            return .success((try sdl.open(redetect: redetect), sdl.driver))
        } catch {
            guard !redetect else { return .failure(error) }
            do throws(SDLError) {
                return .success((try sdl.open(redetect: true), sdl.driver))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Makes `next` the output, closing the other one.
    private func use(_ next: any AudioOutput) {
        if let output, output !== next { output.close() }
        output = next
        next.setVolume(volume)
    }
}
