import KeyboardCore

/// The bundled typefaces, all in the assets directory's `fonts/`.
public enum FontFace: String, Hashable, Sendable, CaseIterable {
    /// M+ 1 Regular (kana, kanji, Latin): labels, the text field, key labels.
    case regular
    /// M+ 1 Bold: the navigation title.
    case bold
    /// M+ 1 Code Medium, monospaced: the two-digit counter (seed 000's `.monospaced()`).
    case mono
    /// HeeLaurel, our own: the two laurels at U+E000 (leading) and U+E001 (trailing).
    case laurel

    /// The file below the assets directory.
    public var relativePath: String {
        switch self {
        case .regular: "fonts/MPLUS1-Regular.otf"
        case .bold: "fonts/MPLUS1-Bold.otf"
        case .mono: "fonts/MPLUS1Code-Medium.otf"
        case .laurel: "fonts/HeeLaurel.ttf"
        }
    }

    /// Characters the face must have for the app to draw what the seeds show: a file that
    /// opens but lacks one (a truncated HeeLaurel.ttf still opens, with no laurels) is a bad
    /// font file, not a button quietly drawn without its laurels. The M+ faces' own checks are
    /// FreeType's: a damaged one does not open.
    public var requiredScalars: [Unicode.Scalar] {
        self == .laurel ? [Self.laurelLeading, Self.laurelTrailing] : []
    }

    /// Seed 000's laurel symbols mapped into our font.
    public static let laurelLeading: Unicode.Scalar = "\u{E000}"
    public static let laurelTrailing: Unicode.Scalar = "\u{E001}"
}

/// How a piece of text is drawn: face, size in points and colour.
public struct TextStyle: Hashable, Sendable {
    public var face: FontFace
    /// Size in points (multiplied by the pixel scale when drawn).
    public var points: Double
    public var color: Color

    public init(_ face: FontFace, _ points: Double, _ color: Color) {
        self.face = face
        self.points = points
        self.color = color
    }
}
