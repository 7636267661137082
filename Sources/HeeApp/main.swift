#if canImport(Glibc)
import Glibc
#endif
import HeeRender
import AppModel
import KeyboardCore

/// Exit statuses (BSD sysexits): usage errors 64, a malformed replay file or unreadable font
/// 65, missing assets or replay file 66, no display or other SDL failure 69, a record file that
/// cannot be created 73, stdout unwritable for --help/--version 74.
enum ExitStatus {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
}

signal(SIGPIPE, SIG_IGN)
// A closed terminal (SIGHUP) quits like SIGTERM, which SDL turns into SDL_QUIT: settings are
// saved. kill(2) is async-signal-safe.
signal(SIGHUP) { _ in _ = kill(getpid(), SIGTERM) }
// Until SDL is up (a long replay file is being read, say), SIGINT and SIGTERM quit at once
// with status 0: nothing has changed yet. SDL turns them into SDL_QUIT only where their
// handler is the default, so the default comes back while they are blocked, just before SDL
// starts; one that arrives meanwhile waits and becomes SDL_QUIT.
signal(SIGINT) { _ in _exit(0) }
signal(SIGTERM) { _ in _exit(0) }
var quitSignals = sigset_t()
sigemptyset(&quitSignals)
sigaddset(&quitSignals, SIGINT)
sigaddset(&quitSignals, SIGTERM)
// A program started while they are blocked would keep them blocked for good (exec keeps the
// signal mask): without a session bus, libdbus autolaunches one inside SDL_Init (dbus-launch
// and its dbus-daemon, which then ignored SIGTERM). So a fork's child unblocks them.
pthread_atfork(nil, nil) {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    sigprocmask(SIG_UNBLOCK, &signals, nil)
}
// A closed stdin, stdout or stderr would be reused by the next open() (the X connection),
// and the trace or a warning would then go into the X protocol stream: hold them open on
// /dev/null, and remember which were closed (--help cannot be written to a closed stdout).
var closedAtStart: Set<Int32> = []
for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 {
    closedAtStart.insert(fd)
    let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
    if null >= 0 && null != fd { dup2(null, fd); close(null) }
}

/// Writes the text --help or --version prints and exits: 0, or 74 (EX_IOERR) with one line
/// on stderr when stdout was closed or the text could not all be written (/dev/full).
func printAndExit(_ text: String, for flag: String, stdoutClosed: Bool) -> Never {
    if stdoutClosed {
        Console.error("\(Console.program): cannot write \(flag): standard output is closed")
        exit(ExitStatus.ioError)
    }
    if !Console.out(text) {
        Console.error("\(Console.program): cannot write \(flag) to standard output: \(String(cString: strerror(errno)))")
        exit(ExitStatus.ioError)
    }
    exit(0)
}

let command: LaunchOptions.Command
do {
    command = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.usageError(error.message)
}

