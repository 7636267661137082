import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// The JSON reader (`JSONValue.parse`), fed text as both of its readers make it: a replay line
// decodes its bytes with invalid UTF-8 replaced (U+FFFD), the settings file refuses invalid
// UTF-8 before parsing, so only the replacing decoding reaches the parser with any bytes.
//
// Promises checked: no crash, hang or unbounded memory on any text; an error is one line
// with its byte offset inside the text; what parses, serialized, is one line (a trace line,
// a recorded replay line) and parses back to a value that serializes the same (what the app
// writes, it reads back).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let value: JSONValue
    do {
        value = try JSONValue.parse(text)
    } catch {
        require(isOneLine(error.description), "error is not one line: \(error.description.debugDescription)")
        require((0...text.utf8.count).contains(error.offset), "error offset \(error.offset) outside the text")
        return 0
    }
    let written = value.serialized
    require(isJSONLine(written), "serialized value is not one line: \(written.debugDescription)")
    do {
        let again = try JSONValue.parse(written)
        require(again.serialized == written, "serialized, parsed and serialized again differs: \(written.debugDescription)")
    } catch {
        require(false, "serialized value does not parse: \(error) in \(written.debugDescription)")
    }
    return 0
}
