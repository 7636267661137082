import KeyboardCore
import Testing

extension KeyboardSession {
    /// A launched session showing the `ja-kana` layout, the globe key switching between it and
    /// `en`.
    static func kana(mode: KeyboardMode = .hostScreen, size: Size? = nil, flickOnly: Bool = false) -> KeyboardSession {
        let size = size ?? (mode == .system ? KeyboardLayout.defaultSystemWindowSize(candidateBar: true)
                                            : KeyboardLayout.defaultWindowSize)
        var session = KeyboardSession(windowSize: size, mode: mode, definition: .japaneseKana,
                                      layouts: [.english, .japaneseKana], flickOnly: flickOnly)
        _ = session.handle(.launched, at: .zero)
        return session
    }

    /// Flicks `key` at `time` ms: down at its centre, a move of one key width (or height)
    /// towards `direction` 20 ms later, up there 40 ms after the touch; `.center` is a tap.
    /// Every `.convert` is answered by `converter`, if one is given, as the app does.
    @discardableResult
    mutating func flick(_ key: KeyID, _ direction: FlickDirection = .center, at time: Int, pointer: PointerID = .mouse,
                        converter: inout FakeKanaKanjiConverter?) throws -> [KeyboardEffect] {
        let rect = try #require(layout.keys[key], "no key \(key) in layer \(layout.layerName)")
        let start = rect.center
        let end = direction.end(from: rect)
        var effects = send(.pointerDown(pointer, start), at: time)
        effects += send(.pointerMoved(pointer, end), at: time + 20)
        effects += send(.pointerUp(pointer, end), at: time + 40)
        return answer(effects, at: time + 40, converter: &converter)
    }

    /// `flick` without a converter.
    @discardableResult
    mutating func flick(_ key: KeyID, _ direction: FlickDirection = .center, at time: Int,
                        pointer: PointerID = .mouse) throws -> [KeyboardEffect] {
        var none: FakeKanaKanjiConverter?
        return try flick(key, direction, at: time, pointer: pointer, converter: &none)
    }

    /// `effects` with each `.convert` answered by `converter` (the answer's effects follow).
    mutating func answer(_ effects: [KeyboardEffect], at time: Int, converter: inout FakeKanaKanjiConverter?) -> [KeyboardEffect] {
        guard converter != nil else { return effects }
        var all = effects
        for case .convert(let reading) in effects {
            let segments = converter!.convert(reading)
            all += answer(send(.conversion(reading: reading, segments: segments), at: time), at: time, converter: &converter)
        }
        return all
    }

    /// Types `steps` (key, direction) 300 ms apart from `time` ms; returns the time after.
    @discardableResult
    mutating func type(_ steps: [(KeyID, FlickDirection)], from time: Int, converter: inout FakeKanaKanjiConverter?) throws -> Int {
        var t = time
        for (key, direction) in steps {
            try flick(key, direction, at: t, converter: &converter)
            t += 300
        }
        return t
    }

    /// The kana pad's reading.
    var reading: String { kana.pad.composition.reading }
}

extension Array where Element == KeyboardEffect {
    /// The texts the kana pad committed, in order.
    var commits: [String] { compactMap { if case .kanaCommitted(let text) = $0 { text } else { nil } } }
    /// The compositions shown, in order.
    var compositions: [String] { compactMap { if case .compositionChanged(let text, _) = $0 { text } else { nil } } }
    /// The readings the session asked to convert, in order.
    var conversions: [String] { compactMap { if case .convert(let reading) = $0 { reading } else { nil } } }
    /// The keystrokes sent (system mode).
    var sent: [Keystroke] { compactMap { if case .send(let stroke) = $0 { stroke } else { nil } } }
}

/// にほんご on the pad: に (な left), ほ (は down), ん (わ up), ご (か down, then 「゛゜小」 left).
let nihongo: [(KeyID, FlickDirection)] = [("な", .left), ("は", .down), ("わ", .up), ("か", .down), (.kanaModifier, .left)]
