import AppModel
import CSDL
import HeeAnthy
import HeeRender
import KeyboardCore

/// Runs the event loop and hands each concern to the object that owns it: the session
/// (every rule), the screen (drawing), the audio engine, the window's saved state, system
/// mode's platform layer, the clipboard, the recorder, the replay cursor and the benchmark
/// driver. One function turns an SDL event into what it means (`EventTranslator`); the
/// owners act on it (`Application+Events.swift`), and the session's effects are performed
/// by `Application+Effects.swift`.
///
/// The loop blocks in `SDL_WaitEvent` (system mode on Wayland: its own `EventWaiter`) while
/// nothing moves; while an animation runs it waits at most one frame (16 ms) and draws. Frames are drawn only when the session says
/// something visible changed.
final class Application {
    /// Longest wait between frames while something animates (≈ 60 Hz).
    static let frameInterval: Duration = .milliseconds(16)

    // Declared in reverse order of teardown: Swift releases stored properties in order, so
    // the screen (window, renderers) goes before SDL.
    let screen: Screen
    /// The compositor's touch cancels, heard beside SDL (a window on Wayland only).
    var touchCancelWatch: WaylandTouchCancelWatch?
    let audio: AudioEngine
    /// System mode's platform layer (`--system` on X11); `nil` otherwise.
    var systemMode: (any SystemModePlatform)?
    /// Wayland system mode's `sm.puri.OSK0` and gnome-session client (issue 31).
    var sessionBus: SessionBusService?
    let clipboard: Clipboard
    let sdl: SDLContext

    var session: KeyboardSession
    /// The saved settings (and where to save them).
    var settings: SettingsStore?
    /// The window's launch size, frame fitting, normal size and maximized state.
    var windowState: WindowStateKeeper
    var translator: EventTranslator
    let trace: TraceWriter
    /// This run's configuration, for the trace's `settings` line at launch.
    let configuration: RunConfiguration
    var clock = AppClock()
    let recorder: InputRecorder?
    var replay: ReplayCursor
    /// `--bench-presses` and `--bench-interval`: the benchmark driver to start, if any.
    let benchPlan: (presses: Int, interval: Duration, gesture: LaunchOptions.BenchGesture)?
    var bench: (any Benchmark)?
    /// SDL's own wait for the next event (system mode's platform may bring its own).
    let sdlWaiter = SDLEventWaiter()
    /// A request to open the audio device that waits for the first frame.
    var audioStartPending = false
    /// The latest time given to the session.
    var sessionTime: Duration = .zero
    /// The kana pad's converter: Anthy, loaded when the app is first idle or at first use; a
    /// failure is one warning line, after which the pad types kana without candidates.
    let converter = AnthyConverter(warn: { Console.error("\(Console.program): warning: \($0)") })
    /// A conversion that waits for the frame showing its composition (`Application+Kana`).
    var pendingConversion: (reading: String, time: Duration)?
    /// Whether loading the converter while idle has been done (or found unneeded).
    var converterPrepared = false
    /// System mode: the focused field's context as the trace last said it (issue 30).
    var tracedContext = TextContext.inactive
    var running = true
    /// Where `fonts/`, `sounds/` and `emoji/` are (the emoji data is read from there when first shown).
    var assetsDirectory = ""

    /// Window coordinates per point (`--scale`).
    var coordinateScale: Double { screen.coordinateScale }

    /// The bundled font that could not be opened, if drawing failed because of one.
    var failedFont: TextRenderer.FontError? { screen.failedFont }

    /// An app made of its owners (`init(options:...)` in `Application+Launch.swift` makes
    /// them).
    init(screen: Screen, audio: AudioEngine, clipboard: Clipboard, sdl: SDLContext, session: KeyboardSession,
         settings: SettingsStore?, windowState: WindowStateKeeper, translator: EventTranslator, trace: TraceWriter,
         configuration: RunConfiguration, recorder: InputRecorder?, replay: ReplayCursor,
         benchPlan: (presses: Int, interval: Duration, gesture: LaunchOptions.BenchGesture)?) {
        self.screen = screen
        self.audio = audio
        self.clipboard = clipboard
        self.sdl = sdl
        self.session = session
        self.settings = settings
        self.windowState = windowState
        self.translator = translator
        self.trace = trace
        self.configuration = configuration
        self.recorder = recorder
        self.replay = replay
        self.benchPlan = benchPlan
    }

