#if canImport(Glibc)
import Glibc
#endif
import CSDL
import HeeRender
import AppModel
import KeyboardCore

/// SDL's video and event subsystems, started in `init` and shut down in `deinit` (after
/// everything else that used them has been freed).
final class SDLContext {
    /// The display server SDL runs on (see `DisplayServerChoice` for how it is chosen).
    let videoDriver: VideoDriver

    /// The Wayland app id, which compositors match with `hee-keyboard.desktop` (its icon and
    /// name); X11's window class is set separately.
    static let waylandAppID = "hee-keyboard"

    /// Chooses the display server (`DisplayServerChoice`) and starts SDL on it.
    /// - Parameter preferX11: X11 first when there is an X server, even in a Wayland session
    ///   (for what works through X11 only); otherwise Wayland first.
    /// - Throws: `SDLError` from `SDL_Init`, e.g. when there is no display, or when the only
    ///   display is a Wayland compositor SDL 2.26 would crash on.
    init(preferX11: Bool = false) throws(SDLError) {
        switch DisplayServerChoice.decide(environment: FileSystem.environment, preferX11: preferX11,
                                          probeWayland: WaylandCompositorProbe.run) {
        case .sdlDefault:
            break
        case .drivers(let drivers, let warning):
            SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers)
            if let warning { Console.error("\(Console.program): warning: \(warning)") }
        case .refuse(let message):
            throw SDLError("SDL_Init", message: message)
        }
        setenv("SDL_VIDEO_WAYLAND_WMCLASS", Self.waylandAppID, 0)
        // SDL turns SIGINT and SIGTERM into SDL_QUIT, so they quit through the normal path.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "0")
        // Touches are handled as touches; the mouse events SDL synthesises from them are
        // ignored by `EventTranslator` (never both).
        SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1")
        // We draw with SDL's software renderer (see docs/performance.md); without this
        // hint SDL would present its frames through an OpenGL texture, loading Mesa and LLVM
        // (+90 MB resident, +90 ms start-up) for nothing.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        // Long IME compositions arrive whole (SDL_TEXTEDITING_EXT) instead of cut at 32 bytes.
        SDL_SetHint(SDL_HINT_IME_SUPPORT_EXTENDED_TEXT, "1")
        // Show the composition ourselves, at the caret (not in the IME's own window).
        SDL_SetHint(SDL_HINT_IME_SHOW_UI, "0")
        // Before SDL_Init, so SDL's X11 driver keeps them (see X11WindowLoss).
        X11WindowLoss.installHandlers()
        if SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER) < 0 {
            let error = SDLError("SDL_Init")
            if let unknown = Self.unknownRequestedDriver() { throw SDLError("SDL_Init", message: unknown) }
            if let display = SDL_getenv("DISPLAY").map({ String(cString: $0) }), !display.isEmpty {
                throw SDLError("SDL_Init", message: "cannot open display '\(display)' (is the X server running?)")
            }
            throw error
        }
        // Without a display SDL falls back to its invisible offscreen driver; a window nobody
        // can see is an error unless that driver was asked for (benchmarks do).
        videoDriver = .current
        if videoDriver != .x11 { X11WindowLoss.removeHandlers() }
        if case .headless = videoDriver, SDL_getenv("SDL_VIDEODRIVER") == nil {
            SDL_Quit()
            if let display = SDL_getenv("DISPLAY").map({ String(cString: $0) }), !display.isEmpty {
                throw SDLError("SDL_Init", message: "cannot open display '\(display)' (is the X server running?)")
            }
            throw SDLError("SDL_Init", message: "no display to open a window on (set DISPLAY or WAYLAND_DISPLAY)")
        }
    }

    deinit { SDL_Quit() }

    /// One line saying that `SDL_VIDEODRIVER` names no driver this SDL was built with (and
    /// which it has), or `nil` when it is unset or names one.
    static func unknownRequestedDriver() -> String? {
        guard let requested = SDL_getenv("SDL_VIDEODRIVER").map({ String(cString: $0) }), !requested.isEmpty else { return nil }
        let available = (0..<max(0, SDL_GetNumVideoDrivers())).compactMap { SDL_GetVideoDriver($0).map { String(cString: $0) } }
        let names = requested.lowercased().split(separator: ",").map(String.init)
        guard !names.contains(where: { available.contains($0) }) else { return nil }
        return "the video driver '\(requested)' named by SDL_VIDEODRIVER is not available (SDL has: \(available.joined(separator: ", ")))"
    }

    /// Whether windows go to a real display (not SDL's invisible offscreen or dummy driver,
    /// whose "display" has no size worth fitting a window to).
    var hasRealDisplay: Bool {
        if case .headless = videoDriver { return false }
        return true
    }
}
