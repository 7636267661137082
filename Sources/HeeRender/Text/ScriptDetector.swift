/// Which writing system a run of text is in, so HarfBuzz can shape it (join Arabic letters,
/// form Devanagari conjuncts, order right-to-left glyphs).
///
/// Only scripts whose shaping differs visibly from the default are told apart; everything
/// else (Latin, kana, kanji, emoji) is shaped as common script.
enum ScriptDetector {
    enum Script: Hashable {
        case arabic, hebrew, devanagari, bengali, tamil, thai, common

        /// The ISO 15924 tag SDL_ttf passes to HarfBuzz.
        var tag: String? {
            switch self {
            case .arabic: "Arab"
            case .hebrew: "Hebr"
            case .devanagari: "Deva"
            case .bengali: "Beng"
            case .tamil: "Taml"
            case .thai: "Thai"
            case .common: nil
            }
        }

        var isRightToLeft: Bool { self == .arabic || self == .hebrew }
    }

    /// The script of `character`'s first scalar if it is one that needs shaping, else `nil`
    /// (digits, punctuation and spaces go with the text around them). Invisible characters
    /// (U+FEFF, U+061C, bidi controls) belong to no script even inside a script's block.
    static func strongScript(of character: Character) -> Script? {
        guard let first = character.unicodeScalars.first, !first.properties.isDefaultIgnorableCodePoint else { return nil }
        switch first.value {
        case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .arabic
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: return .hebrew
        case 0x0900...0x097F, 0xA8E0...0xA8FF: return .devanagari
        case 0x0980...0x09FF: return .bengali
        case 0x0B80...0x0BFF: return .tamil
        case 0x0E00...0x0E7F: return .thai
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x3040...0x30FF, 0x4E00...0x9FFF: return .common
        default: return nil
        }
    }

    /// The script a run is shaped with: that of its first strong character.
    static func script(of run: String) -> Script {
        for c in run { if let s = strongScript(of: c) { return s } }
        return .common
    }
}
