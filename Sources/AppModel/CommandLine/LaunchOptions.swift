import KeyboardCore
/// The command line of `HeeApp`, parsed without touching the process (testable).
///
/// `HeeApp [--system [--float]] [--trace] [--mute] [--volume N] [--limit N] [--lang ja|en]
/// [--layout NAME] [--[no-]desktop-keys] [--size WxH] [--scale F] [--assets DIR] [--record FILE]
/// [--replay FILE [--exit-when-done]] [--help] [--version]`
///
/// Flags that have a setting (`--mute`/`--no-mute`, `--volume`, `--limit`, `--layout`,
/// `--desktop-keys`/`--no-desktop-keys`, `--size`) override it for this run only; they are
/// not saved.
public struct LaunchOptions: Hashable, Sendable {
    /// The program's version, printed by `--version`.
    public static let version = "0.1.0"

    /// Write JSON Lines trace events to stdout.
    public var trace = false
    /// System mode (`--system`): a keyboard-only window typing into the focused window of
    /// the desktop instead of the host screen's text field.
    public var system = false
    /// System mode on Wayland (`--float`): the docked keyboard floats over the windows
    /// instead of reserving its height at the bottom of the output (no exclusive zone).
    public var floating = false
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
    /// The keyboard layout's name (`--layout`); `nil`: the saved layout, else `en`. Whether
    /// it exists is checked once the layout files are found (`LayoutCatalog.choose`).
    public var layout: String?
    /// Show the desktop row (esc tab ctrl alt ← ↓ ↑ →) this run (`--desktop-keys`) or not
    /// (`--no-desktop-keys`); `nil`: the saved setting, else system mode only.
    public var desktopKeys: Bool?
    /// System mode: hide the keyboard while no text field has the focus (`--auto-show`) or
    /// keep it shown (`--no-auto-show`); `nil`: the saved setting, else on (issue 30).
    public var autoShow: Bool?
    /// Where `fonts/`, `sounds/` and `layouts/` are (`--assets DIR`); `nil`: found next to the binary.
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
    /// What the benchmark driver presses and times (`--bench-gesture`, default the へぇ
    /// button).
    public var benchGesture = BenchGesture.hee

    /// What `make bench` times (issue 5; issue 20's layer switch and alternates bubble).
    public enum BenchGesture: String, Hashable, Sendable, CaseIterable {
        /// Press the へぇ button: press → text and clip, press → frame.
        case hee
        /// Press the layer key (123, then ABC in its place): press → the other layer on screen.
        case layer
        /// Hold `e` past the hold delay: the delay reached → its bubble on screen.
        case bubble
    }

    /// What this run uses: the saved `settings` with the command line's overrides on top,
    /// the language from `--lang` or the locale in `environment`, and the layout `layout`
    /// (the one chosen and found, with `keyRows` rows of keys under the へぇ button, the desktop
    /// row included, and the kana pad's candidate bar when `candidateBar`; by default the
    /// built-in layout's: the most any layout the globe key shows needs). A window
    /// size (saved or `--size`) below what a layout of more rows than `en`'s needs is raised
    /// to that minimum, quietly: the layout asks for it, the display has not refused it.
    /// `keyRows` counts the desktop row when it is shown (`showsDesktopKeys(settings:)`).
    public func configuration(settings: Settings, environment: [String: String],
                              layout: String = LayoutCatalog.defaultName,
                              keyRows: Int? = nil, candidateBar: Bool = false) -> RunConfiguration {
        let desktopKeys = showsDesktopKeys(settings: settings, environment: environment)
        let phoneDock = system && ShellPlacement.isPhosh(environment)
        // By default the built-in layout's rows, with the desktop row when it is shown.
        let keyRows = keyRows ?? KeyboardLayout.keyRows(of: .english, desktopKeys: desktopKeys)
        var configuration = RunConfiguration(mute: unmute ? false : (mute || settings.mute),
                         volume: volume ?? settings.volume,
                         limit: limit ?? settings.limit,
                         // System mode's window is another shape: the saved size is the host's.
                         windowSize: windowSize ?? (system ? KeyboardLayout.defaultSystemWindowSize(keyRows: keyRows, candidateBar: candidateBar,
                                                                                                    phoneDock: phoneDock)
                                                    : settings.windowSize),
                         language: language ?? Language.fromLocale(environment: environment),
                         scale: resolvedScale(environment: environment),
                         maximized: windowSize == nil && !system && settings.maximized,
                         layout: layout, desktopKeys: desktopKeys)
        configuration.autoShow = autoShow ?? settings.autoShow ?? true
        configuration.phoneDock = phoneDock
        let minimum = KeyboardLayout.minimumWindowSize(for: system ? .system : .hostScreen, keyRows: keyRows,
                                                       candidateBar: candidateBar, phoneDock: phoneDock)
        configuration.windowSize.width = max(configuration.windowSize.width, minimum.width)
        configuration.windowSize.height = max(configuration.windowSize.height, minimum.height)
        return configuration
    }

