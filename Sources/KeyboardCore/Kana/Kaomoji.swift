/// The kana pad's 顔文字 (kaomoji) list (issue 34): what iOS's ^_^ key shows in the candidate
/// bar. Read from `emoji/kaomoji.tsv`, a list written for this project (one face a line, in
/// the bar's order; blank lines and lines starting with `#` are skipped; a tab ends a face,
/// for notes after it).
public enum Kaomoji {
    /// The most faces a list keeps (the rest of a longer file is ignored).
    public static let limit = 200

    /// The faces in `text`, in order, each once.
    public static func parse(_ text: String) -> [String] {
        var faces: [String] = [], seen: Set<String> = []
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let face = String(line.prefix { $0 != "\t" })
            guard !face.allSatisfy(\.isWhitespace), seen.insert(face).inserted else { continue }
            faces.append(face)
            if faces.count == limit { break }
        }
        return faces
    }
}
