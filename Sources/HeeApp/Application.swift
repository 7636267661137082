import CSDL
import HeeRender
import KeyboardCore

/// Owns the window, renderer, fonts, audio and session, and runs the event loop.
///
/// The loop blocks in `SDL_WaitEvent` while nothing moves; while an animation runs it waits
/// at most one frame (16 ms) and draws. Frames are drawn only when the session says
/// something visible changed.
final class Application {
    /// The window title.
    static let title = "へぇキーボード"
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
    private var translator: EventTranslator
    private let trace: TraceWriter
    private var clock = AppClock()
    /// Window coordinates per point (`--scale`).
    private let coordinateScale: Double
    private let recorder: InputRecorder?
    private let replay: [InputRecord]
    private var replayIndex = 0
    private let exitWhenDone: Bool
    private var needsDisplay = true
    private var pendingLayoutTrace = false
    private var running = true

    /// How long the app may spend feeding replayed events before it draws a frame.
    static let replayBatch: Duration = .milliseconds(8)
    /// After the last replayed event, animations still running get at most this much
    /// (virtual) time to finish before `--exit-when-done` quits.
    static let replayDrain: Duration = .seconds(1)

    /// Sets everything up (the window stays hidden until the first frame is drawn).
    /// - Parameters:
    ///   - scale: window coordinates per point (`--scale`, or the desktop's).
    ///   - replay: events to feed after launch (`--replay`), already validated.
    ///   - recorder: where to write live input events (`--record`).
    /// - Throws: `SDLError` when SDL, the window, the renderer or a bundled font fails.
    init(options: LaunchOptions, assetsDirectory: String, scale: Double, replay: [InputRecord],
         recorder: InputRecorder?) throws(SDLError) {
        sdl = try SDLContext()
        fonts = try TTFLibrary()
        audio = AudioEngine(soundPath: AssetLocator.join(assetsDirectory, "sounds/hee.wav"), muted: options.mute)
        let minimum = KeyboardLayout.minimumWindowSize
        window = try Window(context: sdl, title: Self.title,
                            size: Size(width: (options.windowSize.width * scale).rounded(),
                                       height: (options.windowSize.height * scale).rounded()),
                            minimum: Size(width: (minimum.width * scale).rounded(.up),
                                          height: (minimum.height * scale).rounded(.up)))
        renderer = try Renderer(window: window.pointer, flags: SDL_RENDERER_SOFTWARE.rawValue)
        textRenderer = try TextRenderer(renderer: renderer, library: fonts, assetsDirectory: assetsDirectory)
        sceneRenderer = SceneRenderer(renderer: textRenderer.renderer, text: textRenderer)
        trace = TraceWriter(enabled: options.trace)
        coordinateScale = scale
        session = KeyboardSession(windowSize: options.windowSize)
        translator = EventTranslator(windowSize: options.windowSize, coordinateScale: scale)
        self.recorder = recorder
        self.replay = replay
        exitWhenDone = options.exitWhenDone
    }

    /// Runs until the window is closed (or, with `--exit-when-done`, the replay has ended).
    /// - Throws: `SDLError` when drawing fails.
    func run() throws(SDLError) {
        SDL_StopTextInput()
        apply(session.handle(.launched, at: clock.now))
        try drawIfNeeded(at: clock.now)
        window.show()
        let replayBase = clock.now
        if exitWhenDone && replay.isEmpty { finishReplay() }

        var event = SDL_Event()
        while running {
            // One clock reading per turn: the tick, the frame and the decision how long to
            // sleep all use it, so an animation that ends in between is never missed.
            let now = clock.now
            apply(session.handle(.tick, at: now))
            let animating = session.isAnimating(at: now)
            try drawIfNeeded(at: now)
            // A frame drawn mid-animation is followed by at least one more, so the final
            // frame (the animation's end state) is always drawn.
            if animating { needsDisplay = true }

            if replayIndex < replay.count {
                feedReplay(base: replayBase)
                while running, SDL_PollEvent(&event) != 0 { handle(event, at: clock.time(ofTimestamp: event.common.timestamp), live: true) }
                if replayIndex == replay.count && exitWhenDone { finishReplay() }
                continue
            }

            let gotEvent: Bool
            if animating {
                gotEvent = SDL_WaitEventTimeout(&event, Int32(Self.frameInterval.seconds * 1000)) != 0
            } else if let deadline = session.nextDeadline(after: now) {
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
        try drawIfNeeded(at: clock.now)
        audio.stop()
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
        switch translator.meaning(of: event) {
        case .input(let input):
            if case .windowResized(let size) = input { translator.windowSize = size }
            apply(session.handle(input, at: time))
        case .quit:
            running = false
        case .redraw:
            needsDisplay = true
        case .ignored:
            break
        }
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
            case .heeCounted(let count):
                trace.emit(.hee(count: count), at: now)
            case .shiftChanged(let state):
                trace.emit(.shift(state), at: now)
            case .textChanged(let text, let caret):
                trace.emit(.text(text, caret: caret), at: now)
            case .playSound(let name):
                if audio.play() { trace.emit(.sound(name), at: now) }
            case .startAudioEngine:
                if let outcome = audio.start() { trace.emit(outcome, at: now) }
            case .stopAudioEngine:
                if audio.stop() { trace.emit(.audioClosed, at: now) }
            case .startTextInput(let rect):
                let f = rect.scaled(by: coordinateScale)
                var r = SDL_Rect(x: Int32(f.x), y: Int32(f.y), w: Int32(f.width), h: Int32(f.height))
                SDL_SetTextInputRect(&r)
                SDL_StartTextInput()
            case .stopTextInput:
                SDL_StopTextInput()
            case .needsDisplay:
                needsDisplay = true
            }
        }
    }

    /// Draws the session as it is at `now`, if anything visible changed.
    private func drawIfNeeded(at now: Duration) throws(SDLError) {
        guard needsDisplay else { return }
        if SDL_GetWindowFlags(window.pointer) & SDL_WINDOW_MINIMIZED.rawValue != 0 { return }
        needsDisplay = false
        // Pixels per point: the drawable's pixels per window coordinate (HiDPI platforms)
        // times window coordinates per point (--scale).
        let (pixelWidth, _) = try renderer.outputSize()
        let scale = Double(pixelWidth) / max(window.size.width, 1) * coordinateScale
        try sceneRenderer.draw(Scene(session: session, at: now), pixelScale: scale)
        renderer.present()
        if pendingLayoutTrace {
            pendingLayoutTrace = false
            trace.emit(.layout(session.layout, scale: scale, coordinateScale: coordinateScale), at: now)
        }
    }
}
