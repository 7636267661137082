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
    private var sceneRenderer: SceneRenderer
    private let textRenderer: TextRenderer
    private let presenter: FramePresenter
    private let window: Window
    private let audio: AudioEngine
    private let fonts: TTFLibrary
    /// System mode's X11 side (`--system` with SDL's x11 driver); `nil` otherwise.
    private var systemMode: X11SystemMode?
    private let sdl: SDLContext

    private var session: KeyboardSession
    private let strings: HostScreenText
    private let assetsDirectory: String
    /// Whether the window icon is set (it is rendered at the first idle moment, off the
    /// start-up path).
    private var iconSet = false
    /// When to set it: shortly after start, once the first frames are on screen.
    private var iconTime: Duration = .zero
    private let language: Language
    /// The saved settings (and where to save them).
    private var settings: SettingsStore?
    /// The window's launch size, frame fitting, normal size and maximized state.
    private var windowState: WindowStateKeeper
    private var translator: EventTranslator
    private let trace: TraceWriter
    /// This run's configuration, for the trace's `settings` line at launch.
    private let configuration: RunConfiguration
    private var clock = AppClock()
    /// Window coordinates per point (`--scale`).
    private let coordinateScale: Double
    private let recorder: InputRecorder?
    private let replay: [InputRecord]
    private var replayIndex = 0
    private let exitWhenDone: Bool
    private let benchPresses: Int?
    private let benchInterval: Duration
    private var bench: BenchDriver?
    private var needsDisplay = true
    private var firstFramePresented = false
    private var audioStartPending = false
    /// Pixels per point at the last frame.
    private var pixelScale = 1.0
    /// The caret's rectangle (window coordinates) last given to the input method.
    private var textInputRect: SDL_Rect?
    /// The latest time given to the session.
    private var sessionTime: Duration = .zero
    /// The pixel scale of the last `layout` trace line.
    private var tracedPixelScale: Double?
    /// Whether the window is minimized (from its window events, live or replayed): nothing
    /// is drawn meanwhile.
    private var isMinimized = false
    /// The modifier keys held, from the last key event (live or replayed), as SDL_Keymod bits.
    private var keyModifiers: UInt16 = 0
    private var running = true

    /// How long the app may spend feeding replayed events before it draws a frame.
    static let replayBatch: Duration = .milliseconds(8)
    /// After the last replayed event, animations still running get at most this much
    /// (virtual) time to finish before `--exit-when-done` quits.
    static let replayDrain: Duration = .seconds(1)

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
            X11WindowClass.set(on: x11)
            X11WindowLoss.watch(x11)
        }
        windowState = WindowStateKeeper(openedAt: size, maximized: configuration.maximized, coordinateScale: scale)
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

    /// System mode: sets the window up as a keyboard that never takes the focus and starts
    /// watching the focus (X11), or says in one line why keys cannot reach every window.
    private func startSystemMode() {
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        do {
            systemMode = try X11SystemMode(window: window.pointer)
            systemMode?.readyText = HeeButtonModel.insertedText
        } catch {
            Console.error("\(Console.program): --system: \(error); keys are not sent")
        }
        if let notice = SystemModeNotice.message(videoDriver: driver, environment: FileSystem.environment) {
            Console.error("\(Console.program): \(notice)")
        }
        // Text input and the input method stay off: the window never has the focus.
        SDL_EventState(UInt32(SDL_TEXTINPUT.rawValue), SDL_DISABLE)
        SDL_EventState(UInt32(SDL_TEXTEDITING.rawValue), SDL_DISABLE)
        SDL_EventState(UInt32(SDL_TEXTEDITING_EXT.rawValue), SDL_DISABLE)
    }

    /// System mode: tells the session and the trace where keys go now.
    private func keyTargetChanged(at time: Duration) {
        let target = systemMode?.keyTarget ?? .unavailable
        if let systemMode { trace.emit(.target(systemMode.target), at: clock.now) }
        send(.keyTargetChanged(target), at: time)
    }

    /// The bundled font that could not be opened, if drawing failed because of one.
    var failedFont: TextRenderer.FontError? { textRenderer.failedFont }

    /// The window icon's size in pixels.
    static let windowIconSize = 64

    /// Runs until the window is closed (or, with `--exit-when-done`, the replay has ended).
    /// - Throws: `SDLError` when drawing fails.
    func run() throws(SDLError) {
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
        let replayBase = clock.now
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
                feedReplay(base: replayBase)
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
        systemMode?.close()
        _ = audio.stop()  // quitting: not traced (a hidden keyboard traces `closed`)
        settingsChanged()
        settings?.save()
    }

    /// Brings the saved settings up to date with what the user changed in the app (volume,
    /// window size, maximized; values that came from flags are not saved) and publishes them
    /// for a save outside the loop (`SettingsSnapshot`).
    private func settingsChanged() {
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

    /// Writes the audio engine's trace events.
    private func emit(_ outcome: AudioEngine.Outcome, at now: Duration) {
        for event in outcome.events { trace.emit(event, at: now) }
    }

    /// Feeds replayed events for up to `replayBatch` of wall time. Each event happens at its
    /// own recorded time (relative to the first), which the clock jumps to.
    private func feedReplay(base: Duration) {
        let first = replay[0].t
        let budgetEnds = SDL_GetTicks64() + UInt64(Self.replayBatch.seconds * 1000)
        repeat {
            let record = replay[replayIndex]
            let time = base + .milliseconds(Int64(record.t - first))
            // Whatever was due before this event (a key repeat, an animation's end, the silent
            // audio device's suspension) happens first, at its own time; what is due at this
            // very time waits until every event of this time has been handled. A long gap
            // full of them counts against the batch, so a signal (SDL_QUIT) is seen between
            // them: the event then waits for the next turn.
            guard meetDeadlines(before: time, budgetEnds: budgetEnds) else { return }
            replayIndex += 1
            clock.advance(to: time)
            if record.type == .window, record.event?.carriesSize == true, let w = record.w, let h = record.h {
                SDL_SetWindowSize(window.pointer, Int32(w), Int32(h))
            }
            if record.type == .textinput, let text = record.text {
                // One commit, however long: live, SDL cuts text into 31-byte events (and a
                // recording keeps them apart); a replayed line is one input, one `text` line.
                if !text.isEmpty {
                    if let recorder {
                        // `--record` keeps it as the one line it is.
                        var copy = InputRecord(t: Int((time.seconds * 1000).rounded()), type: .textinput)
                        copy.text = text
                        recorder.write(copy)
                    }
                    send(.textInput(text), at: time)
                }
            } else {
                for event in record.sdlEvents(windowID: window.id) {
                    handle(event, at: time, live: false, clipboard: record.clipboard)
                }
            }
        } while running && replayIndex < replay.count && SDL_GetTicks64() < budgetEnds
    }

    /// After the last replayed event: lets running animations reach their end (in virtual
    /// time, at once), draws, and stops.
    private func finishReplay() {
        meetDeadlines(before: clock.now + Self.replayDrain + .milliseconds(1))
        needsDisplay = true
        running = false
    }

    /// The session's deadlines since the last input that fall before `time` (key repeats, an
    /// animation's end, the keyboard's slide settling), each met at its own time, in order,
    /// so the trace lines they cause carry that time. In a replay also the silent audio
    /// device's idle deadline (live, it is checked as time passes: the device may still be
    /// playing).
    /// With `budgetEnds` (SDL ticks, ms), stops once that wall time has passed and returns
    /// `false` (the rest are met on the next call).
    @discardableResult
    private func meetDeadlines(before time: Duration, budgetEnds: UInt64? = nil) -> Bool {
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

    /// A live event that arrives while a replay runs. The file is the replay's only input, so
    /// it is dropped (SDL's own echo of a replayed resize, a click on a real display), except
    /// a request to quit (a signal, the window's close button) or the window destroyed from
    /// outside.
    private func ignoreDuringReplay(_ event: SDL_Event) {
        if case .quit = translator.meaning(of: event) { running = false }
        if X11WindowLoss.isWindowDestroyed(by: event) { running = false }
        if SDL_EventType(event.type) == SDL_TEXTEDITING_EXT, let text = event.editExt.text { SDL_free(text) }
    }

    /// Handles one event, live or replayed. `clipboard`: the text a replayed Ctrl+V pasted
    /// when it was recorded (otherwise the clipboard is read now).
    private func handle(_ event: SDL_Event, at time: Duration, live: Bool, clipboard: String? = nil) {
        let meaning = translator.meaning(of: event)
        var pasted: String?
        if case .pasteRequested = meaning { pasted = clipboard ?? Self.clipboardText() }
        if let recorder, var record = InputRecord(recording: event) {
            // Live or replayed (`--replay A --record B` writes what A fed in, so replaying B
            // does the same), stamped with the app's clock, which runs on after a replay.
            record.t = Int((time.seconds * 1000).rounded())
            record.clipboard = pasted
            recorder.write(record)
        }
        if X11WindowLoss.isWindowDestroyed(by: event) {
            running = false
            return
        }
        switch SDL_EventType(event.type) {
        case SDL_SYSWMEVENT:
            // X events for system mode: focus, titles, keymap changes, the pointer on the keys.
            var copy = event
            if systemMode?.handle(&copy, at: clock.now) == true { keyTargetChanged(at: time) }
            return
        case SDL_AUDIODEVICEREMOVED where event.adevice.iscapture == 0:
            emit(audio.deviceRemoved(event.adevice.which, at: time), at: clock.now)
        case SDL_MOUSEMOTION where event.motion.which != HEE_SDL_TOUCH_MOUSEID:
            // A mouse moving over the window: get a suspended audio device ready for a press.
            emit(audio.pointerMoved(at: time), at: clock.now)
        default:
            break
        }
        if live, SDL_EventType(event.type) == SDL_WINDOWEVENT,
           windowState.handle(SDL_WindowEventID(UInt32(event.window.event)), window: window, at: time) {
            settingsChanged()
        }
        let type = SDL_EventType(event.type)
        if type == SDL_KEYDOWN || type == SDL_KEYUP { keyModifiers = event.key.keysym.mod }
        switch meaning {
        case .input(let input):
            if case .windowResized(let size) = input {
                translator.windowSize = size
                if live {
                    windowState.resized(to: size, at: time)
                    settingsChanged()
                }
                // Also when only the display's scale changed (the window moved to another
                // output): the same points, more pixels.
                needsDisplay = true
            }
            send(input, at: time)
        case .quit:
            running = false
        case .redraw:
            needsDisplay = true
        case .minimized(let minimized):
            isMinimized = minimized
            if !minimized { needsDisplay = true }
        case .pasteRequested:
            if let pasted { send(.paste(pasted), at: time) }
        case .ignored:
            break
        }
        if type == SDL_WINDOWEVENT, [SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_DISPLAY_CHANGED]
            .contains(SDL_WindowEventID(UInt32(event.window.event))), tracedPixelScale != pixelScaleNow() {
            // The same layout at another pixel scale (the window moved to a HiDPI display).
            traceLayout(at: time)
            needsDisplay = true
        }
        if SDL_EventType(event.type) == SDL_TEXTEDITING_EXT, let text = event.editExt.text { SDL_free(text) }
        placeCaretFromPointer(event, at: time)
    }

    /// The clipboard's text, or `nil` when SDL cannot read it.
    private static func clipboardText() -> String? {
        guard let raw = SDL_GetClipboardText() else { return nil }
        defer { SDL_free(raw) }
        return String(cString: raw)
    }

    /// A click, tap or drag in the text field puts the caret where the pointer is (after the
    /// session has focused the field): the renderer knows where each character is drawn.
    private func placeCaretFromPointer(_ event: SDL_Event, at time: Duration) {
        let point: Point
        var clicks = 1
        var extending = false
        switch SDL_EventType(event.type) {
        case SDL_MOUSEBUTTONDOWN where event.button.which != HEE_SDL_TOUCH_MOUSEID && event.button.button == HEE_SDL_BUTTON_LEFT:
            guard session.pointers[.mouse] == .host(.textField) else { return }
            point = Point(x: Double(event.button.x) / coordinateScale, y: Double(event.button.y) / coordinateScale)
            clicks = Int(event.button.clicks)
            // The modifiers of the key events (live or replayed), not SDL's live state, so a
            // replay extends exactly the clicks the recorded run extended.
            extending = UInt32(keyModifiers) & KMOD_SHIFT.rawValue != 0
        case SDL_MOUSEMOTION where event.motion.which != HEE_SDL_TOUCH_MOUSEID && event.motion.state & HEE_SDL_BUTTON_LMASK != 0:
            guard session.pointers[.mouse] == .host(.textField) else { return }
            point = Point(x: Double(event.motion.x) / coordinateScale, y: Double(event.motion.y) / coordinateScale)
            extending = true
        case SDL_FINGERDOWN:
            guard session.pointers[.finger(event.tfinger.fingerId)] == .host(.textField) else { return }
            point = Point(x: Double(event.tfinger.x) * translator.windowSize.width, y: Double(event.tfinger.y) * translator.windowSize.height)
        default:
            return
        }
        // Map through the text as it is now: events handled since the last frame (a replay
        // batch, a burst of live events) may have changed it.
        if needsDisplay { try? drawIfNeeded(at: time) }
        let offset = clicks == 2
            ? sceneRenderer.textFieldCharacterIndex(atX: point.x * pixelScale)
            : sceneRenderer.textFieldCharacterOffset(atX: point.x * pixelScale)
        send(.placeCaret(at: offset, extendingSelection: extending, clickCount: clicks), at: time)
    }

    /// Feeds `input`, which happened at `time`, to the session and performs its effects.
    private func send(_ input: KeyboardInput, at time: Duration) {
        sessionTime = max(sessionTime, time)
        apply(session.handle(input, at: time), at: time)
    }

    /// Pixels per point now: the window's pixels per window coordinate (HiDPI platforms)
    /// times window coordinates per point (`--scale`).
    private func pixelScaleNow() -> Double {
        var w: Int32 = 0, h: Int32 = 0, pixelWidth: Int32 = 0, pixelHeight: Int32 = 0
        SDL_GetWindowSize(window.pointer, &w, &h)
        SDL_GetWindowSizeInPixels(window.pointer, &pixelWidth, &pixelHeight)
        guard w > 0, pixelWidth > 0 else { return coordinateScale }
        return Double(pixelWidth) / Double(w) * coordinateScale
    }

    /// Writes the `layout` trace line, at the time of the event that changed the layout
    /// (whether or not a frame is drawn then: also while minimized).
    private func traceLayout(at time: Duration) {
        let scale = pixelScaleNow()
        tracedPixelScale = scale
        trace.emit(.layout(session.layout, scale: scale, coordinateScale: coordinateScale), at: time)
    }

    /// Performs the session's effects for an input at `time` and traces them, stamped with
    /// that time.
    private func apply(_ effects: [KeyboardEffect], at now: Duration) {
        // Keystrokes for another application go out first, in their order: they are what the
        // user waits for (the trace lines and the sound of the same input follow).
        var effects = effects
        if effects.contains(where: { if case .send = $0 { true } else { false } }) {
            let sends = effects.filter { if case .send = $0 { true } else { false } }
            effects = sends + effects.filter { if case .send = $0 { false } else { true } }
        }
        for effect in effects {
            switch effect {
            case .layoutChanged:
                traceLayout(at: now)
                needsDisplay = true
            case .keyboardFrameChanged(let status, let frame):
                trace.emit(.keyboard(status, frame.scaled(by: coordinateScale)), at: now)
            case .keyTouched(let key, let down):
                trace.emit(.touch(key, down: down), at: now)
                if key == .hee && !down { bench?.releaseHandled() }
            case .heeCounted(let count):
                trace.emit(.hee(count: count, full: session.hee.isFull), at: now)
            case .countReset:
                trace.emit(.reset, at: now)
            case .setVolume(let volume):
                audio.setVolume(volume)
                settings?.settings.volume = volume
                SettingsSnapshot.publish(settings)
                trace.emit(.volume(volume), at: now)
            case .quit:
                running = false
            case .shiftChanged(let state):
                trace.emit(.shift(state), at: now)
            case .textChanged(let text, let caret):
                trace.emit(.text(text, caret: caret), at: now)
            case .compositionChanged(let text, let cursor):
                trace.emit(.composition(text, cursor: cursor), at: now)
            case .playSound(let name):
                let outcome = audio.press(at: now)
                emit(outcome, at: now)
                if outcome.started { trace.emit(.sound(name), at: now) }
                bench?.actionPerformed()
            case .startAudioEngine:
                // Opening the device (and loading SDL_mixer) waits until the first frame is on
                // screen: sound is not needed to show the window.
                guard firstFramePresented else {
                    audioStartPending = true
                    break
                }
                emit(audio.start(at: now), at: now)
            case .stopAudioEngine:
                audioStartPending = false
                emit(audio.stop(), at: now)
            case .startTextInput(let rect):
                let f = rect.scaled(by: coordinateScale)
                var r = SDL_Rect(x: Int32(f.x), y: Int32(f.y), w: Int32(f.width), h: Int32(f.height))
                SDL_SetTextInputRect(&r)
                SDL_StartTextInput()
            case .stopTextInput:
                SDL_StopTextInput()
            case .setClipboard(let text):
                SDL_SetClipboardText(text)
            case .send(let stroke):
                var dropped: String?
                if let systemMode {
                    do { try systemMode.send(stroke, at: clock.now) } catch { dropped = error.description }
                } else {
                    dropped = "keys cannot be sent (not X11)"
                }
                trace.emit(.send(stroke, dropped: dropped), at: now)
            case .needsDisplay:
                needsDisplay = true
            }
        }
    }

    /// Draws the session as it is at `now`, if anything visible changed.
    /// Tells the input method where the caret is, so its candidate window opens there.
    private func updateTextInputRect(windowPerPixel k: Double) {
        guard session.isTextFieldFocused, let caret = sceneRenderer.caretRect else { return }
        var r = SDL_Rect(x: Int32((Double(caret.x) * k).rounded()), y: Int32((Double(caret.y) * k).rounded()),
                         w: Int32(max((Double(caret.width) * k).rounded(), 1)), h: Int32((Double(caret.height) * k).rounded()))
        if let last = textInputRect, last.x == r.x, last.y == r.y, last.w == r.w, last.h == r.h { return }
        textInputRect = r
        SDL_SetTextInputRect(&r)
    }

    private func drawIfNeeded(at now: Duration) throws(SDLError) {
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