    /// Whether this run shows the desktop row under the へぇ button: `--desktop-keys` /
    /// `--no-desktop-keys`, else the saved `"desktopKeys"`, else in system mode only (issue 21),
    /// and not on Phosh (`environment`'s `XDG_CURRENT_DESKTOP`: a phone's dock, issue 31).
    public func showsDesktopKeys(settings: Settings, environment: [String: String] = [:]) -> Bool {
        desktopKeys ?? settings.desktopKeys ?? (system && !ShellPlacement.isPhosh(environment))
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
        usage: HeeApp [--system [--float] [--[no-]auto-show]] [--trace] [--[no-]mute] [--volume N] [--limit N]
                      [--lang ja|en] [--layout NAME] [--[no-]desktop-keys] [--size WxH]
                      [--scale F] [--assets DIR] [--record FILE]
                      [--replay FILE [--exit-when-done]] [--help] [--version]
          --system       keyboard only: type into whatever window has the keyboard focus
                         (the window never takes the focus and stays on top; on Wayland
                         docked along the bottom of the output)
          --float        with --system on Wayland: float over windows instead of reserving
                         the keyboard's height at the bottom of the output
          --auto-show    with --system: hide the keyboard while no text field has the focus
                         and show it when one gets it (default: the saved setting, on;
                         Wayland with the input method protocol only, docs/system-mode.md)
          --no-auto-show  with --system: keep the keyboard shown, as without auto-show
          --trace        write JSON Lines events to stdout, one per line, flushed at once:
                         layout, keyboard, touch, hee, shift, layer, modifier, alternates,
                         trackpad, text, composition, candidates, commit, keyboardLayout,
                         send, target, audio, sound, volume, settings, reset (docs/trace-and-replay.md)
          --mute         no sound this run: never open an audio device (default: the saved
                         setting, sound on)
          --no-mute      sound this run even if the saved settings say mute
          --volume N     volume 0-100 for this run (default: the saved setting, 100)
          --limit N      the show's rule: the counter stops at N, 1-99, and further presses
                         do nothing until the count is reset (default: the saved setting, none)
          --lang ja|en   label language (default: from LC_ALL / LC_MESSAGES / LANG)
          --layout NAME  keyboard layout for this run: en, de, ja-kana, or your own NAME.json
                         in ~/.config/hee-keyboard/layouts (default: the saved setting, en)
          --desktop-keys  show the row esc tab ctrl alt and the arrows under the へぇ button
                         this run (default: the saved setting; shown with --system only)
          --no-desktop-keys  hide that row this run, also with --system
          --size WxH     window size in points, not saved (default: the saved size, 480x800;
                         with --system \(Self.sizeText(KeyboardLayout.defaultSystemWindowSize(candidateBar: true)))); at least \(Self.sizeText(KeyboardLayout.minimumWindowSize)) (with --system \(Self.sizeText(KeyboardLayout.minimumWindowSize(for: .system, keyRows: KeyboardLayout.standardKeyRows)))),
                         at most 16384x16384; raised, with a warning, to what the layouts the
                         globe key shows need (the desktop row, the kana pad's candidate bar)
          --scale F      pixels per point, 0.5-8 (default: GDK_SCALE if set, else 1); the
                         window is the size times F, drawn sharp at that scale
          --assets DIR   directory holding fonts/, sounds/ and layouts/ (default: found
                         next to the program or in the source tree it was built from)
          --record FILE  write every input event (mouse, finger, keyboard, text, window) to
                         FILE as JSON Lines with its SDL timestamp
          --replay FILE  feed FILE's events through the app as if they happened, with their
                         own timestamps (format: docs/trace-and-replay.md)
          --exit-when-done  with --replay: quit after the last event (animations finish first)
          --bench-presses N [--bench-interval MS] [--bench-gesture hee|layer|bubble]
                         benchmark driver for `make bench`: press the へぇ button (the layer
                         key; hold e until its bubble opens) N times through SDL's event
                         queue, print timings as one JSON line, quit
          --help         show this help and exit
          --version      print the version and exit
        """

    /// `size` as `--size` writes it (whole points, `WxH`).
    static func sizeText(_ size: Size) -> String { "\(Int(size.width))x\(Int(size.height))" }
}
