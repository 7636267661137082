import CSDL
import KeyboardCore
import Synchronization

/// The flick the benchmark's timer pushes: where the touch goes down and where it is lifted
/// (window coordinates), set before the timer starts.
let benchFlickFromX = Atomic<Int32>(0)
let benchFlickFromY = Atomic<Int32>(0)
let benchFlickToX = Atomic<Int32>(0)
let benchFlickToY = Atomic<Int32>(0)

/// SDL timer callback (SDL's timer thread): pushes one flick — left button down, a motion, up
/// — as a mouse arriving from the window system would, and notes when. A plain global
/// function, so it carries no actor isolation onto SDL's thread.
func benchPushFlick(_ interval: UInt32, _ parameter: UnsafeMutableRawPointer?) -> UInt32 {
    let window = benchWindowID.load(ordering: .relaxed)
    let from = (benchFlickFromX.load(ordering: .relaxed), benchFlickFromY.load(ordering: .relaxed))
    let to = (benchFlickToX.load(ordering: .relaxed), benchFlickToY.load(ordering: .relaxed))
    var down = SDL_Event()
    down.type = SDL_MOUSEBUTTONDOWN.rawValue
    down.button.windowID = window
    down.button.button = HEE_SDL_BUTTON_LEFT
    down.button.state = UInt8(SDL_PRESSED)
    down.button.clicks = 1
    (down.button.x, down.button.y) = from
    var motion = SDL_Event()
    motion.type = SDL_MOUSEMOTION.rawValue
    motion.motion.windowID = window
    motion.motion.state = UInt32(HEE_SDL_BUTTON_LMASK)
    (motion.motion.x, motion.motion.y) = to
    var up = down
    up.type = SDL_MOUSEBUTTONUP.rawValue
    up.button.state = UInt8(SDL_RELEASED)
    (up.button.x, up.button.y) = to
    SDL_PushEvent(&down)
    SDL_PushEvent(&motion)
    benchPushTime.store(BenchDriver.nanoseconds(), ordering: .releasing)
    SDL_PushEvent(&up)
    return 0  // one shot
}

/// `make bench`'s kana pad figures (issue 22): `--bench-presses N --layout ja-kana` flicks N
/// kana into the pad, typing sentences of 2 to 15 kana, each followed by 次候補 and 確定. Each
/// flick (down, a motion one key away, up) is pushed into SDL's queue from SDL's timer
/// thread, as a touch arrives while the app sleeps, and timed from the push of its release:
///
/// - flick → composition: to the return of `SDL_RenderPresent` of the first frame showing the
///   new composition;
/// - flick → candidates: to the first frame showing Anthy's candidates for it (the conversion
///   runs once the composition is on screen);
/// - 次候補 → candidates: a tap on 空白 (次候補), to the frame showing the next candidate chosen.
///
/// Also Anthy's own time per conversion with the reading's length, and its first-use cost
/// (library, dictionary, context), taken before the first flick.
final class KanaBenchDriver: Benchmark {
    /// The sentences typed, in turn.
    static let sentences = ["きょうはいいてんきですね", "にほんごのにゅうりょく", "へぇ", "かなかんじへんかん",
                            "あしたはあめがふるでしょう", "とうきょうとっきょきょかきょく", "わたしはがくせいです"]

    /// One step of the script.
    enum Step: Hashable {
        case flick(KeyID, FlickDirection)
        /// 空白 while composing: 次候補.
        case nextCandidate
        /// 改行 while composing: 確定.
        case confirm
    }

    private enum Phase {
        case idle
        /// A flick or a tap is in the queue (its release pushed at `t0`, nanoseconds).
        case pushed(Step, t0: UInt64)
        /// The composition changed; its frame is due.
        case composed(t0: UInt64)
        /// The composition is on screen; its candidates are due.
        case converting(t0: UInt64)
        /// The candidates changed (after a flick, or 次候補); their frame is due.
        case shown(t0: UInt64, afterFlick: Bool)
        /// 確定 handled; waiting for its frame.
        case confirmed
    }

    private let flicks: Int
    private let interval: Duration
    private let keys: [KeyID: Rect]
    private let windowID: UInt32
    private let prepare: () -> Duration?
    private let script: [Step]
    private var step = 0
    private var phase = Phase.idle
    private var nextPush: Duration
    private var flickToComposition: [Double] = []
    private var flickToCandidates: [Double] = []
    private var nextToCandidates: [Double] = []
    private var conversions: [(ms: Double, length: Int)] = []
    private var loadMs: Double?
    private(set) var isDone = false

    /// - Parameters:
    ///   - keys: the kana layout's keys (window coordinates).
    ///   - prepare: loads the converter; returns how long that took.
    init(flicks: Int, interval: Duration, keys: [KeyID: Rect], definition: LayoutDefinition, windowID: UInt32, start: Duration,
         prepare: @escaping () -> Duration?) {
        self.flicks = flicks
        self.interval = interval
        self.keys = keys
        self.windowID = windowID
        self.prepare = prepare
        nextPush = start + .milliseconds(300)
        script = Self.script(definition)
        flickToComposition.reserveCapacity(flicks)
        flickToCandidates.reserveCapacity(flicks)
    }

