import CSDL
import HeeRender
import KeyboardCore

/// Owns the window, renderer, fonts, audio and session, and runs the event loop.
///
/// The loop blocks in `SDL_WaitEvent` while nothing moves; while an animation runs it waits
/// at most one frame (16 ms) and draws. Frames are drawn only when the session says
/// something visible changed.
final class Application {
    /// Longest wait between frames while something animates (≈ 60 Hz).
    static let frameInterval: Duration = .milliseconds(16)

    // Declared in reverse order of teardown: Swift releases stored properties in order, so
    // the renderer's users go before the renderer, the window before SDL.
    var sceneRenderer: SceneRenderer
    private let textRenderer: TextRenderer
    private let presenter: FramePresenter
    let window: Window
    let audio: AudioEngine
    private let fonts: TTFLibrary
    /// System mode's X11 side (`--system` with SDL's x11 driver); `nil` otherwise.
    var systemMode: X11SystemMode?
    /// SDL's Xlib `Display *` (SDL owns it) when SDL's video driver is X11, for pastes SDL
    /// cannot read (`clipboardText()`); `nil` otherwise.
    var x11Display: OpaquePointer?
    /// The reasons a paste could not be read that stderr has been told (one line per reason).
    var clipboardWarnings: Set<String> = []
    let sdl: SDLContext

    var session: KeyboardSession
    private let strings: HostScreenText
    private let assetsDirectory: String
    /// Whether the window icon is set (it is rendered at the first idle moment, off the
    /// start-up path).
    private var iconSet = false
    /// When to set it: shortly after start, once the first frames are on screen.
    private var iconTime: Duration = .zero
    private let language: Language
    /// The saved settings (and where to save them).
    var settings: SettingsStore?
    /// The window's launch size, frame fitting, normal size and maximized state.
    var windowState: WindowStateKeeper
    var translator: EventTranslator
    let trace: TraceWriter
    /// This run's configuration, for the trace's `settings` line at launch.
    private let configuration: RunConfiguration
    var clock = AppClock()
    /// Window coordinates per point (`--scale`).
    let coordinateScale: Double
    let recorder: InputRecorder?
    let replay: [InputRecord]
    var replayIndex = 0
    private let exitWhenDone: Bool
    private let benchPresses: Int?
    private let benchInterval: Duration
    var bench: BenchDriver?
    var needsDisplay = true
    var firstFramePresented = false
    var audioStartPending = false
    /// Pixels per point at the last frame.
    var pixelScale = 1.0
    /// The caret's rectangle (window coordinates) last given to the input method.
    private var textInputRect: SDL_Rect?
    /// The latest time given to the session.
    var sessionTime: Duration = .zero
    /// The pixel scale of the last `layout` trace line.
    var tracedPixelScale: Double?
    /// Whether the window is minimized (from its window events, live or replayed): nothing
    /// is drawn meanwhile.
    var isMinimized = false
    /// The modifier keys held, from the last key event (live or replayed), as SDL_Keymod bits.
    var keyModifiers: UInt16 = 0
    var running = true

