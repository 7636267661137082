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
    private let renderer: Renderer
    private let window: Window
    private let audio: AudioEngine
    private let fonts: TTFLibrary
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
    private var pendingLayoutTrace = false
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
        let scale = configuration.scale
        AudioSubsystem.nameStreams()
        sdl = try SDLContext()
        fonts = try TTFLibrary()
        audio = AudioEngine(soundPath: AssetLocator.join(assetsDirectory, "sounds/hee.wav"), muted: configuration.mute,
                            volume: configuration.volume)
        let minimum = KeyboardLayout.minimumWindowSize
        strings = HostScreenText.of(configuration.language)
        language = configuration.language
        let minimumSize = Size(width: (minimum.width * scale).rounded(.up), height: (minimum.height * scale).rounded(.up))
        let size = WindowStateKeeper.launchSize(for: configuration, minimum: minimumSize, display: sdl)
        window = try Window(context: sdl, title: strings.windowTitle, size: size, minimum: minimumSize,
                            maximized: configuration.maximized)
        if let x11 = X11WindowHandles(of: window.pointer) {
            X11WindowClass.set(on: x11)
            X11WindowLoss.watch(x11)
        }
        windowState = WindowStateKeeper(openedAt: size, maximized: configuration.maximized, coordinateScale: scale)
        let points = windowState.memory.normalSize
        renderer = try Renderer(window: window.pointer, flags: SDL_RENDERER_SOFTWARE.rawValue)
        textRenderer = try TextRenderer(renderer: renderer, library: fonts, assetsDirectory: assetsDirectory)
        sceneRenderer = SceneRenderer(renderer: textRenderer.renderer, text: textRenderer)
        self.assetsDirectory = assetsDirectory
        trace = TraceWriter(enabled: options.trace)
        coordinateScale = scale
        session = KeyboardSession(windowSize: points, limit: configuration.limit, volume: configuration.volume)
        translator = EventTranslator(windowSize: points, coordinateScale: scale)
        self.settings = settings
        SettingsSnapshot.publish(settings)
        self.recorder = recorder
        self.replay = replay
        exitWhenDone = options.exitWhenDone
        benchPresses = options.benchPresses
        benchInterval = .milliseconds(options.benchInterval)
        trace.emit(.settings(configuration), at: clock.now)
    }

    /// The bundled font that could not be opened, if drawing failed because of one.
    var failedFont: TextRenderer.FontError? { textRenderer.failedFont }

    /// The window icon's size in pixels.
    static let windowIconSize = 64

    /// Runs until the window is closed (or, with `--exit-when-done`, the replay has ended).
    /// - Throws: `SDLError` when drawing fails.
    func run() throws(SDLError) {
        SDL_StopTextInput()
        apply(session.handle(.launched, at: clock.now))
        try drawIfNeeded(at: clock.now)
        window.show()
        if sdl.hasRealDisplay { windowState.windowShown(at: clock.now) }
        iconTime = clock.now + .milliseconds(300)
        if let benchPresses {
            let target = session.layout.heeFrame.center
            bench = BenchDriver(presses: benchPresses, interval: benchInterval,
                                target: Point(x: target.x * coordinateScale, y: target.y * coordinateScale),
                                windowID: window.id, start: clock.now)
        }
        if let recorder {
            // A recording starts with the window's size, so its replay lays out the same keys.
            var record = InputRecord(t: Int(SDL_GetTicks()), type: .window)
            record.event = .resized
            record.w = Int(window.size.width)
            record.h = Int(window.size.height)
            recorder.write(record)
        }
        let replayBase = clock.now
        if !replay.isEmpty { clock.freeze() }
        if exitWhenDone && replay.isEmpty { finishReplay() }

        var event = SDL_Event()
        while running {
            // One clock reading per turn: the tick, the frame and the decision how long to
            // sleep all use it, so an animation that ends in between is never missed.
            let now = clock.now
            if X11WindowLoss.windowLost { break }
            windowState.fitFrameToDisplay(window, at: now)
            apply(session.handle(.tick, at: now))
            emit(audio.tick(at: now), at: now)
            if let bench {
                if bench.isDone { break }
                bench.tick(now: now)
            }
            let animating = session.isAnimating(at: now)
            try drawIfNeeded(at: now)
            // A frame drawn mid-animation is followed by at least one more, so the final
            // frame (the animation's end state) is always drawn.
            if animating { needsDisplay = true }

            if replayIndex < replay.count {
                feedReplay(base: replayBase)
                while running, SDL_PollEvent(&event) != 0 { handle(event, at: clock.time(ofTimestamp: event.common.timestamp), live: true) }
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
                                      iconSet ? nil : iconTime, windowState.deadline(after: now)]
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
        emit(audio.stop(), at: clock.now)
        settingsChanged()
        settings?.save()
    }

    /// Brings the saved settings up to date with what the user changed in the app (volume,
    /// window size, maximized; values that came from flags are not saved) and publishes them
    /// for a save outside the loop (`SettingsSnapshot`).
    private func settingsChanged() {
        guard settings != nil else { return }
        windowState.save(into: &settings!.settings)
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
        let started = SDL_GetTicks64()
        repeat {
            let record = replay[replayIndex]
            replayIndex += 1
            let time = base + .milliseconds(Int64(record.t - first))
            // Whatever was due before this event (a key repeat, an animation's end) happens
            // first, at its own time.
            while let deadline = session.nextDeadline(after: clock.now), deadline < time {
                clock.advance(to: deadline)
                apply(session.handle(.tick, at: deadline))
            }
            clock.advance(to: time)
            if record.type == .window, record.event == .resized, let w = record.w, let h = record.h {
                SDL_SetWindowSize(window.pointer, Int32(w), Int32(h))
            }
            for event in record.sdlEvents(windowID: window.id) {
                handle(event, at: time, live: false)
            }
        } while running && replayIndex < replay.count && SDL_GetTicks64() - started < UInt64(Self.replayBatch.seconds * 1000)
    }

    /// After the last replayed event: lets running animations reach their end (in virtual
    /// time, at once), draws, and stops.
    private func finishReplay() {
        let limit = clock.now + Self.replayDrain
        while let deadline = session.nextDeadline(after: clock.now), deadline <= limit {
            clock.advance(to: deadline)
            apply(session.handle(.tick, at: clock.now))
        }
        needsDisplay = true
        running = false
    }

    private func handle(_ event: SDL_Event, at time: Duration, live: Bool) {
        if live, let recorder, let record = InputRecord(recording: event) { recorder.write(record) }
        if X11WindowLoss.isWindowDestroyed(by: event) {
            running = false
            return
        }
        switch SDL_EventType(event.type) {
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
        switch translator.meaning(of: event) {
        case .input(let input):
            if case .windowResized(let size) = input {
                translator.windowSize = size
                if live {
                    windowState.resized(to: size, at: time)
                    settingsChanged()
                }
            }
            apply(session.handle(input, at: time))
        case .quit:
            running = false
        case .redraw:
            needsDisplay = true
        case .pasteRequested:
            if let raw = SDL_GetClipboardText() {
                let text = String(cString: raw)
                SDL_free(raw)
                apply(session.handle(.paste(text), at: time))
            }
        case .ignored:
            break
        }
        if SDL_EventType(event.type) == SDL_TEXTEDITING_EXT, let text = event.editExt.text { SDL_free(text) }
        placeCaretFromPointer(event, at: time)
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
            extending = SDL_GetModState().rawValue & KMOD_SHIFT.rawValue != 0
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
        apply(session.handle(.placeCaret(at: offset, extendingSelection: extending, clickCount: clicks), at: time))
    }

    /// Performs the session's effects and traces them.
    private func apply(_ effects: [KeyboardEffect]) {
        let now = clock.now
        for effect in effects {
            switch effect {
            case .layoutChanged:
                pendingLayoutTrace = true
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
        if SDL_GetWindowFlags(window.pointer) & SDL_WINDOW_MINIMIZED.rawValue != 0 { return }
        needsDisplay = false
        // Pixels per point: the drawable's pixels per window coordinate (HiDPI platforms)
        // times window coordinates per point (--scale).
        let (pixelWidth, _) = try renderer.outputSize()
        let scale = Double(pixelWidth) / max(window.size.width, 1) * coordinateScale
        pixelScale = scale
        try sceneRenderer.draw(Scene(session: session, at: now, language: language), pixelScale: scale)
        renderer.present()
        bench?.framePresented(now: now)
        if !firstFramePresented {
            firstFramePresented = true
            if audioStartPending {
                audioStartPending = false
                apply([.startAudioEngine])
            }
        }
        updateTextInputRect(windowPerPixel: coordinateScale / scale)
        if pendingLayoutTrace {
            pendingLayoutTrace = false
            trace.emit(.layout(session.layout, scale: scale, coordinateScale: coordinateScale), at: clock.now)
        }
    }
}
