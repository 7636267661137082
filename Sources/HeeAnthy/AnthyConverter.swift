#if canImport(Glibc)
import Glibc
#endif
import CAnthy
import KeyboardCore

/// The kana pad's converter: Anthy (Debian's `libanthy1` and `anthy-common`'s dictionary)
/// behind the core's `KanaKanjiConverter`.
///
/// Nothing happens at start-up: `prepare()` loads the library, reads the dictionary and
/// creates the conversion context (about 13 ms, once; `loadCost` says how long it took), when
/// the app is idle or, at the latest, at the first conversion. If that fails, one warning
/// line names the reason and every conversion gives no segments: the pad still types kana,
/// without candidates.
///
/// Conversions are pure reads: nothing is ever committed to Anthy, so it learns nothing and
/// writes no history (the same reading gives the same candidates, which replays need). It
/// does take a lock file in `$HOME/.anthy` (created if missing) and reads the user's own
/// Anthy dictionary there. Anthy finds the home directory in the password database; the
/// converter hands it `HOME` instead when that is set, as the rest of the app uses it.
public final class AnthyConverter: KanaKanjiConverter {
    /// Where loading stands.
    public enum State: Equatable, Sendable {
        case notLoaded
        case ready
        case failed(AnthyError)
    }

    public private(set) var state = State.notLoaded
    /// How long `prepare()` took (library, dictionary, context), once it ran.
    public private(set) var loadCost: Duration?
    private let soname: String
    private let overrides: [(String, String)]
    private let warn: (String) -> Void
    private var library: AnthyLibrary?
    private var context: anthy_context_t?

    /// A converter that will load `soname` with Anthy's configuration `overrides` (variable,
    /// value: `DIC_FILE`, `HOME`, … as in `/etc/anthy/anthy-conf`), reporting a failure
    /// through `warn` once (HeeApp passes its stderr warning line; the text names the reason).
    public init(soname: String = AnthyLibrary.soname, overrides: [(String, String)] = [],
                warn: @escaping (String) -> Void) {
        self.soname = soname
        self.overrides = overrides
        self.warn = warn
    }

    /// Loads Anthy if that has not been tried yet. Returns whether it can convert.
    @discardableResult
    public func prepare() -> Bool {
        guard state == .notLoaded else { return state == .ready }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try load()
            state = .ready
        } catch {
            state = .failed(error)
            warn("no kana-kanji conversion (the kana pad types kana without candidates): \(error)")
        }
        loadCost = clock.now - start
        return state == .ready
    }

    /// Anthy's version string ("0.4"), once loaded.
    public var version: String? {
        library.flatMap { $0.version() }.map { String(cString: $0) }
    }

    /// `reading`'s segments and their candidates, best first (Anthy's order); no segments
    /// when Anthy could not be loaded or the reading is empty.
    /// - Complexity: Anthy's conversion: 0.3–3 ms for the readings of the tests.
    public func convert(_ reading: String) -> [KanaKanjiSegment] {
        guard !reading.isEmpty, prepare(), let library, let context else { return [] }
        guard library.setString(context, reading) == 0 else { return [] }
        var stat = anthy_conv_stat()
        guard library.getStat(context, &stat) == 0 else { return [] }
        var segments: [KanaKanjiSegment] = []
        for index in 0..<stat.nr_segment {
            var segmentStat = anthy_segment_stat()
            guard library.getSegmentStat(context, index, &segmentStat) == 0,
                  let segmentReading = text(of: index, candidate: NTH_UNCONVERTED_CANDIDATE) else { return [] }
            let candidates = (0..<segmentStat.nr_candidate).compactMap { text(of: index, candidate: $0) }
            segments.append(KanaKanjiSegment(reading: segmentReading, candidates: candidates))
        }
        return segments
    }

    /// Candidate `candidate` of segment `segment` (UTF-8), or `nil`.
    private func text(of segment: Int32, candidate: Int32) -> String? {
        guard let library, let context else { return nil }
        let length = library.getSegment(context, segment, candidate, nil, 0)
        guard length >= 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        guard library.getSegment(context, segment, candidate, &buffer, length + 1) == length else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func load() throws(AnthyError) {
        // Anthy reads the password database for the home directory and dereferences the
        // result unchecked (conf.c): a uid without an entry would crash inside it.
        guard getpwuid(getuid()) != nil else {
            throw AnthyError("Anthy needs a password database entry for uid \(getuid())")
        }
        let library = try AnthyLibrary(soname: soname)
        // Anthy prints its messages of exactly this level (default 1; its start failures are
        // level 0): -1 keeps it silent on any build, and the one warning says why.
        library.setLogger(nil, -1)
        var overrides = self.overrides
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty, !overrides.contains(where: { $0.0 == "HOME" }) {
            overrides.insert(("HOME", home), at: 0)
        }
        for (variable, value) in overrides { library.confOverride(variable, value) }
        guard library.initialize() == 0 else { throw Self.startFailure(library) }
        guard let context = library.createContext() else {
            throw AnthyError("Anthy cannot start: no conversion context")
        }
        guard library.setEncoding(context, ANTHY_UTF8_ENCODING) == ANTHY_UTF8_ENCODING else {
            library.releaseContext(context)
            throw AnthyError("Anthy cannot start: no UTF-8 encoding")
        }
        self.library = library
        self.context = context
    }

    /// Why `anthy_init` failed: nearly always its dictionary (Debian's anthy-common).
    private static func startFailure(_ library: AnthyLibrary) -> AnthyError {
        guard let dictionary = library.confGetString?("DIC_FILE").map({ String(cString: $0) }) else {
            return AnthyError("Anthy cannot start (anthy_init failed)")
        }
        if access(dictionary, R_OK) != 0 {
            let reason = String(cString: strerror(errno))
            return AnthyError("Anthy cannot read its dictionary \(dictionary) (Debian package anthy-common): \(reason)")
        }
        return AnthyError("Anthy cannot start with its dictionary \(dictionary) (anthy_init failed)")
    }

    deinit {
        if let library, let context { library.releaseContext(context) }
    }
}
