#if canImport(Glibc)
import Glibc
#endif
import CSDL
import KeyboardCore
import Synchronization

/// When the benchmark's timer pushed the last press (nanoseconds), written on SDL's timer
/// thread and read on the main thread.
let benchPushTime = Atomic<UInt64>(0)
/// The press to push: window coordinates and window id, set before the timer starts.
let benchPressX = Atomic<Int32>(0)
let benchPressY = Atomic<Int32>(0)
let benchWindowID = Atomic<UInt32>(0)

/// SDL timer callback (runs on SDL's timer thread): pushes one left-button press, as a click
/// arriving from the window system would, and notes when. A plain global function, so it
/// carries no actor isolation onto SDL's thread.
func benchPushPress(_ interval: UInt32, _ parameter: UnsafeMutableRawPointer?) -> UInt32 {
    var e = SDL_Event()
    e.type = SDL_MOUSEBUTTONDOWN.rawValue
    e.button.windowID = benchWindowID.load(ordering: .relaxed)
    e.button.button = HEE_SDL_BUTTON_LEFT
    e.button.state = UInt8(SDL_PRESSED)
    e.button.clicks = 1
    e.button.x = benchPressX.load(ordering: .relaxed)
    e.button.y = benchPressY.load(ordering: .relaxed)
    benchPushTime.store(BenchDriver.nanoseconds(), ordering: .releasing)
    SDL_PushEvent(&e)
    return 0  // one shot
}

/// The in-app driver of `make bench` (`--bench-presses N`): presses the へぇ button N times by
/// pushing real mouse events into SDL's queue from SDL's timer thread, so each press arrives
/// while the loop sleeps, as a click does, and takes the path a live click takes
/// (translator → session → effects → frame). It times:
///
/// - press→action: push → the clip's `Mix_PlayChannel` returned (text already inserted);
/// - press→photon: push → `SDL_RenderPresent` returned for the first frame showing it.
///
/// Times come from SDL's high-resolution counter (nanoseconds). For each press the audio
/// stream's position (frames mixed so far) is kept, so with the disk audio driver the bench
/// can find where in the stream the clip starts.
/// At the end one JSON line goes to stdout and the app quits.
final class BenchDriver {
    private let presses: Int
    private let interval: Duration
    private let target: Point
    private let windowID: UInt32
    private var index = 0
    private var phase = Phase.idle
    private var nextPress: Duration
    private var actionNs: [Double] = []
    private var photonNs: [Double] = []
    /// The audio stream's playback position at each press, in sample frames.
    private var audioPositions: [Double] = []
    private var memoryAtStart: (rss: Int, pss: Int)?
    private(set) var isDone = false

    private enum Phase {
        /// Waiting for `nextPress`.
        case idle
        /// The press is in SDL's queue (pushed at `t0`, nanoseconds).
        case pushed(t0: UInt64)
        /// The session handled it and the clip started; waiting for the frame.
        case acted(t0: UInt64)
        /// The release is in the queue / was handled; waiting for its frame.
        case releasing(handled: Bool)
    }

    /// - Parameters:
    ///   - target: where to press, in window coordinates (the へぇ button's centre).
    ///   - interval: the pause between a release's frame and the next press.
    init(presses: Int, interval: Duration, target: Point, windowID: UInt32, start: Duration) {
        self.presses = presses
        self.interval = interval
        self.target = target
        self.windowID = windowID
        nextPress = start + .milliseconds(300)
        // The samples' storage is made (and touched) now, so the memory figures measure
        // the app, not the benchmark's own bookkeeping.
        actionNs = [Double](repeating: 0, count: presses)
        photonNs = [Double](repeating: 0, count: presses)
        audioPositions = [Double](repeating: -1, count: presses)
    }

    static func nanoseconds() -> UInt64 {
        let counter = SDL_GetPerformanceCounter(), frequency = SDL_GetPerformanceFrequency()
        return counter / frequency * 1_000_000_000 + counter % frequency * 1_000_000_000 / frequency
    }