    /// Sets everything up (the window stays hidden until the first frame is drawn).
    /// - Parameters:
    ///   - configuration: this run's settings (saved settings with the flags on top).
    ///   - settings: the saved settings, updated when the user changes volume or window size
    ///     and saved at quit; `nil` when nothing is saved (replays).
    ///   - replay: events to feed after launch (`--replay`), already validated.
    ///   - recorder: where to write live input events (`--record`).
    /// - Throws: `SDLError` when SDL, the window, the renderer or a bundled font fails.
    init(options: LaunchOptions, configuration: RunConfiguration, settings: SettingsStore?, assetsDirectory: String,
         replay: [InputRecord], recorder: InputRecorder?) throws(SDLError) {
        let mode: KeyboardMode = options.system ? .system : .hostScreen
        AudioSubsystem.nameStreams()
        // System mode's keys go out through X11 (XTEST): on a Wayland desktop, through XWayland.
        sdl = try SDLContext(preferX11: options.system)
        var configuration = configuration
        if sdl.videoDriver == .wayland, options.scale == nil {
            // The compositor gives each output's scale (drawn at it, see drawIfNeeded);
            // GDK_SCALE is how X11 desktops say it, and applies there only.
            configuration.scale = 1
        }
        let scale = configuration.scale
        fonts = try TTFLibrary()
        audio = AudioEngine(soundPath: AssetLocator.join(assetsDirectory, "sounds/hee.wav"), muted: configuration.mute,
                            volume: configuration.volume)
        let minimum = KeyboardLayout.minimumWindowSize(for: mode)
        strings = HostScreenText.of(configuration.language)
        language = configuration.language
        let minimumSize = Size(width: (minimum.width * scale).rounded(.up), height: (minimum.height * scale).rounded(.up))
        let size = WindowStateKeeper.launchSize(for: configuration, minimum: minimumSize, display: sdl)
        window = try Window(context: sdl, title: strings.windowTitle, size: size, minimum: minimumSize,
                            maximized: configuration.maximized,
                            extraFlags: mode == .system ? SDL_WINDOW_ALWAYS_ON_TOP.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue : 0)
        if let x11 = X11WindowHandles(of: window.pointer) {
            x11Display = x11.display
            X11WindowClass.set(on: x11)
            X11WindowLoss.watch(x11)
        }
        windowState = WindowStateKeeper(openedAt: size, minimum: minimumSize, maximized: configuration.maximized,
                                        coordinateScale: scale)
        let points = windowState.memory.normalSize
        presenter = sdl.videoDriver == .wayland ? try WaylandPresenter(window: window) : try WindowPresenter(window: window)
        textRenderer = try TextRenderer(renderer: presenter.renderer, library: fonts, assetsDirectory: assetsDirectory)
        // Text that cannot be drawn is left out, never fatal: one warning per reason.
        textRenderer.onSkippedText = { reason in
            Console.error("\(Console.program): warning: some text could not be drawn and is left out: \(reason)")
        }
        sceneRenderer = SceneRenderer(renderer: textRenderer.renderer, text: textRenderer)
        self.assetsDirectory = assetsDirectory
        trace = TraceWriter(enabled: options.trace)
        coordinateScale = scale
        session = KeyboardSession(windowSize: points, limit: configuration.limit, volume: configuration.volume, mode: mode)
        translator = EventTranslator(windowSize: points, coordinateScale: scale)
        self.settings = settings
        SettingsSnapshot.publish(settings)
        self.recorder = recorder
        self.replay = replay
        exitWhenDone = options.exitWhenDone
        benchPresses = options.benchPresses
        benchInterval = .milliseconds(options.benchInterval)
        if options.replayPath != nil {
            // A replay's time is the file's, from zero: its trace is the same on every run.
            clock.freeze(at: .zero)
            audio.followsVirtualTime = true
        }
        self.configuration = configuration
        if mode == .system { startSystemMode() }
    }

    /// The bundled font that could not be opened, if drawing failed because of one.
    var failedFont: TextRenderer.FontError? { textRenderer.failedFont }

    /// The window icon's size in pixels.
    static let windowIconSize = 64

