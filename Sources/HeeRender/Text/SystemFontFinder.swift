import CFontconfig

/// Finds an installed font that has a given character, through fontconfig (the system's
/// own font configuration, not a directory walk). Answers are cached per character.
public final class SystemFontFinder {
    /// A font file and face index.
    public struct FontFile: Hashable, Sendable {
        public var path: String
        public var index: Int
    }

    private struct Query: Hashable { var scalar: UInt32; var color: Bool }
    private var cache: [Query: FontFile?] = [:]
    /// Whether fontconfig loaded its configuration; `nil` until the first lookup (loading it
    /// costs several milliseconds, and text the bundled fonts cover never needs it).
    private var available: Bool?

    /// A finder; fontconfig's configuration is loaded at the first lookup. Without one,
    /// every lookup answers `nil`.
    public init() {}

    /// The best installed font that has `scalar`, preferring Japanese faces (or colour
    /// faces, for emoji presentation), or `nil` when no font has it.
    public func font(for scalar: Unicode.Scalar, preferColor: Bool = false) -> FontFile? {
        let query = Query(scalar: scalar.value, color: preferColor)
        if let cached = cache[query] { return cached }
        if available == nil { available = FcInit() != 0 }
        var found = available == true ? lookUp(scalar.value, color: preferColor) : nil
        if found == nil && preferColor { found = font(for: scalar) }
        cache[query] = found
        return found
    }

    private func lookUp(_ ch: UInt32, color: Bool) -> FontFile? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard let charset = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(charset) }
        FcCharSetAddChar(charset, ch)
        FcPatternAddCharSet(pattern, HEE_FC_CHARSET, charset)
        "ja".withCString { lang in
            lang.withMemoryRebound(to: FcChar8.self, capacity: 3) { _ = FcPatternAddString(pattern, HEE_FC_LANG, $0) }
        }
        if color { FcPatternAddBool(pattern, HEE_FC_COLOR, FcTrue) }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        // fontconfig returns its best match even when it lacks the character: check.
        var matchCharset: OpaquePointer?
        guard FcPatternGetCharSet(match, HEE_FC_CHARSET, 0, &matchCharset) == FcResultMatch,
              let matchCharset, FcCharSetHasChar(matchCharset, ch) != 0 else { return nil }
        if color {
            var isColor: FcBool = FcFalse
            guard FcPatternGetBool(match, HEE_FC_COLOR, 0, &isColor) == FcResultMatch, isColor != FcFalse else { return nil }
        }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, HEE_FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(match, HEE_FC_INDEX, 0, &index)
        let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        return FontFile(path: path, index: Int(index))
    }
}
