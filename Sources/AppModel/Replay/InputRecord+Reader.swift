import KeyboardCore
extension InputRecord {
    /// Reads a replay file piece by piece, as it comes off the disk: bytes go in, checked
    /// records come out at the end. Only the line being read is held as bytes, so memory
    /// stays proportional to the records themselves, and a file with an absurdly long line
    /// (`/dev/zero`, a sparse file of zeros: no newline ever) is refused once that line passes
    /// `maximumLineLength`, not after reading all of it.
    ///
    /// Lines end at LF or CR LF (files from Windows editors); a UTF-8 byte order mark before
    /// the first line is dropped; invalid UTF-8 becomes U+FFFD. Every line is checked before
    /// any is used (`finish` hands the records over), so a bad file is refused whole.
    public struct Reader {
        /// The longest line accepted, in bytes without its line end: 64 MiB, far above any
        /// record a recording writes (a 10 MB paste is one `textinput` line).
        public static let defaultMaximumLineLength = 64 << 20

        /// The longest line accepted, in bytes (without the line end).
        public let maximumLineLength: Int
        private let isKnownKey: (String) -> Bool
        private var pending: [UInt8] = []
        private var lineNumber = 0
        private var sawFirstBytes = false
        private var records: [InputRecord] = []

        /// - Parameters:
        ///   - maximumLineLength: the longest line accepted, in bytes.
        ///   - isKnownKey: whether a key name is valid (the app asks SDL).
        public init(maximumLineLength: Int = defaultMaximumLineLength,
                    isKnownKey: @escaping (String) -> Bool = { _ in true }) {
            self.maximumLineLength = maximumLineLength
            self.isKnownKey = isKnownKey
        }

        /// Takes the next bytes of the file and checks every line they complete.
        /// - Throws: `ParseError` for the first malformed line, or for a line longer than
        ///   `maximumLineLength` as soon as it is.
        /// - Complexity: O(n) in the bytes given plus the lines they complete.
        public mutating func consume(_ bytes: ArraySlice<UInt8>) throws(ParseError) {
            var rest = bytes
            if !sawFirstBytes {
                // The byte order mark may arrive split across pieces: wait for three bytes.
                pending.append(contentsOf: rest)
                rest = []
                guard pending.count >= 3 else { return }
                sawFirstBytes = true
                if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
                rest = pending[...]
                pending = []
            }
            while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                let piece = rest[rest.startIndex..<newline]
                // Its CR (before the LF) does not count.
                if pending.count + piece.count > maximumLineLength + 1 { throw tooLong() }
                if pending.isEmpty {
                    try take(piece)
                } else {
                    pending.append(contentsOf: piece)
                    let line = pending
                    pending = []
                    try take(line[...])
                }
                rest = rest[rest.index(after: newline)...]
            }
            pending.append(contentsOf: rest)
            // The line end (CR) may still come: allow one byte for it.
            if pending.count > maximumLineLength + 1 { throw tooLong() }
        }

        /// Ends the file: checks its last line (one without a line end) and hands over the
        /// records, in file order.
        /// - Throws: `ParseError` when that last line is malformed or too long.
        public mutating func finish() throws(ParseError) -> [InputRecord] {
            if !sawFirstBytes {
                // Fewer than three bytes came: too few for a byte order mark. Their lines are
                // read like any others.
                sawFirstBytes = true
                let early = pending
                pending = []
                try consume(early[...])
            }
            let line = pending
            pending = []
            if !line.isEmpty || lineNumber == 0 { try take(line[...]) }
            let result = records
            records = []
            return result
        }

        /// The error for the line being read (the one after `lineNumber`).
        private func tooLong() -> ParseError {
            let limit = maximumLineLength >= 1 << 20 ? "\(maximumLineLength >> 20) MiB" : "\(maximumLineLength) bytes"
            return ParseError(line: lineNumber + 1, message: "line is longer than \(limit) (not a replay file?)")
        }

        /// Checks one line (without its LF) and keeps its record.
        private mutating func take(_ bytes: ArraySlice<UInt8>) throws(ParseError) {
            var body = bytes
            if body.last == UInt8(ascii: "\r") { body = body.dropLast() }
            if body.count > maximumLineLength { throw tooLong() }
            lineNumber += 1
            let text = String(decoding: body, as: UTF8.self)
            let line = text.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            if line.isEmpty || line.hasPrefix("#") { return }
            let record: InputRecord
            do {
                record = try InputRecord(json: try JSONValue.parse(String(line)))
            } catch let error as JSONValue.ParseError {
                throw ParseError(line: lineNumber, message: error.description)
            } catch let error as JSONFields.FieldError {
                throw ParseError(line: lineNumber, message: error.message)
            } catch {
                throw ParseError(line: lineNumber, message: "not a valid record")
            }
            if let problem = record.problem { throw ParseError(line: lineNumber, message: problem) }
            if let key = record.key, !isKnownKey(key) {
                throw ParseError(line: lineNumber, message: "unknown key name \(JSONValue.string(key).serialized)")
            }
            if let previous = records.last, record.t < previous.t {
                throw ParseError(line: lineNumber, message: "timestamp \(record.t) is earlier than the previous line's \(previous.t)")
            }
            records.append(record)
        }
    }
}
