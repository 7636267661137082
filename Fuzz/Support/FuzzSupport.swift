#if canImport(Glibc)
import Glibc
#endif

// Shared by every fuzz target (scripts/fuzz.sh compiles this file into each of them): reading
// the fuzzer's bytes, and stopping at a broken promise so libFuzzer keeps the input as a crash.

/// The fuzzer's input as a byte array (libFuzzer may pass a null pointer for the empty input).
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the process when `condition` is false: one line on stderr naming the promise that
/// was broken, then `abort()`, which libFuzzer reports as a crash and keeps the input of.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if condition() { return }
    let text = "fuzz invariant broken at \(file):\(line): \(message())\n"
    _ = Array(text.utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

/// Whether `text` shows as one line on a terminal: no C0 or C1 control character (line feed,
/// carriage return, escape, the C1 next-line U+0085, …), no DEL, and no line or paragraph
/// separator (U+2028, U+2029). The project's rule for what bad input prints: one clear line.
func isOneLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { s in
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
    }
}

/// Whether `text` is a valid JSON Lines line as the app writes them (trace, recording): no
/// C0 control character (RFC 8259 escapes them: no line feed or carriage return) and no line
/// or paragraph separator (escaped too, for readers that split lines there).
func isJSONLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { s in s.value < 0x20 || s.value == 0x2028 || s.value == 0x2029 }
}

/// Reads a fuzzer's bytes front to back as the small values a target decodes them into
/// (operation codes, lengths, offsets). Past the end every read gives 0, so any input is a
/// whole program.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been read.
    var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next byte as a signed value, -128...127.
    mutating func signed() -> Int { Int(Int8(bitPattern: byte())) }

    /// The next byte as a whole number in `0..<count` (`count` > 0).
    mutating func below(_ count: Int) -> Int { Int(byte()) % count }

    /// The next byte's lowest bit.
    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// Up to `count` of the next bytes (fewer at the end).
    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(index + max(count, 0), bytes.count)
        defer { index = end }
        return bytes[min(index, end)..<end]
    }

    /// Every byte not read yet.
    mutating func rest() -> ArraySlice<UInt8> { take(bytes.count - index) }
}

