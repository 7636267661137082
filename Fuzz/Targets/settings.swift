import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// settings.json as SettingsFile reads and saves it (Sources/HeeApp/SettingsFile.swift): a file
// over 1 MiB is set aside unread; otherwise its bytes (a UTF-8 byte order mark allowed) become
// a SettingsDocument, whose known members are corrected into Settings with one warning line;
// a document that cannot be read is set aside with its reason in one line. Then the saves the
// app makes: the fields a user changed written over the file as it is, and a first save.
//
// Promises checked: no crash, hang or unbounded memory; the warning and the reason are one
// line each; the settings are in range whatever the file says; `decode` (strict) refuses
// exactly the documents that needed a correction; a save keeps every member the app does not
// know, in order, and what it wrote reads back as the settings saved, with no correction.

/// The size SettingsFile reads at most (`SettingsFile.sizeLimit`, 1 MiB).
let sizeLimit = 1 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard bytes.count <= sizeLimit else { return 0 }
    let document: SettingsDocument
    do {
        document = try SettingsDocument(parsing: bytes)
    } catch {
        require(isOneLine(error.message), "load error is not one line: \(error.message.debugDescription)")
        return 0
    }
    let (loaded, corrections) = document.correctedSettings
    let warning = corrections.map(\.description).joined(separator: "; ")
    require(isOneLine(warning), "warning is not one line: \(warning.debugDescription)")
    checkRanges(loaded)
    let strict = try? document.settings()
    require((strict == nil) == !corrections.isEmpty, "strict decode and corrections disagree: \(warning)")
    if let strict { require(strict == loaded, "strict decode differs from the corrected settings") }

    // The user changed some settings in the app; SettingsFile.save writes them over the file.
    for changed in changes(of: loaded) {
        var current = document
        current.update(from: loaded, to: changed)
        let before = Dictionary(loaded.members, uniquingKeysWith: { $1 })
        let after = Dictionary(changed.members, uniquingKeysWith: { $1 })
        checkSaved(current, settings: changed, original: document, unchanged: Settings.keys.filter { before[$0] == after[$0] })
    }
    // A first save (no usable file): every field written into an empty document.
    var fresh = SettingsDocument()
    fresh.update(from: nil, to: loaded)
    checkSaved(fresh, settings: loaded, original: SettingsDocument(), unchanged: [])
    require(fresh.encoded == loaded.encoded, "Settings.encoded differs from a first save's document")
    return 0
}

/// Every field within the range the app can use.
func checkRanges(_ s: Settings) {
    let minimum = KeyboardLayout.minimumWindowSize
    require(Settings.volumeRange.contains(s.volume), "volume \(s.volume) out of range")
    require(s.limit.map(Settings.limitRange.contains) ?? true, "limit \(String(describing: s.limit)) out of range")
    require(s.windowWidth >= Int(minimum.width) && s.windowWidth <= 16384, "width \(s.windowWidth) out of range")
    require(s.windowHeight >= Int(minimum.height) && s.windowHeight <= 16384, "height \(s.windowHeight) out of range")
}

/// Settings a user could reach from `s` in the app: one field changed, then all of them.
func changes(of s: Settings) -> [Settings] {
    var volume = s
    volume.volume = s.volume == 100 ? 90 : s.volume + 10 > 100 ? 100 : s.volume + 10
    var all = volume
    all.mute.toggle()
    all.maximized.toggle()
    all.windowWidth = s.windowWidth == 480 ? 500 : 480
    all.windowHeight = s.windowHeight == 800 ? 900 : 800
    all.limit = s.limit == nil ? 20 : nil
    return [volume, all]
}

/// What a save writes: one JSON object ending with a newline, without a byte order mark, that
/// reads back as the same document and as `settings` with nothing to correct, and that keeps
/// the members of `original` the app does not know, in their order and with their values.
/// Only a member the save did not write (one of `unchanged`) may still need a correction.
func checkSaved(_ document: SettingsDocument, settings: Settings, original: SettingsDocument, unchanged: Set<String>) {
    let encoded = document.encoded
    require(encoded.first == UInt8(ascii: "{") && encoded.last == UInt8(ascii: "\n"), "saved file is not an object and a newline")
    let reread: SettingsDocument
    do {
        reread = try SettingsDocument(parsing: encoded)
    } catch {
        require(false, "saved file does not read back: \(error.message)")
        return
    }
    require(reread == document, "saved file reads back as another document")
    let (again, corrections) = reread.correctedSettings
    require(again == settings, "saved file reads back as other settings")
    let unknownBefore = original.members.filter { !Settings.keys.contains($0.0) }
    let unknownAfter = reread.members.filter { !Settings.keys.contains($0.0) }
    require(JSONValue.object(unknownBefore) == JSONValue.object(unknownAfter), "a save lost or changed a member it does not know")
    for correction in corrections {
        require(unchanged.contains(correction.field), "a member the save wrote needs a correction: \(correction)")
    }
}
