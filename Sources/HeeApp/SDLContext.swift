import CSDL
import HeeRender

/// SDL's video and event subsystems, started in `init` and shut down in `deinit` (after
/// everything else that used them has been freed).
final class SDLContext {
    /// - Throws: `SDLError` from `SDL_Init`, e.g. when there is no display.
    init() throws(SDLError) {
        // SDL turns SIGINT and SIGTERM into SDL_QUIT, so they quit through the normal path.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "0")
        // Touches are handled as touches; the mouse events SDL synthesises from them are
        // ignored by `EventTranslator` (never both).
        SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1")
        try sdlCheck(SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS), "SDL_Init")
    }

    deinit { SDL_Quit() }

    /// Milliseconds since SDL started (the clock of event timestamps).
    var ticks: Duration { .milliseconds(Int64(SDL_GetTicks64())) }
}
