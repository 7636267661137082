// HeeBench: frame-cost micro-benchmark (see `make bench`). Draws scenes with the app's own
// renderer into a memory surface with SDL's software renderer (the host screen's, and system
// mode's: SystemFrameBenchmark) and prints JSON figures; with
// `--text`, times the text field's editing instead.
#if canImport(Glibc)
import Glibc
#endif
import CSDL
import HeeRender
import KeyboardCore

/// Nanoseconds from SDL's high-resolution counter. Split into whole seconds and the rest: the
/// counter times 10^9 overflows 64 bits once the counter passes 18.4 s of nanoseconds.
func nanoseconds() -> UInt64 {
    let counter = SDL_GetPerformanceCounter(), frequency = SDL_GetPerformanceFrequency()
    return counter / frequency * 1_000_000_000 + counter % frequency * 1_000_000_000 / frequency
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(Int((Double(sorted.count - 1) * p).rounded()), sorted.count - 1)]
}

// `HeeBench --text [RUNS]`: the text field's editing cost (TextEditingBenchmark), no SDL.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--text" {
    let runs = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 5 : 5
    print(TextEditingBenchmark.run(runs: max(runs, 1)))
    exit(0)
}

let assets = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."
let frames = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 300 : 300
do {
    let surface = try Surface(width: 480, height: 800)
    let renderer = try Renderer(surface: surface)
    let library = try TTFLibrary()
    let text = try TextRenderer(renderer: renderer, library: library, assetsDirectory: assets)
    let scenes = SceneRenderer(renderer: renderer, text: text)

    func session(text: Int) -> KeyboardSession {
        var s = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize)
        _ = s.handle(.launched, at: .zero)
        if text > 0 {
            let unit = "へぇ〜abcd "
            let s0 = String(repeating: unit, count: text / unit.count + 1)
            _ = s.handle(.textInput(String(s0.prefix(text))), at: .milliseconds(1))
        }
        return s
    }

    /// Draw times in milliseconds for `frames` frames of `scene(i)`.
    func measure(_ name: String, _ scene: (Int) -> Scene) throws -> [String: Double] {
        for i in 0..<10 { try scenes.draw(scene(i), pixelScale: 1) }  // warm the caches
        var times: [Double] = []
        for i in 0..<frames {
            let t0 = nanoseconds()
            try scenes.draw(scene(i), pixelScale: 1)
            renderer.present()
            times.append(Double(nanoseconds() - t0) / 1e6)
        }
        times.sort()
        return ["p50": percentile(times, 0.5), "p99": percentile(times, 0.99), "min": times.first!, "max": times.last!]
    }

    let base = session(text: 0)
    let staticScene = Scene(session: base, at: .seconds(20))
    var pressed = base
    _ = pressed.handle(.pointerDown(.mouse, base.layout.heeFrame.center), at: .seconds(20))
    let thousand = session(text: 1_000)
    let hundredK = session(text: 100_000)
    var results: [(String, [String: Double])] = []
    results.append(("static", try measure("static") { _ in staticScene }))
    results.append(("press animation", try measure("press") { i in
        Scene(session: pressed, at: .seconds(20) + .milliseconds(i % 100))
    }))
    results.append(("1,000 characters", try measure("1k") { _ in Scene(session: thousand, at: .seconds(20)) }))
    results.append(("100,000 characters", try measure("100k") { _ in Scene(session: hundredK, at: .seconds(20)) }))
    for (name, times) in try SystemFrameBenchmark.run(assets: assets, frames: frames) {
        let sorted = times.sorted()
        results.append((name, ["p50": percentile(sorted, 0.5), "p99": percentile(sorted, 0.99), "min": sorted.first!,
                               "max": sorted.last!]))
    }
    var out = "{"
    for (i, (name, r)) in results.enumerated() {
        out += (i > 0 ? "," : "") + "\"\(name)\":{" + ["min", "p50", "p99", "max"].map { "\"\($0)\":\(r[$0]!)" }.joined(separator: ",") + "}"
    }
    print(out + "}")
} catch {
    print("HeeBench: \(error)")
    exit(1)
}
