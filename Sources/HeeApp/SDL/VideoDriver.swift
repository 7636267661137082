import CSDL

/// The SDL video driver the app runs on. This is the one place that says whether the window
/// is an X11 or a Wayland window: code that only makes sense on one of them (X11 window
/// hints, XTEST, our wl_shm presenter) asks `SDLContext.videoDriver`.
enum VideoDriver: Equatable, CustomStringConvertible {
    case x11
    case wayland
    /// SDL's invisible drivers (`offscreen`, `dummy`): benchmarks and headless replays.
    case headless(String)
    case other(String)

    /// The driver SDL is running (`SDL_GetCurrentVideoDriver`), after `SDL_Init`.
    static var current: VideoDriver {
        VideoDriver(name: SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none")
    }

    /// The driver SDL calls `name` (`SDL_GetCurrentVideoDriver`).
    init(name: String) {
        switch name {
        case "x11": self = .x11
        case "wayland": self = .wayland
        case "offscreen", "dummy": self = .headless(name)
        default: self = .other(name)
        }
    }

    /// SDL's name for the driver.
    var description: String {
        switch self {
        case .x11: "x11"
        case .wayland: "wayland"
        case .headless(let name), .other(let name): name
        }
    }
}
