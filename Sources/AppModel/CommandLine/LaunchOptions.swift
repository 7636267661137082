import KeyboardCore
/// The command line of `HeeApp`, parsed without touching the process (testable).
///
/// `HeeApp [--system] [--trace] [--mute] [--volume N] [--limit N] [--lang ja|en] [--size WxH]
/// [--scale F] [--assets DIR] [--record FILE] [--replay FILE [--exit-when-done]] [--help] [--version]`
///
/// Flags that have a setting (`--mute`/`--no-mute`, `--volume`, `--limit`, `--size`) override it for
/// this run only; they are not saved.
public struct LaunchOptions: Hashable, Sendable {
    /// The program's version, printed by `--version`.
    public static let version = "0.1.0"

    /// Write JSON Lines trace events to stdout.
    public var trace = false
    /// System mode (`--system`): a keyboard-only window typing into the focused window of
    /// the desktop instead of the host screen's text field.
    public var system = false
    /// Never open an audio device (`--mute`).
    public var mute = false
    /// Sound on for this run even if the saved settings say mute (`--no-mute`).
    public var unmute = false
    /// Initial window size in points (`--size WxH`); `nil`: the saved size.
    public var windowSize: Size?
    /// Playback volume 0...100 (`--volume`); `nil`: the saved volume.
    public var volume: Int?
    /// The show's limit 1...99 (`--limit`); `nil`: the saved limit, if any.
    public var limit: Int?
    /// Label language (`--lang`); `nil`: from the locale.
    public var language: Language?
    /// Where `fonts/` and `sounds/` are (`--assets DIR`); `nil`: found next to the binary.
    public var assetsDirectory: String?
    /// Window coordinates per point (`--scale F`); `nil`: from the desktop (`GDK_SCALE`), else 1.
    public var scale: Double?
    /// Write every input event to this file (`--record FILE`).
    public var recordPath: String?
    /// Feed the input events of this file through the app (`--replay FILE`).
    public var replayPath: String?
    /// Quit after the last replayed event (`--exit-when-done`, with `--replay`).
    public var exitWhenDone = false
    /// Benchmark driver: press the へぇ button this many times, print timings, quit
    /// (`--bench-presses N`, used by `make bench`).
    public var benchPresses: Int?
    /// Milliseconds between a benchmark press's release and the next press.
    public var benchInterval = 0

    /// What this run uses: the saved `settings` with the command line's overrides on top,
    /// and the language from `--lang` or the locale in `environment`.
    public func configuration(settings: Settings, environment: [String: String]) -> RunConfiguration {
        RunConfiguration(mute: unmute ? false : (mute || settings.mute),
                         volume: volume ?? settings.volume,
                         limit: limit ?? settings.limit,
                         // System mode's window is another shape: the saved size is the host's.
                         windowSize: windowSize ?? (system ? KeyboardLayout.defaultSystemWindowSize : settings.windowSize),
                         language: language ?? Language.fromLocale(environment: environment),
                         scale: resolvedScale(environment: environment),
                         maximized: windowSize == nil && !system && settings.maximized)
    }

    /// The scale range `--scale` accepts.
    public static let scaleRange = 0.5...8.0

    /// The scale to use: `--scale` if given, else the desktop's integer `GDK_SCALE` if it is
    /// set and valid, else 1.
    public func resolvedScale(environment: [String: String]) -> Double {
        if let scale { return scale }
        if let value = environment["GDK_SCALE"], let s = Int(value), s >= 1, Double(s) <= Self.scaleRange.upperBound {
            return Double(s)
        }
        return 1
    }

    public init() {}

    /// What the command line asks for.
    public enum Command: Hashable, Sendable {
        case run(LaunchOptions)
        case help
        case version
    }

    /// A command line that cannot be used; `message` is one line without the program name (an
    /// argument in it is shown with its control characters escaped). The app prints it with
    /// the usage and exits with status 64 (`EX_USAGE`).
    public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The usage text printed by `--help` and after a usage error.
    public static let usage = """
        usage: HeeApp [--system] [--trace] [--[no-]mute] [--volume N] [--limit N] [--lang ja|en]
                      [--size WxH] [--scale F] [--assets DIR] [--record FILE]
                      [--replay FILE [--exit-when-done]] [--help] [--version]
          --system       keyboard only: type into whatever window has the keyboard focus
                         (X11; the window never takes the focus and stays on top)
          --trace        write JSON Lines events (layout, keyboard, touch, hee, shift, text,
                         audio, sound, volume, reset) to stdout, one per line, flushed at once
          --mute         no sound this run: never open an audio device (default: the saved
                         setting, sound on)
          --no-mute      sound this run even if the saved settings say mute
          --volume N     volume 0-100 for this run (default: the saved setting, 100)
          --limit N      the show's rule: the counter stops at N, 1-99, and further presses
                         do nothing until the count is reset (default: the saved setting, none)
          --lang ja|en   label language (default: from LC_ALL / LC_MESSAGES / LANG)
          --size WxH     window size in points (default: the saved size, 480x800; minimum:
                         \(Int(KeyboardLayout.minimumWindowSize.width))x\(Int(KeyboardLayout.minimumWindowSize.height)), maximum: 16384x16384; with --system:
                         \(Int(KeyboardLayout.defaultSystemWindowSize.width))x\(Int(KeyboardLayout.defaultSystemWindowSize.height)), minimum \(Int(KeyboardLayout.minimumWindowSize(for: .system).width))x\(Int(KeyboardLayout.minimumWindowSize(for: .system).height)), not saved)
          --scale F      pixels per point, 0.5-8 (default: GDK_SCALE if set, else 1); the
                         window is the size times F, drawn sharp at that scale
          --assets DIR   directory holding fonts/ and sounds/ (default: found next to the
                         program or in the source tree it was built from)
          --record FILE  write every input event (mouse, finger, keyboard, text, window) to
                         FILE as JSON Lines with its SDL timestamp
          --replay FILE  feed FILE's events through the app as if they happened, with their
                         own timestamps (format: README, "Record and replay")
          --exit-when-done  with --replay: quit after the last event (animations finish first)
          --bench-presses N [--bench-interval MS]  benchmark driver for `make bench`: press
                         the へぇ button N times through SDL's event queue, print timings as
                         one JSON line, quit
          --help         show this help and exit
          --version      print the version and exit
        """