    /// Runs until the window is closed (or, with `--exit-when-done`, the replay has ended).
    /// - Throws: `SDLError` when drawing fails.
    func run() throws(SDLError) {
        // System mode ends with the loop, however it ends (main exits without tearing the app
        // down): its deinit gives the keycodes it borrowed back to the X server's keymap.
        defer {
            sessionBus?.stop()
            systemMode = nil
        }
        try launch()
        var event = SDL_Event()
        while running {
            // One clock reading per turn: the tick, the frame and the decision how long to
            // sleep all use it, so an animation that ends in between is never missed.
            let replaying = replay.isFeeding
            if !replaying {
                // Events already queued come first: a tick at this moment comes after every
                // input up to it, as in a replay (a key released as its repeat falls due wins).
                while running, SDL_PollEvent(&event) != 0 { handleLive(event) }
                if !running { break }
            }
            let now = clock.now
            if X11WindowLoss.windowLost { break }
            windowState.fitFrameToDisplay(screen.window, at: now)
            if !replaying { passTime(to: now) }
            if let bench {
                if bench.isDone { break }
                bench.tick(now: now)
            }
            let animating = session.isAnimating(at: now)
            // Keystrokes go first: a frame waits until the display server has them.
            let held = systemMode?.frameHoldDeadline.map { now < $0 } ?? false
            if !held { try drawIfNeeded(at: now) }
            // The benchmark ends with a frame: quit now, not after the next event or deadline
            // (a layer switch leaves none, and the loop would sleep for good).
            if bench?.isDone == true { break }
            // The composition is on screen: its candidates come next (live; a replay converts
            // at once).
            runPendingConversion()
            try drawIfNeeded(at: clock.now)
            // A frame drawn mid-animation is followed by at least one more, so the final
            // frame (the animation's end state) is always drawn.
            if animating { screen.needsDisplay = true }

            if replaying {
                feedReplay()
                while running, SDL_PollEvent(&event) != 0 { ignoreDuringReplay(event) }
                if !replay.isFeeding {
                    if replay.exitWhenDone { finishReplay() } else { clock.thaw() }
                }
                continue
            }
            screen.setIconIfDue(at: now, animating: animating)
            prepareConverterIfIdle(animating: animating)
            if wait(for: &event, at: now, animating: animating) {
                LatencyProbe.mark("woke")
                handleLive(event)
                while running, SDL_PollEvent(&event) != 0 { handleLive(event) }
            }
        }
        runPendingConversion()
        deliverQueuedKeystrokes()
        if !X11WindowLoss.windowLost { try drawIfNeeded(at: clock.now) }
        _ = audio.stop()  // quitting: not traced (a hidden keyboard traces `closed`)
        settingsChanged()
        settings?.save()
    }

    /// The launch: the trace's first lines, the first frame, the window shown, the
    /// benchmark driver and the recording's first line.
    /// - Throws: `SDLError` when the first frame cannot be drawn.
    private func launch() throws(SDLError) {
        SDL_StopTextInput()
        // The settings line and the launch's lines (layout, keyboard) carry one time.
        let launch = clock.now
        trace.emit(.settings(configuration), at: launch)
        send(.launched, at: launch)
        kaomojiDataRead(at: launch)
        if session.mode == .system {
            keyTargetChanged(at: launch)
            // Auto-show: the field focused when the keyboard started (Wayland's input method
            // was read during set-up; AT-SPI's watch reports later).
            if session.autoShow.isEnabled { textContextChanged(at: launch) }
            // sm.puri.OSK0's Visible from the start: what auto-show decided at the launch.
            sessionBus?.keyboardShown(session.hostScreen.visibility.target == .show)
        }
        try drawIfNeeded(at: clock.now)
        if let systemMode {
            // Auto-show with no field focused: the keyboard starts off the screen, and no
            // frame of it is ever shown before a field takes the focus (issue 30).
            if session.hostScreen.keysAreLive { systemMode.showWindow() } else { systemMode.setKeyboardShown(false) }
        } else {
            screen.window.show()
        }
        try screen.windowShown(at: clock.now)
        systemMode?.windowShown()
        if sdl.hasRealDisplay { windowState.windowShown(at: clock.now) }
        if let benchPlan { bench = makeBenchmark(benchPlan) }
        if let recorder {
            // A recording starts with the window's size, so its replay lays out the same keys,
            // at time 0 (SDL's start): events queued before this line may carry earlier times,
            // and a replay's clock then runs exactly as the recorded run's did.
            var record = InputRecord(t: 0, type: .window)
            record.event = .resized
            record.w = Int(screen.window.size.width)
            record.h = Int(screen.window.size.height)
            recorder.write(record)
        }
        if !replay.isFeeding { replay.exitWhenDone ? finishReplay() : clock.thaw() }
    }

