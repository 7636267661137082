import CSDL
import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// A whole --replay file read as main.swift reads it: InputRecord.Reader fed the pieces
// FileSystem.readPieces hands it, SDL deciding which key names exist. The first two bytes
// choose the sizes of the pieces (1 byte to 64 KiB, as read(2) may return them); the rest is
// the file.
//
// Promises checked: no crash, hang or unbounded memory; any split into pieces gives the same
// records, or the same error at the same line, as the file in one piece, and so does the file
// with a line end after its last line; an error is one line
// naming a line of the file; the records are valid and in time order; the file the recorder
// would write for them reads back as the same records; a reader with a short line limit
// refuses only what is too long for it and otherwise agrees with the app's 64 MiB limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplayStream(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = ByteReader(fuzzBytes(data, size))
    var random = SplitMix64(state: UInt64(input.byte()) << 8 | UInt64(input.byte()))
    let file = Array(input.rest())
    let lineCount = file.count { $0 == UInt8(ascii: "\n") } + 1

    let whole = Result { () throws(InputRecord.ParseError) in try read([file[...]]) }
    var pieces: [ArraySlice<UInt8>] = []
    var start = 0
    while start < file.count {
        // Mostly small pieces (every boundary: a BOM or CR LF cut in two), sometimes large.
        let limit = random.next() % 4 == 0 ? 1 << 16 : 8
        let end = min(file.count, start + Int.random(in: 1...limit, using: &random))
        pieces.append(file[start..<end])
        start = end
    }
    let split = Result { () throws(InputRecord.ParseError) in try read(pieces) }
    require(same(whole, split), "pieces give \(split), the whole file \(whole)")
    // The last line reads the same with or without its line end.
    if file.last != UInt8(ascii: "\n") {
        let ended = Result { () throws(InputRecord.ParseError) in try read([(file + [UInt8(ascii: "\n")])[...]]) }
        require(same(whole, ended), "with a final line end: \(ended), without: \(whole)")
    }

    switch whole {
    case .failure(let error):
        require((1...lineCount).contains(error.line), "error names line \(error.line) of \(lineCount)")
        require(isOneLine(error.message), "error is not one line: \(error.message.debugDescription)")
    case .success(let records):
        for (i, record) in records.enumerated() {
            require(record.problem == nil, "an accepted record has a problem: \(record.problem ?? "")")
            require(i == 0 || records[i - 1].t <= record.t, "records out of time order")
        }
        // What --record writes for these records (InputRecorder: jsonLine and a line feed).
        let recorded = Array(records.map { $0.jsonLine + "\n" }.joined().utf8)
        let again = Result { () throws(InputRecord.ParseError) in try read([recorded[...]]) }
        require(same(again, .success(records)), "the recorded file reads back as \(again)")
    }

    // A short line limit: the same code path as the app's 64 MiB, at sizes a fuzzer reaches.
    let shortLimit = 16 + Int(random.next() % 256)
    let short = Result { () throws(InputRecord.ParseError) in try read(pieces, maximumLineLength: shortLimit) }
    switch (short, whole) {
    case (.success(let a), .success(let b)):
        require(a == b, "a short line limit reads other records")
    case (.success, .failure(let error)):
        require(false, "a short line limit accepts what the app refuses: \(error)")
    case (.failure(let error), _):
        if error.message.hasPrefix("line is longer than") {
            require(error.line <= lineCount, "too long a line \(error.line) of \(lineCount)")
            require(lineLength(file, error.line) > shortLimit, "line \(error.line) is not longer than \(shortLimit) bytes")
            if case .failure(let appError) = whole {
                require(error.line <= appError.line, "a short line limit read past the app's error line")
            }
        } else if case .failure(let appError) = whole {
            require(error == appError, "a short line limit refuses otherwise: \(error), the app \(appError)")
        } else {
            require(false, "a short line limit refuses what the app accepts: \(error)")
        }
    }
    return 0
}

/// The records of a file handed over in `pieces`, as main.swift reads them.
func read(_ pieces: [ArraySlice<UInt8>], maximumLineLength: Int = InputRecord.Reader.defaultMaximumLineLength)
    throws(InputRecord.ParseError) -> [InputRecord] {
    var reader = InputRecord.Reader(maximumLineLength: maximumLineLength, isKnownKey: isKnownKey)
    for piece in pieces { try reader.consume(piece) }
    return try reader.finish()
}

/// The length in bytes of line `number` (1-based) of `file`, without its line end (LF or
/// CR LF) and, on the first line, without a byte order mark.
func lineLength(_ file: [UInt8], _ number: Int) -> Int {
    var line = file.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[number - 1]
    if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    return line.count
}

/// Whether two reads gave the same records, or the same error.
func same(_ a: Result<[InputRecord], InputRecord.ParseError>, _ b: Result<[InputRecord], InputRecord.ParseError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y
    case (.failure(let x), .failure(let y)): x == y
    default: false
    }
}

/// HeeApp's InputRecord.isKnownKey: whether SDL knows the key name.
func isKnownKey(_ name: String) -> Bool {
    SDL_GetKeyFromName(name) != SDLK_UNKNOWN.rawValue
}
