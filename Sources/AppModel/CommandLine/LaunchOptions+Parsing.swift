import KeyboardCore

/// Reading the command line: flags and their values into `LaunchOptions`, or one `UsageError`.
extension LaunchOptions {
    /// Parses `arguments` (without the program name).
    /// - Throws: `UsageError` for an unknown flag, a missing or malformed value, or a size
    ///   outside `KeyboardLayout.minimumWindowSize`...16384.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var options = LaunchOptions()
        // Every argument is checked before --help or --version is honoured, so a typo next
        // to them is still reported.
        var wantsHelp = false, wantsVersion = false
        var sawBenchInterval = false, sawBenchGesture = false
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
            case "--float":
                try noValue()
                options.floating = true
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
            case "--layout":
                let name = try value()
                guard LayoutFile.isValidName(name) else {
                    throw UsageError(message: "--layout expects a layout name (\(LayoutFile.nameRule)), not \(name.quotedForMessage)")
                }
                options.layout = name
            case "--desktop-keys", "--no-desktop-keys":
                try noValue()
                // The last of the two wins.
                options.desktopKeys = flag == "--desktop-keys"
            case "--auto-show", "--no-auto-show":
                try noValue()
                // The last of the two wins.
                options.autoShow = flag == "--auto-show"
            case "--bench-presses", "--bench-interval":
                let text = try value()
                let least = flag == "--bench-presses" ? 1 : 0
                guard let n = Int(text), n >= least, n <= 1_000_000 else {
                    throw UsageError(message: "\(flag) expects a whole number from \(least) to 1000000, not \(text.quotedForMessage)")
                }
                if flag == "--bench-presses" { options.benchPresses = n } else { options.benchInterval = n; sawBenchInterval = true }
            case "--bench-gesture":
                let text = try value()
                guard let gesture = BenchGesture(rawValue: text) else {
                    throw UsageError(message: "--bench-gesture expects hee, layer or bubble, not \(text.quotedForMessage)")
                }
                options.benchGesture = gesture
                sawBenchGesture = true
            case "--assets":
                let dir = try value()
                guard !dir.isEmpty else { throw UsageError(message: "--assets needs a directory") }
                options.assetsDirectory = dir
            default:
                guard argument.hasPrefix("-") else {
                    throw UsageError(message: "unexpected argument \(argument.quotedForMessage): HeeApp takes only options")
                }
                throw UsageError(message: "unknown option \(argument.quotedForMessage)")
            }
        }
        if let size = options.windowSize {
            // The minimum depends on the mode (system mode has no host screen) and on the
            // desktop row: with it, a row more; without --desktop-keys the saved setting may
            // hide it, so the smaller minimum is checked (a size below the row's is raised to
            // it in `configuration`, as for a taller layout).
            let keyRows = KeyboardLayout.standardKeyRows + (options.desktopKeys == true ? 1 : 0)
            let minimum = KeyboardLayout.minimumWindowSize(for: options.system ? .system : .hostScreen, keyRows: keyRows)
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
        if options.floating && !options.system {
            throw UsageError(message: "--float needs --system")
        }
        if options.exitWhenDone && options.replayPath == nil {
            throw UsageError(message: "--exit-when-done needs --replay FILE")
        }
        if sawBenchInterval && options.benchPresses == nil {
            throw UsageError(message: "--bench-interval \(options.benchInterval) needs --bench-presses N")
        }
        if sawBenchGesture && options.benchPresses == nil {
            throw UsageError(message: "--bench-gesture \(options.benchGesture.rawValue) needs --bench-presses N")
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
