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
    private var needsDisplay = true
    private var pendingLayoutTrace = false
    private var running = true

    /// Sets everything up (the window stays hidden until the first frame is drawn).
    /// - Throws: `SDLError` when SDL, the window, the renderer or a bundled font fails.
    init(options: LaunchOptions, assetsDirectory: String) throws(SDLError) {
        sdl = try SDLContext()
        fonts = try TTFLibrary()
        audio = AudioEngine(soundPath: AssetLocator.join(assetsDirectory, "sounds/hee.wav"), muted: options.mute)
        window = try Window(context: sdl, title: Self.title, size: options.windowSize,
                            minimum: KeyboardLayout.minimumWindowSize)
        renderer = try Renderer(window: window.pointer, flags: SDL_RENDERER_SOFTWARE.rawValue)
        textRenderer = try TextRenderer(renderer: renderer, library: fonts, assetsDirectory: assetsDirectory)
        sceneRenderer = SceneRenderer(renderer: textRenderer.renderer, text: textRenderer)
        trace = TraceWriter(enabled: options.trace)
        session = KeyboardSession(windowSize: options.windowSize)
        translator = EventTranslator(windowSize: options.windowSize)
    }

    /// Runs until the window is closed.
    /// - Throws: `SDLError` when drawing fails.
    func run() throws(SDLError) {
        SDL_StopTextInput()
        apply(session.handle(.launched, at: sdl.ticks))
        try drawIfNeeded(at: sdl.ticks)
        window.show()

        var event = SDL_Event()
        while running {
            // One clock reading per turn: the tick, the frame and the decision how long to
            // sleep all use it, so an animation that ends in between is never missed.
            let now = sdl.ticks
            apply(session.handle(.tick, at: now))
            let animating = session.isAnimating(at: now)
            try drawIfNeeded(at: now)
            // A frame drawn mid-animation is followed by at least one more, so the final
            // frame (the animation's end state) is always drawn.
            if animating { needsDisplay = true }

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
                handle(event)
                while running, SDL_PollEvent(&event) != 0 { handle(event) }
            }
        }
        audio.stop()
    }

    private func handle(_ event: SDL_Event) {
        let (meaning, time) = translator.translate(event)
        switch meaning {
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
        let now = sdl.ticks
        for effect in effects {
            switch effect {
            case .layoutChanged:
                pendingLayoutTrace = true
                needsDisplay = true
            case .keyboardFrameChanged(let status, let frame):
                trace.emit(.keyboard(status, frame), at: now)
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
                var r = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
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
        let (pixelWidth, _) = try renderer.outputSize()
        let scale = Double(pixelWidth) / max(window.size.width, 1)
        try sceneRenderer.draw(Scene(session: session, at: now), pixelScale: scale)
        renderer.present()
        if pendingLayoutTrace {
            pendingLayoutTrace = false
            trace.emit(.layout(session.layout, scale: scale), at: now)
        }
    }
}
