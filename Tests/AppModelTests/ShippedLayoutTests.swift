import AppModel
import Foundation
import KeyboardCore
import Testing

/// The layout files shipped in `layouts/` (issue 20): `en.json` is the built-in English layout
/// exactly, and `de.json` (iPhone German, QWERTZ) reads, and lays out every layer without
/// overlap down to the smallest window.
@Suite("Shipped layouts")
struct ShippedLayoutTests {
    /// The repository's `layouts/` directory.
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("layouts")
    }()

    static func read(_ name: String) throws -> LayoutDefinition {
        let data = try Data(contentsOf: directory.appendingPathComponent(name + LayoutFile.fileExtension))
        return try LayoutFile.read(Array(data), name: name)
    }

    @Test func theShippedLayoutsAreEnDeAndJaKana() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).sorted()
        #expect(files == ["de.json", "en.json", "ja-kana.json"])
    }

    @Test func enJSONIsTheBuiltInEnglishLayout() throws {
        let file = try Self.read("en")
        #expect(file == LayoutDefinition.english)
        // Spelled out, so a difference says where it is.
        #expect(file.layers == LayoutDefinition.english.layers)
        #expect(file.keys == LayoutDefinition.english.keys)
        #expect(file.columns == LayoutDefinition.english.columns)
    }

    @Test func deJSONIsTheIPhoneGermanLayout() throws {
        let de = try Self.read("de")
        #expect(de.name == "de" && de.columns == 11)
        #expect(de.layers.map(\.name) == ["letters", "numbers", "symbols"])
        let letters = try #require(de.layer(named: "letters"))
        #expect(letters.keyIDs.map(\.name).joined(separator: " ")
            == "hee q w e r t z u i o p ü a s d f g h j k l ö ä shift y x c v b n m backspace 123 space return")
        let numbers = try #require(de.layer(named: "numbers"))
        #expect(numbers.keyIDs.map(\.name).joined(separator: " ")
            == #"hee 1 2 3 4 5 6 7 8 9 0 - / : ; ( ) € & @ " #+= . , ? ! ' backspace ABC space return"#)
        let symbols = try #require(de.layer(named: "symbols"))
        #expect(symbols.keyIDs.map(\.name).joined(separator: " ")
            == #"hee [ ] { } # % ^ * + = _ \ | ~ < > $ £ ¥ • 123 . , ? ! ' backspace ABC space return"#)
        // ß is on s's long press, as on iOS; the umlauts have keys of their own and are not
        // repeated among the vowels' alternates.
        #expect(de.alternates(of: "s").first == "ß")
        for (vowel, umlaut) in [("a", "ä"), ("o", "ö"), ("u", "ü")] {
            #expect(!de.alternates(of: KeyID(vowel)).isEmpty && !de.alternates(of: KeyID(vowel)).contains(umlaut))
        }
        #expect(de.alternates(of: "€") == ["$", "£", "¥", "₩", "¢", "₽"])
        #expect(de.alternates(of: "\"").first == "„")
        #expect(de.action(of: "#+=") == .showLayer("symbols") && de.action(of: "ABC") == .showLayer("letters"))
        #expect(de.label(of: .space) == "Leerzeichen")
        #expect(de.action(of: "ü") == .character("ü"))
    }

    /// The layouts document (docs/layouts.md, README's "Layouts" section before issue 29) shows a
    /// layout of one's own: it reads as `mine`.
    @Test func theDocumentedExampleReads() throws {
        let document = try String(contentsOf: Self.directory.deletingLastPathComponent()
            .appendingPathComponent("docs").appendingPathComponent("layouts.md"), encoding: .utf8)
        let section = try #require(document.components(separatedBy: "# Layouts\n").dropFirst().first)
        let example = try #require(section.components(separatedBy: "```json\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let mine = try LayoutFile.read(Array(example.utf8), name: "mine")
        #expect(mine.layers.map(\.name) == ["letters", "numbers"])
        #expect(mine.action(of: "smile") == .character("(^_^)") && mine.label(of: "smile") == "顔")
    }

    @Test("every layer of every shipped layout fits the smallest window without overlap",
          arguments: ["en", "de"], [KeyboardMode.hostScreen, .system])
    func noOverlapAtTheMinimumSize(name: String, mode: KeyboardMode) throws {
        let definition = try Self.read(name)
        let desktopKeys = mode == .system
        let minimum = KeyboardLayout.minimumWindowSize(for: mode, keyRows: KeyboardLayout.keyRows(of: definition, desktopKeys: desktopKeys))
        for layer in definition.layers {
            let layout = KeyboardLayout(windowSize: minimum, mode: mode, definition: definition, layer: layer.name)
            #expect(layout.windowSize == minimum)
            #expect(layout.layerName == layer.name)
            let desktop = desktopKeys ? definition.desktopRow.compactMap(\.keyID) : []
            #expect(Set(layout.orderedKeys) == Set(layer.keyIDs + desktop), "\(name) \(layer.name): every key placed")
            let rects = layout.orderedKeys.map { ($0, layout.keys[$0]!) }
            for (i, (key, rect)) in rects.enumerated() {
                #expect(rect.minX >= 0 && rect.maxX <= minimum.width + 1e-9 && rect.minY >= layout.keyboardFrame.minY
                        && rect.maxY <= minimum.height + 1e-9, "\(name) \(layer.name) \(key) \(rect) outside the keyboard")
                // At 320 pt, 11 columns still leave a key 23 pt wide (an iPhone SE's German keys
                // are about 26); at least 20.
                #expect(rect.width >= 20 && rect.height >= KeyboardLayout.keyHeight || key == .hee,
                        "\(name) \(layer.name) \(key) \(rect) too small")
                for (other, otherRect) in rects[(i + 1)...] {
                    #expect(!rect.intersects(otherRect), "\(name) \(layer.name): \(key) \(rect) overlaps \(other) \(otherRect)")
                }
            }
            if mode == .hostScreen {
                #expect(layout.keyboardFrame.minY >= layout.volumeRow.maxY, "\(name) \(layer.name): keyboard over the host screen")
            }
        }
    }

    @Test func theGermanLettersShareTheWidthAsOnIOS() throws {
        let de = try Self.read("de")
        let layout = KeyboardLayout(windowSize: KeyboardLayout.defaultWindowSize, definition: de)
        // Eleven letters across, edge to edge.
        let q = try #require(layout.keys["q"]), ue = try #require(layout.keys["ü"])
        #expect(abs(q.minX - KeyboardLayout.keyboardSideMargin) < 1e-9)
        #expect(abs(ue.maxX - (480 - KeyboardLayout.keyboardSideMargin)) < 1e-9)
        // The numbers are ten across the same width, as iOS draws them.
        let numbers = KeyboardLayout(windowSize: KeyboardLayout.defaultWindowSize, definition: de, layer: "numbers")
        let one = try #require(numbers.keys["1"]), zero = try #require(numbers.keys["0"])
        #expect(abs(one.minX - KeyboardLayout.keyboardSideMargin) < 1e-9 && abs(zero.maxX - (480 - KeyboardLayout.keyboardSideMargin)) < 1e-9)
        #expect(one.width > q.width)
    }
}
