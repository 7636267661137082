import Foundation
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
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    let locator = AssetLocator { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
    let assets: String
    do {
        assets = try locator.locate(explicit: options.assetsDirectory, executablePath: executable,
                                    workingDirectory: FileManager.default.currentDirectoryPath)
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