switch command {
case .help:
    printAndExit(Console.usage + "\n", for: "--help", stdoutClosed: closedAtStart.contains(1))
case .version:
    printAndExit("\(Console.program) \(LaunchOptions.version)\n", for: "--version", stdoutClosed: closedAtStart.contains(1))
case .run(let options):
    if options.trace && closedAtStart.contains(1) {
        Console.error("\(Console.program): warning: --trace: standard output is closed; no trace is written")
    }
    let locator = AssetLocator { path in
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
    let assets: String
    do {
        assets = try locator.locate(explicit: options.assetsDirectory, executablePath: FileSystem.executablePath,
                                    workingDirectory: FileSystem.currentDirectory)
    } catch {
        Console.error("\(Console.program): \(error)")
        exit(ExitStatus.noInput)
    }
    let environment = FileSystem.environment
    // Replays and the benchmark are tests: they neither read nor change the user's settings,
    // and read no user layouts (only the shipped ones).
    let usesUserFiles = options.replayPath == nil && options.benchPresses == nil
    let settingsFile = SettingsFile(environment: environment)
    let layoutFiles = LayoutFiles(settingsPath: usesUserFiles ? settingsFile.path : nil, assetsDirectory: assets)
    let layouts = layoutFiles.catalog
    if let name = options.layout {
        // A --layout naming nothing is a usage error, found before anything is read or moved.
        do {
            _ = try layouts.choose(flag: name, saved: nil)
        } catch {
            Console.usageError(error.message)
        }
    }
    var replay: [InputRecord] = []
    if let path = options.replayPath {
        do {
            // Read as it comes off the disk: a huge file or one with no line end (/dev/zero)
            // is refused at its first over-long line instead of being loaded whole.
            var reader = InputRecord.Reader(isKnownKey: InputRecord.isKnownKey)
            try FileSystem.readPieces(path) { piece in try reader.consume(piece) }
            replay = try reader.finish()
        } catch let error as FileSystem.ReadError {
            Console.error("\(Console.program): \(error)")
            exit(ExitStatus.noInput)
        } catch let error as InputRecord.ParseError {
            Console.error("\(Console.program): \(path):\(error.line): \(error.message)")
            exit(ExitStatus.dataError)
        } catch {
            Console.error("\(Console.program): \(path): \(error)")
            exit(ExitStatus.dataError)
        }
    }
    var recorder: InputRecorder?
    if let path = options.recordPath {
        // The same file under another spelling (./r, an absolute path, d/../r, a link) would
        // be overwritten by the recording: compare files, not strings.
        if let replayPath = options.replayPath, FileSystem.sameFile(path, replayPath) {
            Console.usageError("--record and --replay name the same file (\(path.quotedForMessage) is \(replayPath.quotedForMessage); recording would overwrite it)")
        }
        do {
            recorder = try InputRecorder(path: path, protecting: options.replayPath.flatMap(FileSystem.identity(of:)))
        } catch {
            Console.error("\(Console.program): \(error)")
            exit(error.sameFile ? ExitStatus.usage : ExitStatus.cannotCreate)
        }
    }
    let store = usesUserFiles ? SettingsStore(file: settingsFile) : nil
    // Cannot throw: a --layout that names nothing was refused above.
    let layoutChoice = (try? layouts.choose(flag: options.layout, saved: store?.settings.layout,
                                                       globe: store?.settings.layouts ?? Settings.defaultLayouts))
        ?? LayoutCatalog.Choice(name: LayoutCatalog.defaultName, source: .builtIn)
    if let warning = layoutChoice.warning {
        Console.error("\(Console.program): warning: \(settingsFile.path ?? "settings"): \(warning)")
    }
    let definition = layoutFiles.load(layoutChoice)
    let saved = store?.settings ?? Settings()
    let desktopKeys = options.showsDesktopKeys(settings: saved, environment: environment)
    // The layouts the globe key switches between (issue 22): the saved list, by default en
    // and ja-kana; their tallest sets the window's smallest size, so switching never overflows.
    let globeLayouts = layoutFiles.loadGlobeLayouts(saved.layouts ?? Settings.defaultLayouts, chosen: definition,
                                                    catalog: layouts)
    let shown = globeLayouts.contains { $0.name == definition.name } ? globeLayouts : globeLayouts + [definition]
    let configuration = options.configuration(settings: saved, environment: environment, layout: definition.name,
                                              keyRows: shown.map { KeyboardLayout.keyRows(of: $0, desktopKeys: desktopKeys) }.max(),
                                              candidateBar: shown.contains(where: \.hasKanaPad))
    // A --size below what the layouts need is raised; say so (a saved size is raised quietly).
    if let asked = options.windowSize, asked != configuration.windowSize {
        let size = configuration.windowSize
        Console.error("\(Console.program): warning: --size \(Int(asked.width))x\(Int(asked.height)) raised to \(Int(size.width))x\(Int(size.height)): "
                      + "the smallest window for the layouts the globe key shows (\(shown.map(\.name).joined(separator: ", ")))")
    }
    // One system-mode keyboard per display (SingleInstance): a second asks the first to show
    // itself and exits. Replays and the benchmark are tests and run beside anything.
    var instance: InstanceListener?
    if options.system, usesUserFiles,
       let path = SingleInstance.socketPath(environment: environment, wayland: WaylandSystemMode.sessionOffersWayland(environment)) {
        switch InstanceSocket.claim(path: path) {
        case .first(let listener): instance = listener
        case .running(let pid):
            Console.error(SingleInstance.message(program: Console.program, firstPID: pid))
            exit(0)
        case nil: break
        }
    }
    var app: Application?
    do {
        sigprocmask(SIG_BLOCK, &quitSignals, nil)
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        app = try Application(options: options, configuration: configuration, definition: definition, globeLayouts: globeLayouts,
                              settings: store, assetsDirectory: assets, replay: replay, recorder: recorder)
        sigprocmask(SIG_UNBLOCK, &quitSignals, nil)
        instance?.start()
        try app?.run()
        instance?.close()
    } catch {
        if let bad = app?.failedFont {
            // A bundled font that exists but cannot be read is a bad data file.
            Console.error("\(Console.program): \(bad)")
            exit(ExitStatus.dataError)
        }
        Console.error("\(Console.program): \(error)")
        exit(ExitStatus.unavailable)
    }
    exit(0)
}
