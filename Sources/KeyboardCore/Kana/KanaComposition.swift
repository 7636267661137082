/// What the kana pad is composing: the reading typed so far (not yet text), the candidate
/// bar's conversions of it, and the candidate chosen with 次候補.
///
/// Shown underlined at the caret as `displayText` (an IME's composition, never part of the
/// document) until committed. Every change of the reading drops the candidates, which are
/// then stale: the owner asks the converter again (`KanaPad` does, with `.convert`).
public struct KanaComposition: Hashable, Sendable {
    /// The kana typed and not committed (hiragana, ー and punctuation).
    public private(set) var reading = ""
    /// Conversions of `reading`, for the candidate bar; empty until the converter answers.
    public private(set) var candidates: [KanaCandidate] = []
    /// The candidate chosen with 次候補 and shown in place of its part of the reading.
    public private(set) var selectedCandidate: Int?

    public init() {}

    /// A composition holding `reading` (no candidates yet).
    public init(reading: String) {
        self.reading = reading
    }

    /// Whether nothing is being composed.
    public var isEmpty: Bool { reading.isEmpty }

    /// The last kana of the reading, the one 「゛゜小」 and toggle input change.
    public var lastKana: String? { reading.last.map(String.init) }

    /// What is shown at the caret: the chosen candidate followed by the reading it does not
    /// cover (日本語, or 今日はいいてんきですね), else the reading.
    public var displayText: String {
        guard let candidate = selected else { return reading }
        return candidate.text + reading.dropFirst(candidate.readingLength)
    }

    /// The chosen candidate, if any.
    public var selected: KanaCandidate? { selectedCandidate.map { candidates[$0] } }

    // MARK: Editing the reading

    /// Adds `kana` at the end.
    public mutating func append(_ kana: String) {
        setReading(reading + kana)
    }

    /// Replaces the last kana with `kana` (a toggle step, a 「゛゜小」 form); does nothing when
    /// empty.
    public mutating func replaceLast(with kana: String) {
        guard !reading.isEmpty else { return }
        setReading(String(reading.dropLast()) + kana)
    }

    /// ⌫: a chosen candidate goes back to the reading first; otherwise the last kana is
    /// deleted. Returns `false` when there was nothing to do (empty: the key is the
    /// document's).
    @discardableResult
    public mutating func deleteBackward() -> Bool {
        if selectedCandidate != nil {
            selectedCandidate = nil
            return true
        }
        guard !reading.isEmpty else { return false }
        setReading(String(reading.dropLast()))
        return true
    }

    /// Drops the candidate choice, showing the reading again.
    public mutating func deselect() {
        selectedCandidate = nil
    }

    // MARK: Candidates

    /// The converter's candidates for `reading`; ignored (returns `false`) when the reading
    /// has changed since it was asked (a stale answer).
    @discardableResult
    public mutating func setCandidates(_ list: [KanaCandidate], for reading: String) -> Bool {
        guard reading == self.reading else { return false }
        let length = reading.count
        candidates = list.filter { $0.readingLength > 0 && $0.readingLength <= length }
        selectedCandidate = nil
        return true
    }

    /// A list with nothing composed (the ^_^ key's 顔文字): `texts` in the bar, each tapped
    /// one committed whole; anything typed replaces the list.
    public mutating func showList(_ texts: [String]) {
        self = KanaComposition()
        candidates = texts.map { KanaCandidate(text: $0, readingLength: 0) }
    }

    /// Whether the bar shows a list with nothing composed (`showList`).
    public var showsList: Bool { reading.isEmpty && !candidates.isEmpty }

    /// 次候補: chooses the next candidate (the first when none is chosen), wrapping around.
    /// Returns `false` when there are none.
    @discardableResult
    public mutating func selectNextCandidate() -> Bool {
        guard !candidates.isEmpty else { return false }
        selectedCandidate = selectedCandidate.map { ($0 + 1) % candidates.count } ?? 0
        return true
    }

    /// Back one candidate; from the first, back to no choice (the reading). Returns `false`
    /// when none was chosen.
    @discardableResult
    public mutating func selectPreviousCandidate() -> Bool {
        guard let index = selectedCandidate else { return false }
        selectedCandidate = index == 0 ? nil : index - 1
        return true
    }

    // MARK: Committing

    /// 確定 (and anything that ends the composition: the へぇ button, a new kana after 次候補):
    /// returns `displayText`, which becomes text, and empties the composition.
    public mutating func commit() -> String {
        let text = displayText
        self = KanaComposition()
        return text
    }

    /// A tapped candidate: returns its text, which becomes text; the part of the reading it
    /// does not cover stays composing (and needs converting). `nil` for an index not in the
    /// bar.
    public mutating func commitCandidate(at index: Int) -> String? {
        guard candidates.indices.contains(index) else { return nil }
        let candidate = candidates[index]
        setReading(String(reading.dropFirst(candidate.readingLength)))
        return candidate.text
    }

    private mutating func setReading(_ next: String) {
        reading = next
        candidates = []
        selectedCandidate = nil
    }
}
