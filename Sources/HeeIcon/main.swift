// hee-icon: writes the app icon, the へぇ button drawn by HeeRender, as a PNG.
// Usage: HeeIcon SIZE OUTPUT.png [ASSETS_DIR]   (used by `make install` and `make icons`)
#if canImport(Glibc)
import Glibc
#endif
import HeeRender

/// Writes a line to stderr (unbuffered).
func complain(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4, let size = Int(arguments[1]), (16...1024).contains(size) else {
    complain("usage: HeeIcon SIZE(16-1024) OUTPUT.png [ASSETS_DIR]")
    exit(64)
}
let assets = arguments.count == 4 ? arguments[3] : "."
do {
    let library = try TTFLibrary()
    let icon = try IconRenderer.render(size: size, library: library, assetsDirectory: assets)
    try PNGFile.write(icon, to: arguments[2])
} catch {
    complain("HeeIcon: \(error)")
    exit(1)
}
