import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// The command line and the environment, read as main.swift reads them: LaunchOptions.parse on
// the arguments, then the run's configuration from the saved settings and the environment, and
// the display server chosen from the environment (DisplayServerChoice, as SDLContext asks it).
// The bytes are split at NUL into arguments, as the kernel hands argv over; each is decoded as
// CommandLine.arguments decodes it (invalid UTF-8 replaced). An argument starting with byte
// 0x01 is an environment entry NAME=VALUE instead (LANG, GDK_SCALE, WAYLAND_DISPLAY, ...).
//
// Promises checked: no crash, hang or unbounded memory; a usage error, and a display refusal
// or warning, is one line; what is accepted is in range (volume 0-100, limit 1-99, a size
// between the mode's minimum and 16384, scale 0.5-8); --exit-when-done comes with --replay,
// --bench-interval with --bench-presses, and --record never names the --replay file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLaunchOptions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var arguments: [String] = []
    var environment: [String: String] = [:]
    for field in fuzzBytes(data, size).split(separator: 0, omittingEmptySubsequences: false) {
        if field.first == 1 {
            let entry = String(decoding: field.dropFirst(), as: UTF8.self)
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            environment[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        } else {
            arguments.append(String(decoding: field, as: UTF8.self))
        }
    }
    if arguments == [""] { arguments = [] }  // no bytes: no argument

    let command: LaunchOptions.Command
    do {
        command = try LaunchOptions.parse(arguments)
    } catch {
        require(isOneLine(error.message), "usage error is not one line: \(error.message.debugDescription)")
        return 0
    }
    guard case .run(let options) = command else { return 0 }
    if let volume = options.volume { require(Settings.volumeRange.contains(volume), "volume \(volume)") }
    if let limit = options.limit { require(Settings.limitRange.contains(limit), "limit \(limit)") }
    if let scale = options.scale { require(LaunchOptions.scaleRange.contains(scale), "scale \(scale)") }
    require(!options.exitWhenDone || options.replayPath != nil, "--exit-when-done without --replay")
    require(options.benchPresses != nil || options.benchInterval == 0, "--bench-interval without --bench-presses")
    require(options.recordPath == nil || options.recordPath != options.replayPath, "--record names the --replay file")

    // The display server, chosen from the same environment before SDL starts (SDLContext),
    // for each answer a Wayland compositor may give.
    for probe in [DisplayServerChoice.WaylandProbe.usable, .noSeat, .unreachable] {
        switch DisplayServerChoice.decide(environment: environment, preferX11: options.system, probeWayland: { probe }) {
        case .refuse(let message):
            require(isOneLine(message), "display refusal is not one line: \(message.debugDescription)")
        case .drivers(_, let warning?):
            require(isOneLine(warning), "display warning is not one line: \(warning.debugDescription)")
        default:
            break
        }
    }
    for settings in [Settings(), savedSettings()] {
        let run = options.configuration(settings: settings, environment: environment)
        let minimum = KeyboardLayout.minimumWindowSize(for: options.system ? .system : .hostScreen)
        require(run.windowSize.width >= minimum.width && run.windowSize.height >= minimum.height,
                "window \(run.windowSize) below the minimum \(minimum)")
        require(run.windowSize.width <= 16384 && run.windowSize.height <= 16384, "window \(run.windowSize) too large")
        require(LaunchOptions.scaleRange.contains(run.scale), "scale \(run.scale)")
        require(Settings.volumeRange.contains(run.volume), "volume \(run.volume)")
        require(run.limit.map(Settings.limitRange.contains) ?? true, "limit \(String(describing: run.limit))")
    }
    return 0
}

/// Settings as a saved file might hold them: every field away from its default.
func savedSettings() -> Settings {
    var settings = Settings()
    settings.mute = true
    settings.volume = 30
    settings.windowWidth = 700
    settings.windowHeight = 1000
    settings.maximized = true
    settings.limit = 20
    return settings
}
