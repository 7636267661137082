#if canImport(Glibc)
import Glibc
#endif
import CSDL
import HeeRender

/// SDL's audio subsystem, started with the audio driver that gives the lowest latency on the
/// running sound server, and its streams named for desktop volume mixers.
///
/// SDL 2.26 tries PulseAudio first and its own PipeWire driver nearly last. On PipeWire
/// (Debian 12's desktop default) that means going through pipewire-pulse, which measured
/// 23–30 ms from press to first sample against about 12 ms with SDL's PipeWire driver (see
/// docs/performance.md). So, unless the user chose a driver with `SDL_AUDIODRIVER` (which
/// always wins), the PipeWire driver is tried first and kept when it finds an output device;
/// otherwise (real PulseAudio, ALSA only, or a PipeWire without audio outputs) SDL picks as
/// it always does.
enum AudioSubsystem {
    /// The driver tried first when the user has not chosen one.
    static let preferredDriver = "pipewire"

    /// What volume mixers show for the app's stream: its name and its icon (the icon theme
    /// name `make install` and the package install, as in `hee-keyboard.desktop`).
    static let applicationName = "Hee Keyboard"
    static let iconName = "hee-keyboard"

    /// Names the app's audio streams (application name, stream name, role, icon) for volume
    /// mixers. Call before any thread starts (it sets environment variables, which other
    /// threads must not be reading): the client libraries read them for what SDL 2.26 does
    /// not set — PulseAudio's `PULSE_PROP_…` (role and icon), PipeWire's `PIPEWIRE_PROPS`
    /// (icon). A value the user set is kept.
    static func nameStreams() {
        SDL_SetHint(SDL_HINT_APP_NAME, applicationName)
        SDL_SetHint(SDL_HINT_AUDIO_DEVICE_STREAM_NAME, applicationName)
        // PipeWire's role for what PulseAudio calls "event" (pipewire-pulse maps one to the
        // other): short sounds in answer to the user's actions.
        SDL_SetHint(SDL_HINT_AUDIO_DEVICE_STREAM_ROLE, "Notification")
        setenv("PULSE_PROP_media.role", "event", 0)
        setenv("PULSE_PROP_application.icon_name", iconName, 0)
        setenv("PIPEWIRE_PROPS", "{ application.icon-name = \"\(iconName)\" }", 0)
    }

    /// Starts the subsystem. Returns the driver's name.
    /// - Throws: `SDLError` when no driver could start.
    static func start() throws(SDLError) -> String {
        hee_silence_alsa()
        let chosen = SDL_getenv("SDL_AUDIODRIVER").map { String(cString: $0) } ?? ""
        if chosen.isEmpty {
            SDL_SetHint(SDL_HINT_AUDIODRIVER, preferredDriver)
            if SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 {
                if SDL_GetNumAudioDevices(0) > 0 { return currentDriver }
                SDL_QuitSubSystem(SDL_INIT_AUDIO)
            }
            SDL_ClearError()
            _ = SDL_ResetHint(SDL_HINT_AUDIODRIVER)
        }
        try sdlCheck(SDL_InitSubSystem(SDL_INIT_AUDIO), "SDL_InitSubSystem(SDL_INIT_AUDIO)")
        return currentDriver
    }

    /// Stops the subsystem (every device must be closed).
    static func stop() {
        SDL_QuitSubSystem(SDL_INIT_AUDIO)
    }

    /// Whether the subsystem is running.
    static var isStarted: Bool { SDL_WasInit(SDL_INIT_AUDIO) != 0 }

    /// The running driver's name (`pipewire`, `pulseaudio`, `alsa`, …).
    static var currentDriver: String {
        SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "none"
    }
}
