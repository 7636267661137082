/// Finding emoji by their CLDR names and keywords (issue 34's "Search Emoji", the part the
/// search field will use): English and Japanese alike, without regard to case or to
/// katakana / hiragana (「ねこ」 finds ネコ's 🐱 and 🐈).
extension EmojiCatalog {
    /// The emoji whose names or keywords match any of `queries` (a typed reading and, for
    /// Japanese, its conversions: 「ねこ」 and 「猫」), best first: a name or keyword equal to a
    /// query, then one starting with it, then one containing it; the data's order within each.
    /// Empty or blank queries match nothing.
    public func search(_ queries: [String]) -> [Emoji] {
        let folded = queries.map(Self.fold).filter { !$0.isEmpty }
        guard !folded.isEmpty else { return [] }
        var ranked: [(rank: Int, index: Int)] = []
        for (index, entry) in emoji.enumerated() {
            let words = entry.names.flatMap { $0.split(separator: "|") }.map { Self.fold(String($0)) }
            var best = Int.max
            for query in folded {
                for word in words {
                    if word == query { best = min(best, 0) } else if word.hasPrefix(query) { best = min(best, 1) }
                    else if word.contains(query) { best = min(best, 2) }
                }
            }
            if best != .max { ranked.append((best, index)) }
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map { emoji[$0.index] }
    }

    /// `text` lower-cased, trimmed, with katakana as hiragana (ァ U+30A1 … ヶ U+30F6 move down
    /// by 0x60) and full-width Latin letters and digits as ASCII.
    static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.value {
            case 0x30A1...0x30F6: scalars.append(Unicode.Scalar(scalar.value - 0x60)!)
            case 0xFF10...0xFF19, 0xFF41...0xFF5A: scalars.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            default: scalars.append(scalar)
            }
        }
        return String(scalars).trimmingSpaces
    }
}

private extension String {
    /// Without leading and trailing spaces (ASCII and ideographic).
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\u{3000}" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
