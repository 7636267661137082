#if canImport(Glibc)
import Glibc
#endif
import HeeRender
import KeyboardCore

/// Exit statuses (BSD sysexits): usage errors 64, missing assets 66, no display or other
/// SDL failure 69.
enum ExitStatus {
    static let usage: Int32 = 64
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
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
    do {
        let app = try Application(options: options, assetsDirectory: assets)
        try app.run()
    } catch {
        Console.error("HeeApp: \(error)")
        exit(ExitStatus.unavailable)
    }
    exit(0)
}