    /// When the driver next wants to act, if it waits for time rather than for a frame.
    func deadline() -> Duration? {
        guard !isDone, case .idle = phase else { return nil }
        return nextPress
    }

    /// Schedules the next press (on SDL's timer thread, `interval` later) when idle.
    func tick(now: Duration) {
        guard !isDone, case .idle = phase, now >= nextPress else { return }
        if index == 0 { memoryAtStart = Self.memory() }
        benchPressX.store(Int32(target.x.rounded()), ordering: .relaxed)
        benchPressY.store(Int32(target.y.rounded()), ordering: .relaxed)
        benchWindowID.store(windowID, ordering: .relaxed)
        phase = .pushed(t0: 0)
        SDL_AddTimer(UInt32(max(interval.seconds * 1000, 1)), benchPushPress, nil)
    }

    /// The press was handled: text inserted, clip started (or skipped, when muted).
    func actionPerformed() {
        guard case .pushed = phase else { return }
        let t0 = benchPushTime.load(ordering: .acquiring)
        actionNs[index] = Double(Self.nanoseconds() - t0)
        // Where playback stands: the last buffer handed to the device is being played, and
        // has played for the time since it was handed over (the disk driver plays in real
        // time). The clip starts with the next buffer the mixer makes.
        let mixed = Double(mixedFrames.load(ordering: .relaxed))
        let buffer = Double(AudioEngine.chunkSize)
        let sinceMix = Double(Self.nanoseconds() &- lastMixNanoseconds.load(ordering: .relaxed)) / 1e9
        let played = min(max(sinceMix * Double(AudioEngine.frequency), 0), buffer)
        audioPositions[index] = mixed == 0 ? -1 : mixed - buffer + played
        phase = .acted(t0: t0)
    }

    /// The へぇ button's release was handled.
    func releaseHandled() {
        if case .releasing(false) = phase { phase = .releasing(handled: true) }
    }

    /// A frame was presented.
    func framePresented(now: Duration) {
        switch phase {
        case .acted(let t0):
            photonNs[index] = Double(Self.nanoseconds() - t0)
            phase = .releasing(handled: false)
            push(SDL_MOUSEBUTTONUP)
        case .releasing(true):
            phase = .idle
            index += 1
            nextPress = now
            if index == presses { finish() }
        default:
            break
        }
    }

    private func push(_ type: SDL_EventType) {
        var e = SDL_Event()
        e.type = type.rawValue
        e.button.windowID = windowID
        e.button.which = 0
        e.button.button = HEE_SDL_BUTTON_LEFT
        e.button.state = UInt8(type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED)
        e.button.clicks = 1
        e.button.x = Int32(target.x.rounded())
        e.button.y = Int32(target.y.rounded())
        SDL_PushEvent(&e)
    }

    private func finish() {
        isDone = true
        let end = Self.memory()
        func list(_ values: [Double]) -> String { "[" + values.map { String($0 / 1e6) }.joined(separator: ",") + "]" }
        var line = "{\"event\":\"bench\",\"presses\":\(presses)"
        line += ",\"press_to_action_ms\":\(list(actionNs)),\"press_to_photon_ms\":\(list(photonNs))"
        line += ",\"audio_frames_at_press\":[" + audioPositions.map { String($0) }.joined(separator: ",") + "]"
        if let start = memoryAtStart {
            line += ",\"rss_kb_start\":\(start.rss),\"pss_kb_start\":\(start.pss),\"rss_kb_end\":\(end.rss),\"pss_kb_end\":\(end.pss)"
        }
        Console.out(line + "}\n")
    }

    /// Resident and proportional set size in kB, from `/proc/self/smaps_rollup`.
    static func memory() -> (rss: Int, pss: Int) {
        guard let text = try? FileSystem.readText("/proc/self/smaps_rollup") else { return (0, 0) }
        func field(_ name: String) -> Int {
            for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
            }
            return 0
        }
        return (field("Rss"), field("Pss"))
    }

}
