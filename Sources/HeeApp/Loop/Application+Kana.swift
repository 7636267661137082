import AppModel
import HeeAnthy
import KeyboardCore

/// The kana pad's converter round trip (issue 22): the session asks with `.convert`, Anthy
/// answers, and the answer goes back in as `KeyboardInput.conversion`.
///
/// Live, a conversion waits until the composition it belongs to is on screen (the frame after
/// the flick), so Anthy's time never delays the kana appearing; it runs right after that
/// frame, or before the next input at the latest, so a 次候補 or a candidate tap always sees
/// the candidates of what is composed. A replay converts at once: its trace must not depend
/// on when frames happen to be drawn. Anthy learns nothing (the converter never commits to
/// it), so the same reading always gives the same candidates: replays are byte-identical.
///
/// Anthy itself is loaded off the start-up path: when the app is first idle after its window
/// is up (if a layout the globe key shows has a kana pad), or at the first conversion.
extension Application {
    /// The session asked to convert `reading` (an input at `time`).
    func conversionRequested(_ reading: String, at time: Duration) {
        if replay.isFeeding {
            convert(reading, at: time)
        } else {
            pendingConversion = (reading, time)
        }
    }

    /// Runs the conversion that waits for its frame, if any, at the session's latest time.
    func runPendingConversion() {
        guard let pending = pendingConversion else { return }
        pendingConversion = nil
        convert(pending.reading, at: max(pending.time, sessionTime))
    }

    /// Converts `reading` with Anthy and hands the answer to the session.
    private func convert(_ reading: String, at time: Duration) {
        let started = bench == nil ? 0 : BenchDriver.nanoseconds()
        let segments = converter.convert(reading)
        let took = bench == nil ? 0 : BenchDriver.nanoseconds() - started
        send(.conversion(reading: reading, segments: segments), at: time)
        bench?.conversionDone(nanoseconds: took, length: reading.count)
    }

    /// The benchmark driver `plan` asks for: the kana pad's when the layout shown has one, else
    /// the one pressing the へぇ button, the layer key or `e` (`--bench-gesture`).
    func makeBenchmark(_ plan: (presses: Int, interval: Duration, gesture: LaunchOptions.BenchGesture)) -> any Benchmark {
        let s = coordinateScale
        func window(_ r: Rect) -> Rect { Rect(x: r.x * s, y: r.y * s, width: r.width * s, height: r.height * s) }
        guard session.definition.hasKanaPad else {
            // The へぇ button, the layer key (ABC takes its place after the first press), or e.
            let key: KeyID = switch plan.gesture { case .hee: .hee; case .layer: "123"; case .bubble: "e" }
            let target = (session.layout.keys[key] ?? session.layout.heeFrame).center
            return BenchDriver(presses: plan.presses, interval: plan.interval, gesture: plan.gesture,
                               target: Point(x: target.x * s, y: target.y * s), windowID: screen.window.id, start: clock.now)
        }
        return KanaBenchDriver(flicks: plan.presses, interval: plan.interval, keys: session.layout.keys.mapValues(window),
                               definition: session.definition, windowID: screen.window.id, start: clock.now) { [converter] in
            converter.prepare()
            return converter.loadCost
        }
    }

    /// Loads Anthy once the app is idle after start-up (the window icon is set by then), when
    /// a layout the globe key shows has a kana pad: the first flick then converts without the
    /// load's 10–20 ms.
    func prepareConverterIfIdle(animating: Bool) {
        guard !converterPrepared, !animating, screen.iconDeadline == nil else { return }
        converterPrepared = true
        if (session.layouts.choices + [session.definition]).contains(where: \.hasKanaPad) { converter.prepare() }
    }
}