    /// Parses `arguments` (without the program name).
    /// - Throws: `UsageError` for an unknown flag, a missing or malformed value, or a size
    ///   outside `KeyboardLayout.minimumWindowSize`...16384.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var options = LaunchOptions()
        // Every argument is checked before --help or --version is honoured, so a typo next
        // to them is still reported.
        var wantsHelp = false, wantsVersion = false
        var sawBenchInterval = false
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            var flag = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                flag = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = iterator.next() else { throw UsageError(message: "\(flag) needs a value") }
                return next
            }
            func noValue() throws(UsageError) {
                if inlineValue != nil { throw UsageError(message: "\(flag) takes no value") }
            }
            switch flag {
            case "--help", "-h":
                try noValue()
                wantsHelp = true
            case "--version":
                try noValue()
                wantsVersion = true
            case "--trace":
                try noValue()
                options.trace = true
            case "--system":
                try noValue()
                options.system = true
            case "--mute", "--no-mute":
                try noValue()
                // The last of the two wins.
                options.mute = flag == "--mute"
                options.unmute = flag == "--no-mute"
            case "--size":
                options.windowSize = try parseSize(try value())
            case "--scale":
                let text = try value()
                guard let scale = Double(text), scale.isFinite, Self.scaleRange.contains(scale) else {
                    throw UsageError(message: "--scale expects a number from 0.5 to 8, not \(text.quotedForMessage)")
                }
                options.scale = scale
            case "--record":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--record needs a file") }
                // A value flag's last use wins (--volume 5 --volume 6), but a file is not a
                // value to override: only one is read or written, so a second is refused
                // rather than silently ignored.
                if let first = options.recordPath { throw UsageError(message: "--record is given twice (\(first.quotedForMessage) and \(path.quotedForMessage)); one file only") }
                options.recordPath = path
            case "--replay":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--replay needs a file") }
                if let first = options.replayPath { throw UsageError(message: "--replay is given twice (\(first.quotedForMessage) and \(path.quotedForMessage)); one file only") }
                options.replayPath = path
            case "--exit-when-done":
                try noValue()
                options.exitWhenDone = true
            case "--volume":
                let text = try value()
                guard let volume = Int(text), Settings.volumeRange.contains(volume) else {
                    throw UsageError(message: "--volume expects a whole number from 0 to 100, not \(text.quotedForMessage)")
                }
                options.volume = volume
            case "--limit":
                let text = try value()
                guard let limit = Int(text), Settings.limitRange.contains(limit) else {
                    throw UsageError(message: "--limit expects a whole number from 1 to 99, not \(text.quotedForMessage)")
                }
                options.limit = limit
            case "--lang":
                let text = try value()
                guard let language = Language(rawValue: text) else {
                    throw UsageError(message: "--lang expects ja or en, not \(text.quotedForMessage)")
                }
                options.language = language
            case "--bench-presses", "--bench-interval":
                let text = try value()
                guard let n = Int(text), n >= (flag == "--bench-presses" ? 1 : 0), n <= 1_000_000 else {
                    throw UsageError(message: "\(flag) expects a whole number, not \(text.quotedForMessage)")
                }
                if flag == "--bench-presses" { options.benchPresses = n } else { options.benchInterval = n; sawBenchInterval = true }
            case "--assets":
                let dir = try value()
                guard !dir.isEmpty else { throw UsageError(message: "--assets needs a directory") }
                options.assetsDirectory = dir
            default:
                throw UsageError(message: "unknown option \(argument.quotedForMessage)")
            }
        }
        if let size = options.windowSize {
            // The minimum depends on the mode (system mode has no host screen).
            let minimum = KeyboardLayout.minimumWindowSize(for: options.system ? .system : .hostScreen)
            guard size.width >= minimum.width, size.height >= minimum.height else {
                throw UsageError(message: "--size \(Int(size.width))x\(Int(size.height)) is smaller than the minimum \(Int(minimum.width))x\(Int(minimum.height))"
                                 + (options.system ? " (--system)" : ""))
            }
        }
        if let record = options.recordPath, record == options.replayPath {
            throw UsageError(message: "--record and --replay name the same file \(record.quotedForMessage) (recording would overwrite it)")
        }
        if wantsHelp { return .help }
        if wantsVersion { return .version }
        if options.exitWhenDone && options.replayPath == nil {
            throw UsageError(message: "--exit-when-done needs --replay FILE")
        }
        if sawBenchInterval && options.benchPresses == nil {
            throw UsageError(message: "--bench-interval \(options.benchInterval) needs --bench-presses N")
        }
        return .run(options)
    }

    /// Parses `WxH` in whole points, e.g. `480x800`.
    static func parseSize(_ text: String) throws(UsageError) -> Size {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let digits = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
        guard parts.count == 2, digits, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError(message: "--size expects WxH in points, e.g. 480x800, not \(text.quotedForMessage)")
        }
        guard w <= 16384, h <= 16384 else {
            throw UsageError(message: "--size \(w)x\(h) is larger than 16384x16384")
        }
        return Size(width: Double(w), height: Double(h))
    }
}
