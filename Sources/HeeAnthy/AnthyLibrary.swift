#if canImport(Glibc)
import Glibc
#endif
import CAnthy

/// Anthy (Debian's `libanthy1`), loaded with `dlopen` when the kana pad first needs it rather
/// than linked: the app starts without it (linking it costs about 0.3 ms of every start-up,
/// measured with a C program, for a layout many users never open), and a missing library is
/// one warning rather than a program that cannot start. The C declarations come from
/// `anthy/anthy.h` (module `CAnthy`); this is the table of the functions the converter
/// calls.
public final class AnthyLibrary {
    typealias Initialize = @convention(c) () -> Int32
    typealias ConfOverride = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
    typealias CreateContext = @convention(c) () -> anthy_context_t?
    typealias ReleaseContext = @convention(c) (anthy_context_t?) -> Void
    typealias SetEncoding = @convention(c) (anthy_context_t?, Int32) -> Int32
    typealias SetString = @convention(c) (anthy_context_t?, UnsafePointer<CChar>?) -> Int32
    typealias GetStat = @convention(c) (anthy_context_t?, UnsafeMutablePointer<anthy_conv_stat>?) -> Int32
    typealias GetSegmentStat = @convention(c) (anthy_context_t?, Int32, UnsafeMutablePointer<anthy_segment_stat>?) -> Int32
    typealias GetSegment = @convention(c) (anthy_context_t?, Int32, Int32, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?
    typealias Logger = @convention(c) (Int32, UnsafePointer<CChar>?) -> Void
    typealias SetLogger = @convention(c) (Logger?, Int32) -> Void
    typealias ConfGetString = @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<CChar>?

    /// The shared object's name (Debian's `libanthy1`).
    public static let soname = "libanthy.so.1"

    let initialize: Initialize
    let confOverride: ConfOverride
    let createContext: CreateContext
    let releaseContext: ReleaseContext
    let setEncoding: SetEncoding
    let setString: SetString
    let getStat: GetStat
    let getSegmentStat: GetSegmentStat
    let getSegment: GetSegment
    let version: Version
    /// Anthy's log level: it prints (to stderr, "Anthy: …") the messages of exactly this
    /// level, and never calls the function given (its logger.c: "to be implemented").
    let setLogger: SetLogger
    /// A configuration value (`DIC_FILE`), to explain a failed start. Exported by
    /// libanthydic but not declared in `anthy.h`, so optional.
    let confGetString: ConfGetString?

    /// Loads `soname` and looks up its functions.
    /// - Throws: `AnthyError` with the loader's message.
    init(soname: String = AnthyLibrary.soname) throws(AnthyError) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw AnthyError("cannot load \(soname): " + (dlerror().map { String(cString: $0) } ?? "not found"))
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(AnthyError) -> T {
            guard let address = dlsym(handle, name) else { throw AnthyError("\(soname) has no \(name)") }
            return unsafeBitCast(address, to: type)
        }
        initialize = try symbol("anthy_init", as: Initialize.self)
        confOverride = try symbol("anthy_conf_override", as: ConfOverride.self)
        createContext = try symbol("anthy_create_context", as: CreateContext.self)
        releaseContext = try symbol("anthy_release_context", as: ReleaseContext.self)
        setEncoding = try symbol("anthy_context_set_encoding", as: SetEncoding.self)
        setString = try symbol("anthy_set_string", as: SetString.self)
        getStat = try symbol("anthy_get_stat", as: GetStat.self)
        getSegmentStat = try symbol("anthy_get_segment_stat", as: GetSegmentStat.self)
        getSegment = try symbol("anthy_get_segment", as: GetSegment.self)
        version = try symbol("anthy_get_version_string", as: Version.self)
        setLogger = try symbol("anthy_set_logger", as: SetLogger.self)
        confGetString = dlsym(handle, "anthy_conf_get_str").map { unsafeBitCast($0, to: ConfGetString.self) }
    }

    // The library stays loaded until the process exits (Anthy keeps global state).
}

/// Why Anthy cannot convert: one line for the warning.
public struct AnthyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