    /// Live time passing: timers that fell due meanwhile (a key repeat, an animation's end)
    /// act at their own times, then time moves on to `now`; the audio device and system mode
    /// do what is due. (During a replay, deadlines are met at their own times between its
    /// events.)
    private func passTime(to now: Duration) {
        meetDeadlines(before: now)
        send(.tick, at: now)
        suspendAudioIfIdle(at: now)
        emit(audio.watch(at: now), at: now)
        systemMode?.keySender.tick(at: now)
    }

    /// Waits for the next event: at most a frame while animating, else until the next
    /// deadline of any owner, else for good. Returns whether an event arrived.
    func wait(for event: inout SDL_Event, at now: Duration, animating: Bool) -> Bool {
        let waiter = systemMode?.eventWaiter ?? sdlWaiter
        if animating {
            // At most one frame; less when the benchmark driver or a held frame is due sooner.
            var wait = Self.frameInterval
            if let due = bench?.deadline() { wait = min(wait, max(due - now, .zero)) }
            if let due = systemMode?.frameHoldDeadline { wait = min(wait, max(due - now, .milliseconds(1))) }
            return waiter.wait(for: &event, milliseconds: Int32((wait.seconds * 1000).rounded(.up)))
        }
        let deadlines = [session.nextDeadline(after: now), audioWake(after: now), bench?.deadline(),
                         screen.iconDeadline, windowState.deadline(after: now), systemMode?.keySender.deadline,
                         screen.needsDisplay ? systemMode?.frameHoldDeadline : nil]
        if let deadline = deadlines.compactMap({ $0 }).min() {
            let ms = max(Int32(((deadline - now).seconds * 1000).rounded(.up)), 1)
            return waiter.wait(for: &event, milliseconds: ms)
        }
        return waiter.wait(for: &event, milliseconds: nil)
    }

    /// Brings the saved settings up to date with what the user changed in the app (volume,
    /// window size, maximized; values that came from flags are not saved) and publishes them
    /// for a save outside the loop (`SettingsSnapshot`).
    func settingsChanged() {
        guard settings != nil else { return }
        // System mode's window is another shape: its size is not the host screen's.
        if session.mode == .hostScreen { windowState.save(into: &settings!.settings) }
        SettingsSnapshot.publish(settings)
    }

    /// When to wake for the open audio device: to check it still plays, or to suspend it
    /// after a silence (a clip still playing past its expected end is checked again 0.1 s
    /// later).
    private func audioWake(after now: Duration) -> Duration? {
        audio.wakeDeadline.map { $0 > now ? $0 : now + .milliseconds(100) }
    }

    /// The session's deadlines since the last input that fall before `time` (key repeats, an
    /// animation's end, the keyboard's slide settling), each met at its own time, in order,
    /// so the trace lines they cause carry that time. In a replay also the silent audio
    /// device's idle deadline (live, it is checked as time passes: the device may still be
    /// playing).
    /// With `budgetEnds` (SDL ticks, ms), stops once that wall time has passed and returns
    /// `false` (the rest are met on the next call).
    @discardableResult
    func meetDeadlines(before time: Duration, budgetEnds: UInt64? = nil) -> Bool {
        while let deadline = [session.nextDeadline(after: sessionTime), audio.followsVirtualTime ? audio.idleDeadline : nil]
                .compactMap({ $0 }).min(), deadline < time {
            clock.advance(to: deadline)
            send(.tick, at: deadline)
            suspendAudioIfIdle(at: deadline)
            if let budgetEnds, SDL_GetTicks64() >= budgetEnds { return false }
        }
        return true
    }

    /// Closes the audio device after its silence, and traces it.
    private func suspendAudioIfIdle(at time: Duration) {
        emit(audio.suspendIfIdle(at: time), at: time)
    }

    /// Draws the session as it is at `now` (the app's clock), if anything visible changed and
    /// the window is not minimized; the first frame also lets the audio device open.
    /// - Throws: `SDLError` when a frame cannot be drawn or presented.
    func drawIfNeeded(at now: Duration) throws(SDLError) {
        let first = !screen.firstFramePresented
        if screen.needsDisplay { LatencyProbe.mark("draw") }
        guard try screen.drawIfNeeded(session, at: now) else { return }
        LatencyProbe.mark("drawn")
        bench?.framePresented(now: now)
        if first && audioStartPending {
            audioStartPending = false
            apply([.startAudioEngine], at: now)
        }
    }
}
