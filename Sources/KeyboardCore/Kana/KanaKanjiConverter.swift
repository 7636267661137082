/// A kana–kanji conversion engine: a reading (hiragana) in, segments with candidates out.
///
/// The app's is Anthy (`AnthyConverter` in HeeApp); the core's tests use a fake. `KanaPad`
/// never calls one itself: it asks with `KanaPadEffect.convert` and takes the answer as
/// `KanaPadInput.conversion`, or `KanaPad.handle(_:at:converter:)` does both in one call.
public protocol KanaKanjiConverter {
    /// Splits `reading` into segments (文節) and gives each one's candidates, best first.
    /// The segments' readings, joined, are `reading` (at least as long, `Character` for
    /// `Character`: see `KanaCandidate.list`). No segments means no candidates (the engine
    /// failed or knows nothing): the pad still types kana.
    mutating func convert(_ reading: String) -> [KanaKanjiSegment]
}

/// One segment (文節) of a conversion: きょうは → 今日は, 京は, …
public struct KanaKanjiSegment: Hashable, Sendable {
    /// The part of the reading this segment covers.
    public var reading: String
    /// Its conversions, best first.
    public var candidates: [String]

    public init(reading: String, candidates: [String]) {
        self.reading = reading
        self.candidates = candidates
    }
}

/// One entry of the candidate bar: text that stands for the first `readingLength`
/// `Character`s of the reading. A whole-reading candidate commits everything; a first-segment
/// one (今日は for きょうはいいてんきですね) commits that part and leaves the rest composing.
public struct KanaCandidate: Hashable, Sendable {
    public var text: String
    /// How many `Character`s of the reading, from its start, the candidate replaces.
    public var readingLength: Int

    public init(text: String, readingLength: Int) {
        self.text = text
        self.readingLength = readingLength
    }
}

extension KanaCandidate {
    /// The candidate bar for `reading` from a converter's `segments`:
    /// 1. with two or more segments, the whole sentence (each segment's best candidate,
    ///    joined: 今日はいい天気ですね) first;
    /// 2. then every candidate of the first segment, standing for that segment's part of the
    ///    reading (今日は, きょうは, 京は, … for きょうは; for a one-segment reading these are
    ///    whole).
    /// Segments are matched to the reading by length in `Character`s, not by text: an engine
    /// may spell its segments' readings differently (Anthy gives 〜 back as ~). Duplicates
    /// (same text and length) appear once. Segments whose lengths do not add up to the
    /// reading's (a confused engine) give no candidates.
    /// - Complexity: O(n) in the reading and the first segment's candidates.
    public static func list(for reading: String, segments: [KanaKanjiSegment]) -> [KanaCandidate] {
        let lengths = segments.map(\.reading.count)
        guard let first = segments.first, !lengths.contains(0), lengths.reduce(0, +) == reading.count else { return [] }
        var list: [KanaCandidate] = []
        var seen = Set<KanaCandidate>()
        func add(_ candidate: KanaCandidate) {
            guard !candidate.text.isEmpty, seen.insert(candidate).inserted else { return }
            list.append(candidate)
        }
        if segments.count > 1 {
            var rest = Substring(reading)
            var best = ""
            for (segment, length) in zip(segments, lengths) {
                best += segment.candidates.first ?? String(rest.prefix(length))
                rest = rest.dropFirst(length)
            }
            add(KanaCandidate(text: best, readingLength: reading.count))
        }
        for text in first.candidates { add(KanaCandidate(text: text, readingLength: lengths[0])) }
        return list
    }
}