    /// The sentences as steps: each kana's key and flick (a ゛, ゜ or small form: its base, then
    /// 「゛゜小」 flicked), `→` between two taps on one key (else they would toggle), then 次候補
    /// and 確定.
    static func script(_ definition: LayoutDefinition) -> [Step] {
        let layer = definition.firstLayer.keyIDs
        var plan: [String: [Step]] = [:]
        for id in layer {
            guard let key = definition.kanaKey(id) else { continue }
            for direction in FlickDirection.allCases {
                if let kana = key.flicks[direction], plan[kana] == nil { plan[kana] = [.flick(id, direction)] }
            }
        }
        for forms in definition.kanaModifiers.forms {
            guard let base = plan[forms.base] else { continue }
            for direction in FlickDirection.outward {
                if let form = forms.flicks[direction], plan[form] == nil { plan[form] = base + [.flick(.kanaModifier, direction)] }
            }
        }
        var steps: [Step] = []
        for sentence in sentences {
            for kana in sentence {
                guard let gesture = plan[String(kana)], let first = gesture.first else { continue }
                if case .flick(_, .center) = first, steps.last == first { steps.append(.flick(.kanaNext, .center)) }
                steps += gesture
            }
            steps += [.nextCandidate, .confirm]
        }
        return steps
    }

    func deadline() -> Duration? {
        guard !isDone, case .idle = phase else { return nil }
        return nextPush
    }

    func tick(now: Duration) {
        guard !isDone, case .idle = phase, now >= nextPush else { return }
        if loadMs == nil { loadMs = prepare().map { $0.seconds * 1000 } ?? 0 }
        let current = script[step % script.count]
        let (key, direction): (KeyID, FlickDirection) = switch current {
        case .flick(let key, let direction): (key, direction)
        case .nextCandidate: (.space, .center)
        case .confirm: (.return, .center)
        }
        guard let rect = keys[key] else { return finish() }
        let end = direction.end(from: rect)
        benchFlickFromX.store(Int32(rect.center.x.rounded()), ordering: .relaxed)
        benchFlickFromY.store(Int32(rect.center.y.rounded()), ordering: .relaxed)
        benchFlickToX.store(Int32(end.x.rounded()), ordering: .relaxed)
        benchFlickToY.store(Int32(end.y.rounded()), ordering: .relaxed)
        benchWindowID.store(windowID, ordering: .relaxed)
        phase = .pushed(current, t0: 0)
        SDL_AddTimer(UInt32(max(interval.seconds * 1000, 1)), benchPushFlick, nil)
    }

    func compositionChanged(_ text: String) {
        guard case .pushed(let current, _) = phase else { return }
        let t0 = benchPushTime.load(ordering: .acquiring)
        switch current {
        case .flick: phase = .composed(t0: t0)
        case .confirm: phase = .confirmed
        case .nextCandidate: break  // the candidates' change follows
        }
    }

    func candidatesChanged(_ bar: CandidateBar) {
        switch phase {
        case .converting(let t0) where !bar.cells.isEmpty:
            phase = .shown(t0: t0, afterFlick: true)
        case .pushed(.nextCandidate, _):
            phase = .shown(t0: benchPushTime.load(ordering: .acquiring), afterFlick: false)
        default:
            break
        }
    }

    func conversionDone(nanoseconds: UInt64, length: Int) {
        conversions.append((Double(nanoseconds) / 1e6, length))
        // No candidates came (Anthy unavailable): the flick is done.
        if case .converting = phase { advance() }
    }

    func framePresented(now: Duration) {
        let elapsed = { (t0: UInt64) in Double(BenchDriver.nanoseconds() - t0) / 1e6 }
        switch phase {
        case .composed(let t0):
            flickToComposition.append(elapsed(t0))
            phase = .converting(t0: t0)
        case .shown(let t0, let afterFlick):
            if afterFlick { flickToCandidates.append(elapsed(t0)) } else { nextToCandidates.append(elapsed(t0)) }
            advance()
        case .confirmed:
            advance()
        default:
            break
        }
        nextPush = now
    }

    private func advance() {
        phase = .idle
        step += 1
        if flickToComposition.count >= flicks { finish() }
    }

    private func finish() {
        isDone = true
        func list(_ values: [Double]) -> String { "[" + values.map { String($0) }.joined(separator: ",") + "]" }
        var line = "{\"event\":\"bench-kana\",\"flicks\":\(flickToComposition.count)"
        line += ",\"flick_to_composition_ms\":\(list(flickToComposition)),\"flick_to_candidates_ms\":\(list(flickToCandidates))"
        line += ",\"next_candidate_ms\":\(list(nextToCandidates)),\"conversion_ms\":\(list(conversions.map(\.ms)))"
        line += ",\"reading_lengths\":[" + conversions.map { String($0.length) }.joined(separator: ",") + "]"
        line += ",\"anthy_load_ms\":\(loadMs ?? 0)}"
        Console.out(line + "\n")
    }
}
