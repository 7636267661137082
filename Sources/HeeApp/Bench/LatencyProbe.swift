#if canImport(Glibc)
import Glibc
#endif

/// Stage timestamps for profiling the press → keystroke path (`HEE_LATENCY_PROBE=1`): one
/// line `probe STAGE NANOSECONDS` on stderr per mark, on CLOCK_MONOTONIC (Python's
/// `time.monotonic()` reads the same clock).
enum LatencyProbe {
    static let enabled = getenv("HEE_LATENCY_PROBE") != nil

    /// Writes `stage`'s line (any thread).
    static func mark(_ stage: StaticString) {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        mark(stage, nanoseconds: UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
    }

    /// Writes `stage`'s line for a moment taken earlier (`nanoseconds` on CLOCK_MONOTONIC: the
    /// AT-SPI watch's thread stamps its events).
    static func mark(_ stage: StaticString, nanoseconds: UInt64) {
        guard enabled else { return }
        let line = "probe \(stage) \(nanoseconds)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