    /// Runs until the window is closed (or, with `--exit-when-done`, the replay has ended).
    /// - Throws: `SDLError` when drawing fails.
    func run() throws(SDLError) {
        // System mode ends with the loop, however it ends (main exits without tearing the app
        // down): its deinit gives the keycodes it borrowed back to the X server's keymap.
        defer { systemMode = nil }
        SDL_StopTextInput()
        // The settings line and the launch's lines (layout, keyboard) carry one time.
        let launch = clock.now
        trace.emit(.settings(configuration), at: launch)
        send(.launched, at: launch)
        if session.mode == .system { keyTargetChanged(at: launch) }
        try drawIfNeeded(at: clock.now)
        if let systemMode { systemMode.show() } else { window.show() }
        try presenter.windowShown()
        if sdl.hasRealDisplay { windowState.windowShown(at: clock.now) }
        iconTime = clock.now + .milliseconds(300)
        if let benchPresses {
            let target = session.layout.heeFrame.center
            bench = BenchDriver(presses: benchPresses, interval: benchInterval,
                                target: Point(x: target.x * coordinateScale, y: target.y * coordinateScale),
                                windowID: window.id, start: clock.now)
        }
        if let recorder {
            // A recording starts with the window's size, so its replay lays out the same keys,
            // at time 0 (SDL's start): events queued before this line may carry earlier times,
            // and a replay's clock then runs exactly as the recorded run's did.
            var record = InputRecord(t: 0, type: .window)
            record.event = .resized
            record.w = Int(window.size.width)
            record.h = Int(window.size.height)
            recorder.write(record)
        }
        if replay.isEmpty { exitWhenDone ? finishReplay() : clock.thaw() }

        var event = SDL_Event()
        while running {
            // One clock reading per turn: the tick, the frame and the decision how long to
            // sleep all use it, so an animation that ends in between is never missed.
            let replaying = replayIndex < replay.count
            if !replaying {
                // Events already queued come first: a tick at this moment comes after every
                // input up to it, as in a replay (a key released as its repeat falls due wins).
                while running, SDL_PollEvent(&event) != 0 {
                    handle(event, at: clock.time(ofTimestamp: event.common.timestamp), live: true)
                }
                if !running { break }
            }
            let now = clock.now
            if X11WindowLoss.windowLost { break }
            windowState.fitFrameToDisplay(window, at: now)
            if !replaying {
                // Timers that fell due meanwhile (a key repeat, an animation's end) act at
                // their own times, then time moves on to now. (During a replay, deadlines are
                // met at their own times between its events.)
                meetDeadlines(before: now)
                send(.tick, at: now)
                suspendAudioIfIdle(at: now)
                emit(audio.watch(at: now), at: now)
                systemMode?.tick(at: now)
            }
            if let bench {
                if bench.isDone { break }
                bench.tick(now: now)
            }
            let animating = session.isAnimating(at: now)
            try drawIfNeeded(at: now)
            // A frame drawn mid-animation is followed by at least one more, so the final
            // frame (the animation's end state) is always drawn.
            if animating { needsDisplay = true }

            if replaying {
                feedReplay()
                while running, SDL_PollEvent(&event) != 0 { ignoreDuringReplay(event) }
                if replayIndex == replay.count {
                    if exitWhenDone { finishReplay() } else { clock.thaw() }
                }
                continue
            }

            if !iconSet && now >= iconTime && !animating {
                iconSet = true
                if let icon = try? IconRenderer.render(size: Self.windowIconSize, library: fonts,
                                                       assetsDirectory: assetsDirectory) {
                    window.setIcon(icon)
                }
            }
            let gotEvent: Bool
            if animating {
                // At most one frame; less when the benchmark driver is due sooner.
                var wait = Self.frameInterval
                if let due = bench?.deadline() { wait = min(wait, max(due - now, .zero)) }
                gotEvent = SDL_WaitEventTimeout(&event, Int32((wait.seconds * 1000).rounded(.up))) != 0
            } else if let deadline = [session.nextDeadline(after: now), audioWake(after: now), bench?.deadline(),
                                      iconSet ? nil : iconTime, windowState.deadline(after: now), systemMode?.deadline]
                        .compactMap({ $0 }).min() {
                let ms = max(Int32(((deadline - now).seconds * 1000).rounded(.up)), 1)
                gotEvent = SDL_WaitEventTimeout(&event, ms) != 0
            } else {
                gotEvent = SDL_WaitEvent(&event) != 0
            }
            if gotEvent {
                handle(event, at: clock.time(ofTimestamp: event.common.timestamp), live: true)
                while running, SDL_PollEvent(&event) != 0 {
                    handle(event, at: clock.time(ofTimestamp: event.common.timestamp), live: true)
                }
            }
        }
        if !X11WindowLoss.windowLost { try drawIfNeeded(at: clock.now) }
        _ = audio.stop()  // quitting: not traced (a hidden keyboard traces `closed`)
        settingsChanged()
        settings?.save()
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

    /// Tells the input method where the caret is, so its candidate window opens there.
    private func updateTextInputRect(windowPerPixel k: Double) {
        guard session.isTextFieldFocused, let caret = sceneRenderer.caretRect else { return }
        var r = SDL_Rect(x: Int32((Double(caret.x) * k).rounded()), y: Int32((Double(caret.y) * k).rounded()),
                         w: Int32(max((Double(caret.width) * k).rounded(), 1)), h: Int32((Double(caret.height) * k).rounded()))
        if let last = textInputRect, last.x == r.x, last.y == r.y, last.w == r.w, last.h == r.h { return }
        textInputRect = r
        SDL_SetTextInputRect(&r)
    }

    /// Draws the session as it is at `now` (the app's clock), if anything visible changed and
    /// the window is not minimized; the first frame also lets the audio device open.
    /// - Throws: `SDLError` when a frame cannot be drawn or presented.
    func drawIfNeeded(at now: Duration) throws(SDLError) {
        guard needsDisplay else { return }
        if isMinimized { return }
        needsDisplay = false
        // Pixels per point: the drawable's pixels per window coordinate (HiDPI platforms)
        // times window coordinates per point (--scale).
        let (pixelWidth, _) = try presenter.beginFrame()
        let scale = Double(pixelWidth) / max(window.size.width, 1) * coordinateScale
        pixelScale = scale
        try sceneRenderer.draw(Scene(session: session, at: now, language: language), pixelScale: scale)
        try presenter.present()
        bench?.framePresented(now: now)
        if !firstFramePresented {
            firstFramePresented = true
            if audioStartPending {
                audioStartPending = false
                apply([.startAudioEngine], at: now)
            }
        }
        updateTextInputRect(windowPerPixel: coordinateScale / scale)
    }
}
