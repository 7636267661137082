/// The work a `TextBuffer` has done, counted as it runs: the cost model behind its
/// `- Complexity:` notes, exposed so that tests can check how an edit's cost grows with the
/// text by counting instead of timing (a count is the same on a busy machine; the times are
/// figures in `make bench`).
///
/// Counts only grow; the work of one operation is the difference of the counts taken before
/// and after it (`after - before`).
public struct TextWork: Hashable, Sendable {
    /// Grapheme-cluster boundaries the buffer found: every `Character` it stepped over,
    /// counted, read or iterated, in its text or in text being inserted. Each one is a run of
    /// Unicode's grapheme-break rules (UAX #29): the unit of work that offsets in Characters
    /// cost, and what a walk over the whole text costs once per Character.
    public var characters = 0
    /// Unicode scalars scanned without segmenting them into Characters (inserted text is
    /// scanned once for control characters).
    public var scalars = 0
    /// UTF-8 bytes of text copied or moved: what an edit inserts, the text it removes (kept for
    /// undo), the neighbours it re-segments, and the bytes after the edit that move when the
    /// string's length changes.
    public var bytes = 0

    /// A count of `characters` grapheme boundaries, `scalars` scalars and `bytes` UTF-8 bytes.
    public init(characters: Int = 0, scalars: Int = 0, bytes: Int = 0) {
        self.characters = characters
        self.scalars = scalars
        self.bytes = bytes
    }

    /// The work done between two readings, `self` taken after `earlier`.
    public static func - (later: TextWork, earlier: TextWork) -> TextWork {
        TextWork(characters: later.characters - earlier.characters, scalars: later.scalars - earlier.scalars,
                 bytes: later.bytes - earlier.bytes)
    }
}
