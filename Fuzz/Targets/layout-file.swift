import KeyboardCore
#if canImport(AppModel)
import AppModel
#endif

// A layout file (`layouts/NAME.json`, issues 20-22) read as the app reads one
// (`LayoutFile.read`, the byte order mark skipped, the name not checked here: the app checks it
// against the file's name), then used as the app uses it.
//
// Promises checked: no crash, hang or unbounded memory on any bytes; a refusal is one line
// (it is printed as one warning, and the app then runs with the built-in en); a layout that
// reads is laid out, in every layer, at the smallest window for its rows in both modes, with
// and without the desktop row, with every key of the layer placed in a finite rectangle of
// positive size inside the keyboard, found by a tap at its centre; and a session of it takes
// a tap on every key of its first layer, a long press and a layer switch without breaking.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayoutFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let definition: LayoutDefinition
    do {
        definition = try LayoutFile.read(fuzzBytes(data, size))
    } catch {
        require(isOneLine(error.description), "refusal is not one line: \(error.description.debugDescription)")
        return 0
    }
    for mode in [KeyboardMode.hostScreen, .system] {
        for desktopKeys in [false, true] {
            let rows = KeyboardLayout.keyRows(of: definition, desktopKeys: desktopKeys)
            let minimum = KeyboardLayout.minimumWindowSize(for: mode, keyRows: rows)
            for layer in definition.layers {
                let layout = KeyboardLayout(windowSize: minimum, mode: mode, definition: definition, layer: layer.name,
                                            desktopKeys: desktopKeys)
                let shown = definition.rows(of: layer, desktopKeys: desktopKeys).flatMap { $0.compactMap(\.keyID) }
                require(Set(layout.orderedKeys) == Set(shown), "layer \(layer.name): keys placed \(layout.orderedKeys) differ")
                for key in layout.orderedKeys {
                    guard let r = layout.keys[key] else { require(false, "\(key) has no rectangle"); continue }
                    require(r.x.isFinite && r.y.isFinite && r.width > 0 && r.height > 0, "\(key): rectangle \(r)")
                    require(r.minX >= -1e-6 && r.maxX <= layout.keyboardFrame.maxX + 1e-6
                            && r.minY >= layout.keyboardFrame.minY - 1e-6 && r.maxY <= layout.keyboardFrame.maxY + 1e-6,
                            "\(key): \(r) outside the keyboard \(layout.keyboardFrame)")
                    require(layout.key(at: r.center) == key, "a tap at \(key)'s centre finds \(String(describing: layout.key(at: r.center)))")
                }
            }
        }
    }
    var session = KeyboardSession(windowSize: KeyboardLayout.minimumWindowSize(for: .hostScreen), definition: definition)
    _ = session.handle(.launched, at: .zero)
    var time = Duration.milliseconds(1_000)
    for key in session.layout.orderedKeys {
        guard let center = session.layout.keys[key]?.center else { continue }
        _ = session.handle(.pointerDown(.finger(1), center), at: time)
        // Every fifth key is held past the hold delay (alternates, the trackpad).
        time += key.name.count % 5 == 0 ? .milliseconds(600) : .milliseconds(40)
        _ = session.handle(.tick, at: time)
        _ = session.handle(.pointerUp(.finger(1), center), at: time)
        time += .milliseconds(300)
        _ = session.handle(.tick, at: time)
        if !session.hostScreen.keysAreLive { break }
    }
    return 0
}
