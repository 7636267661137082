import CSDL
import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// One line of a --replay file, read as main.swift reads the file: through InputRecord.Reader,
// with SDL deciding which key names exist (InputRecord.isKnownKey in HeeApp asks
// SDL_GetKeyFromName). The input is the line's bytes (up to its first line feed).
//
// Promises checked: no crash, hang or unbounded memory; a refused line is named as line 1
// with a one-line message; an accepted line is a valid record (no `problem`), and the line
// the recorder writes for it (`jsonLine`) is one line that reads back as the same record; SDL
// judged the whole key name (a C string ends at NUL).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplayLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var line = fuzzBytes(data, size)
    if let end = line.firstIndex(of: UInt8(ascii: "\n")) { line.removeSubrange(end...) }
    let records: [InputRecord]
    do {
        records = try read(line + [UInt8(ascii: "\n")])
    } catch {
        require(error.line == 1, "a one-line file refused at line \(error.line)")
        require(isOneLine(error.message), "error is not one line: \(error.message.debugDescription)")
        return 0
    }
    require(records.count <= 1, "one line gave \(records.count) records")
    guard let record = records.first else { return 0 }
    require(record.problem == nil, "an accepted record has a problem: \(record.problem ?? "")")
    // SDL reads a name as a C string: what it judged must be the whole name.
    if let key = record.key { require(!key.utf8.contains(0), "key \(key.debugDescription) accepted for its part before NUL") }
    let written = record.jsonLine
    require(isJSONLine(written), "the recorded line is not one line: \(written.debugDescription)")
    do {
        let again = try read(Array((written + "\n").utf8))
        require(again == [record], "the recorded line reads back as \(again), not \(record)")
    } catch {
        require(false, "the recorded line \(written.debugDescription) is refused: \(error)")
    }
    return 0
}

/// A file's records, as main.swift reads them.
func read(_ bytes: [UInt8]) throws(InputRecord.ParseError) -> [InputRecord] {
    var reader = InputRecord.Reader(isKnownKey: isKnownKey)
    try reader.consume(bytes[...])
    return try reader.finish()
}

/// HeeApp's InputRecord.isKnownKey: whether SDL knows the key name.
func isKnownKey(_ name: String) -> Bool {
    SDL_GetKeyFromName(name) != SDLK_UNKNOWN.rawValue
}
