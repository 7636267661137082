import CSDL
import HeeRender
import KeyboardCore

/// The window and what is drawn on it: the presenter, the renderers and fonts, when a frame
/// is due, the pixel scale, the window icon and where the input method's candidate window
/// goes. The loop asks it to draw; it draws only when something visible changed.
final class Screen {
    // Declared in reverse order of teardown: Swift releases stored properties in order, so
    // the renderer's users go before the renderer, the window before the fonts' library.
    private(set) var sceneRenderer: SceneRenderer
    private let textRenderer: TextRenderer
    private let presenter: any FramePresenter
    let window: Window
    private let fonts: TTFLibrary
    private let language: Language
    private let assetsDirectory: String
    /// Window coordinates per point (`--scale`).
    let coordinateScale: Double

    /// Whether a frame is due (something visible changed).
    var needsDisplay = true
    /// Whether the window is minimized (from its window events, live or replayed): nothing
    /// is drawn meanwhile.
    var isMinimized = false
    /// Whether a frame has been presented since launch.
    private(set) var firstFramePresented = false
    /// Pixels per point at the last frame.
    private(set) var pixelScale = 1.0
    /// The pixel scale of the last `layout` trace line.
    var tracedPixelScale: Double?
    /// The caret's rectangle (window coordinates) last given to the input method.
    private var textInputRect: SDL_Rect?
    /// Whether the window icon is set (it is rendered at the first idle moment, off the
    /// start-up path), and when to set it: shortly after start, once the first frames are on
    /// screen.
    private var iconSet = false
    private var iconTime: Duration = .zero

    /// The window icon's size in pixels.
    static let windowIconSize = 64

    /// Draws on `window` through `presenter`.
    /// - Throws: `SDLError` when a bundled font cannot be opened.
    init(window: Window, presenter: any FramePresenter, fonts: TTFLibrary, language: Language,
         assetsDirectory: String, coordinateScale: Double) throws(SDLError) {
        self.window = window
        self.presenter = presenter
        self.fonts = fonts
        self.language = language
        self.assetsDirectory = assetsDirectory
        self.coordinateScale = coordinateScale
        textRenderer = try TextRenderer(renderer: presenter.renderer, library: fonts, assetsDirectory: assetsDirectory)
        // Text that cannot be drawn is left out, never fatal: one warning per reason.
        textRenderer.onSkippedText = { reason in
            Console.error("\(Console.program): warning: some text could not be drawn and is left out: \(reason)")
        }
        sceneRenderer = SceneRenderer(renderer: textRenderer.renderer, text: textRenderer)
    }

    /// The bundled font that could not be opened, if drawing failed because of one.
    var failedFont: TextRenderer.FontError? { textRenderer.failedFont }

    /// Draws `session` as it is at `now` (the app's clock) if a frame is due and the window is
    /// not minimized. Returns whether a frame was presented.
    /// - Throws: `SDLError` when a frame cannot be drawn or presented.
    @discardableResult
    func drawIfNeeded(_ session: KeyboardSession, at now: Duration) throws(SDLError) -> Bool {
        guard needsDisplay, !isMinimized else { return false }
        needsDisplay = false
        // Pixels per point: the drawable's pixels per window coordinate (HiDPI platforms)
        // times window coordinates per point (--scale).
        let (pixelWidth, _) = try presenter.beginFrame()
        let scale = Double(pixelWidth) / max(window.size.width, 1) * coordinateScale
        pixelScale = scale
        LatencyProbe.mark("scene")
        let scene = Scene(session: session, at: now, language: language)
        if presenter.keepsFrame {
            try presenter.present(damage: try sceneRenderer.drawChanges(scene, pixelScale: scale))
        } else {
            try sceneRenderer.draw(scene, pixelScale: scale)
            try presenter.present()
        }
        firstFramePresented = true
        if session.hostScreen.isTextFieldFocused { updateTextInputRect(windowPerPixel: coordinateScale / scale) }
        return true
    }

    /// Tells the presenter the window has just been shown, and schedules the icon.
    /// - Throws: `SDLError` when the frame drawn before cannot be handed to the display server.
    func windowShown(at now: Duration) throws(SDLError) {
        try presenter.windowShown()
        iconTime = now + .milliseconds(300)
    }

    /// When the window icon is due, until it is set.
    var iconDeadline: Duration? { iconSet ? nil : iconTime }

    /// Sets the window icon once it is due and nothing animates (rendering it takes a few
    /// milliseconds that must not delay a frame).
    func setIconIfDue(at now: Duration, animating: Bool) {
        guard !iconSet, now >= iconTime, !animating else { return }
        iconSet = true
        if let icon = try? IconRenderer.render(size: Self.windowIconSize, library: fonts, assetsDirectory: assetsDirectory) {
            window.setIcon(icon)
        }
    }

    /// Pixels per point now: the window's pixels per window coordinate (HiDPI platforms)
    /// times window coordinates per point (`--scale`).
    func pixelScaleNow() -> Double {
        if let pixels = presenter.pixelsPerWindowCoordinate { return pixels * coordinateScale }
        var w: Int32 = 0, h: Int32 = 0, pixelWidth: Int32 = 0, pixelHeight: Int32 = 0
        SDL_GetWindowSize(window.pointer, &w, &h)
        SDL_GetWindowSizeInPixels(window.pointer, &pixelWidth, &pixelHeight)
        guard w > 0, pixelWidth > 0 else { return coordinateScale }
        return Double(pixelWidth) / Double(w) * coordinateScale
    }

    /// The text field's caret position for a press at `x` (points) as drawn now: between
    /// characters, or (`clicks` 2) the character under it, whose word is selected.
    func textFieldOffset(atX x: Double, clicks: Int) -> Int {
        clicks == 2
            ? sceneRenderer.textFieldCharacterIndex(atX: x * pixelScale)
            : sceneRenderer.textFieldCharacterOffset(atX: x * pixelScale)
    }

    /// Tells the input method where the caret is, so its candidate window opens there.
    private func updateTextInputRect(windowPerPixel k: Double) {
        guard let caret = sceneRenderer.caretRect else { return }
        var r = SDL_Rect(x: Int32((Double(caret.x) * k).rounded()), y: Int32((Double(caret.y) * k).rounded()),
                         w: Int32(max((Double(caret.width) * k).rounded(), 1)), h: Int32((Double(caret.height) * k).rounded()))
        if let last = textInputRect, last.x == r.x, last.y == r.y, last.w == r.w, last.h == r.h { return }
        textInputRect = r
        SDL_SetTextInputRect(&r)
    }
}
