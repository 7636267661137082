import AppModel
import CSDL
import HeeRender
import KeyboardCore

/// Setting the app up: SDL, the window and how its frames reach the screen, fonts, audio,
/// the session, and system mode's platform layer.
extension Application {
    /// Sets everything up (the window stays hidden until the first frame is drawn).
    /// - Parameters:
    ///   - configuration: this run's settings (saved settings with the flags on top).
    ///   - definition: the keyboard layout (read from its file, or the built-in `en`).
    ///   - globeLayouts: the layouts the globe key switches between (the `layouts` setting).
    ///   - settings: the saved settings, updated when the user changes volume or window size
    ///     and saved at quit; `nil` when nothing is saved (replays).
    ///   - replay: events to feed after launch (`--replay`), already validated.
    ///   - recorder: where to write live input events (`--record`).
    /// - Throws: `SDLError` when SDL, the window, the renderer or a bundled font fails.
    convenience init(options: LaunchOptions, configuration: RunConfiguration, definition: LayoutDefinition,
                     globeLayouts: [LayoutDefinition], settings: SettingsStore?,
                     assetsDirectory: String, replay: [InputRecord], recorder: InputRecorder?) throws(SDLError) {
        let mode: KeyboardMode = options.system ? .system : .hostScreen
        AudioSubsystem.nameStreams()
        // System mode on a compositor with the layer shell and the virtual keyboard: natively,
        // on a connection of its own. Elsewhere its keys go out through X11 (XTEST): on a
        // Wayland desktop without those protocols, through XWayland.
        var waylandConnection: WaylandConnection?
        var waylandFailure: String?
        if options.system, WaylandSystemMode.sessionOffersWayland(FileSystem.environment) {
            switch WaylandSystemMode.connect() {
            case .success(let connection): waylandConnection = connection
            case .failure(let failure): waylandFailure = failure.description
            }
        }
        let sdl = try SDLContext(preferX11: options.system && waylandConnection == nil)
        if sdl.videoDriver != .wayland { waylandConnection = nil }
        var configuration = configuration
        if sdl.videoDriver == .wayland, options.scale == nil {
            // The compositor gives each output's scale (drawn at it, see Screen.drawIfNeeded);
            // GDK_SCALE is how X11 desktops say it, and applies there only.
            configuration.scale = 1
        }
        let scale = configuration.scale
        let fonts = try TTFLibrary()
        let audio = AudioEngine(soundPath: AssetLocator.join(assetsDirectory, "sounds/hee.wav"), muted: configuration.mute,
                                volume: configuration.volume)
        let desktopKeys = configuration.desktopKeys
        let minimum = KeyboardLayout.minimumWindowSize(for: mode, definitions: globeLayouts + [definition], desktopKeys: desktopKeys,
                                                       phoneDock: configuration.phoneDock)
        let strings = HostScreenText.of(configuration.language)
        let minimumSize = Size(width: (minimum.width * scale).rounded(.up), height: (minimum.height * scale).rounded(.up))
        var size = WindowStateKeeper.launchSize(for: configuration, minimum: minimumSize, display: sdl)
        let window = try Window(context: sdl, title: strings.windowTitle, size: size, minimum: minimumSize,
                                maximized: configuration.maximized,
                                extraFlags: mode == .system ? SDL_WINDOW_ALWAYS_ON_TOP.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue : 0)
        var x11Display: OpaquePointer?
        if let x11 = X11WindowHandles(of: window.pointer) {
            x11Display = x11.display
            X11WindowClass.set(on: x11)
            X11WindowLoss.watch(x11)
        }
        var wayland: WaylandSystemMode?
        if let waylandConnection {
            do throws(KeySendFailure) {
                wayland = try WaylandSystemMode(connection: waylandConnection, window: window, height: Int(size.height),
                                                floating: options.floating, readyText: HeeButtonModel.insertedText)
                size = window.size  // docked: as wide as the output
            } catch {
                waylandFailure = error.description
            }
        }
        let windowState = WindowStateKeeper(openedAt: size, minimum: minimumSize,
                                            maximized: wayland == nil && configuration.maximized, coordinateScale: scale)
        let presenter: any FramePresenter = if let wayland {
            wayland.presenter
        } else if sdl.videoDriver == .wayland {
            try WaylandPresenter(window: window)
        } else {
            try WindowPresenter(window: window)
        }
        let screen = try Screen(window: window, presenter: presenter, fonts: fonts, language: configuration.language,
                                assetsDirectory: assetsDirectory, coordinateScale: scale)
        let points = windowState.memory.normalSize
        let session = KeyboardSession(windowSize: points, limit: configuration.limit, volume: configuration.volume, mode: mode,
                                      definition: definition, desktopKeys: desktopKeys, layouts: globeLayouts,
                                      flickOnly: settings?.settings.flickOnly ?? false,
                                      autoShow: configuration.autoShow && (wayland?.tellsFocusedField ?? (sdl.videoDriver == .x11)),
                                      emojiRecents: settings?.settings.emojiRecents ?? [],
                                      phoneDock: configuration.phoneDock)
        self.init(screen: screen, audio: audio, clipboard: Clipboard(x11Display: x11Display), sdl: sdl, session: session,
                  settings: settings, windowState: windowState, translator: EventTranslator(windowSize: points, coordinateScale: scale),
                  trace: TraceWriter(enabled: options.trace), configuration: configuration, recorder: recorder,
                  replay: ReplayCursor(records: replay, exitWhenDone: options.exitWhenDone),
                  benchPlan: options.benchPresses.map { ($0, .milliseconds(options.benchInterval), options.benchGesture) })
        self.assetsDirectory = assetsDirectory
        SettingsSnapshot.publish(settings)
        if options.replayPath != nil {
            // A replay's time is the file's, from zero: its trace is the same on every run.
            clock.freeze(at: .zero)
            audio.followsVirtualTime = true
        }
        if sdl.videoDriver == .wayland {
            // Without it the app still runs; a touch the compositor takes back then stays
            // down until the next touch (SDL 2.26 drops wl_touch.cancel).
            touchCancelWatch = try? WaylandTouchCancelWatch(window: window)
        }
        if mode == .system { startSystemMode(wayland: wayland, waylandFailure: waylandFailure) }
    }
}
