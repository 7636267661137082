#if canImport(Glibc)
import Glibc
#endif
import HeeRender
import KeyboardCore

/// Exit statuses (BSD sysexits): usage errors 64, a malformed replay file 65, missing assets
/// or replay file 66, no display or other SDL failure 69, a record file that cannot be
/// created 73.
enum ExitStatus {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let cannotCreate: Int32 = 73
}

signal(SIGPIPE, SIG_IGN)

let command: LaunchOptions.Command
do {
    command = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.error("HeeApp: \(error.message)")
    Console.error(LaunchOptions.usage)
    exit(ExitStatus.usage)
}

switch command {
case .help:
    Console.out(LaunchOptions.usage + "\n")
    exit(0)
case .version:
    Console.out("HeeApp \(LaunchOptions.version)\n")
    exit(0)
case .run(let options):
    let locator = AssetLocator { path in
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
    let assets: String
    do {
        assets = try locator.locate(explicit: options.assetsDirectory, executablePath: FileSystem.executablePath,
                                    workingDirectory: FileSystem.currentDirectory)
    } catch {
        Console.error("HeeApp: \(error)")
        exit(ExitStatus.noInput)
    }
    var replay: [InputRecord] = []
    if let path = options.replayPath {
        do {
            replay = try InputRecord.parse(lines: try FileSystem.readText(path), isKnownKey: InputRecord.isKnownKey)
        } catch let error as FileSystem.ReadError {
            Console.error("HeeApp: \(error)")
            exit(ExitStatus.noInput)
        } catch let error as InputRecord.ParseError {
            Console.error("HeeApp: \(path):\(error.line): \(error.message)")
            exit(ExitStatus.dataError)
        } catch {
            Console.error("HeeApp: \(path): \(error)")
            exit(ExitStatus.dataError)
        }
    }
    var recorder: InputRecorder?
    if let path = options.recordPath {
        do {
            recorder = try InputRecorder(path: path)
        } catch {
            Console.error("HeeApp: \(error)")
            exit(ExitStatus.cannotCreate)
        }
    }
    let environment = FileSystem.environment
    // Replays are tests and demos: they neither read nor change the user's settings.
    let store = options.replayPath == nil ? SettingsStore(file: SettingsFile(environment: environment)) : nil
    let configuration = options.configuration(settings: store?.settings ?? Settings(), environment: environment)
    do {
        let app = try Application(options: options, configuration: configuration, settings: store,
                                  assetsDirectory: assets, replay: replay, recorder: recorder)
        try app.run()
    } catch {
        Console.error("HeeApp: \(error)")
        exit(ExitStatus.unavailable)
    }
    exit(0)
}
