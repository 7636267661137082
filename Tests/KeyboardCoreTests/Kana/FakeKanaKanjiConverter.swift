import KeyboardCore

/// A converter for the core's tests: a fixed dictionary of segmentations, and a log of what
/// it was asked. Readings it does not know come back as one segment of themselves.
struct FakeKanaKanjiConverter: KanaKanjiConverter {
    var dictionary: [String: [KanaKanjiSegment]] = [
        "にほんご": [KanaKanjiSegment(reading: "にほんご", candidates: ["日本語", "にほんご", "ニホンゴ"])],
        "きょうはいいてんきですね": [
            KanaKanjiSegment(reading: "きょうは", candidates: ["今日は", "きょうは", "京は"]),
            KanaKanjiSegment(reading: "いい", candidates: ["いい", "良い"]),
            KanaKanjiSegment(reading: "てんきですね", candidates: ["天気ですね", "転機ですね"]),
        ],
        "いいてんきですね": [
            KanaKanjiSegment(reading: "いい", candidates: ["いい", "良い"]),
            KanaKanjiSegment(reading: "てんきですね", candidates: ["天気ですね", "転機ですね"]),
        ],
    ]
    /// Every reading asked, in order.
    var asked: [String] = []
    /// When set, every conversion fails (no segments), as a broken engine would.
    var isBroken = false

    mutating func convert(_ reading: String) -> [KanaKanjiSegment] {
        asked.append(reading)
        if isBroken { return [] }
        return dictionary[reading] ?? [KanaKanjiSegment(reading: reading, candidates: [reading])]
    }
}

extension KanaPad {
    /// Lifts the standard key `id` at `time` ms after a 40 ms touch: a tap, or a flick.
    @discardableResult
    mutating func press(_ id: String, _ release: FlickRelease = .tap, at time: Int) -> [KanaPadEffect] {
        handle(.kanaKey(KanaKey.standard(id)!, release, touchDown: ms(time - 40)), at: ms(time))
    }

    /// Taps the standard key `id` `count` times, 150 ms apart, from `time` ms.
    @discardableResult
    mutating func taps(_ id: String, _ count: Int, from time: Int) -> [KanaPadEffect] {
        (0..<count).flatMap { press(id, at: time + 150 * $0) }
    }

    /// The reading shown (no candidate chosen).
    var reading: String { composition.reading }
}
