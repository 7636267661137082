import AppModel
import KeyboardCore

/// What the loop tells the benchmark driver that runs (`--bench-presses`): `BenchDriver`
/// presses the へぇ button, `KanaBenchDriver` flicks the kana pad (with `--layout ja-kana`).
/// Each one pushes its own input events and times what the app does with them.
protocol Benchmark: AnyObject {
    /// Whether every sample is taken (the app quits).
    var isDone: Bool { get }
    /// When the driver next wants to act, if it waits for time rather than for a frame.
    func deadline() -> Duration?
    /// Time passed: the driver may push its next input.
    func tick(now: Duration)
    /// A frame was presented.
    func framePresented(now: Duration)
    /// The へぇ button's release was handled.
    func releaseHandled()
    /// A measured press acted: the へぇ button's (text inserted, clip started), the layer
    /// key's or the alternates bubble's (`--bench-gesture`).
    func actionPerformed(_ performed: LaunchOptions.BenchGesture)
    /// The kana pad's composition changed (to `text`).
    func compositionChanged(_ text: String)
    /// The kana pad's candidate bar changed.
    func candidatesChanged(_ bar: CandidateBar)
    /// A conversion took `nanoseconds` (Anthy's own time) for a reading of `length` kana.
    func conversionDone(nanoseconds: UInt64, length: Int)
}

extension Benchmark {
    func releaseHandled() {}
    func actionPerformed(_ performed: LaunchOptions.BenchGesture) {}
    func compositionChanged(_ text: String) {}
    func candidatesChanged(_ bar: CandidateBar) {}
    func conversionDone(nanoseconds: UInt64, length: Int) {}
}
