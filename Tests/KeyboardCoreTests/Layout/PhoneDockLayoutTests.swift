import KeyboardCore
import Testing

/// The phone dock (system mode on Phosh, issue 31): about 30 % of a 360 × 720 pt portrait
/// screen, the へぇ button seed 000's shape whole, scaled, in a strip above the letters.
@Suite("Phone dock layout")
struct PhoneDockLayoutTests {
    static let size = KeyboardLayout.defaultSystemWindowSize(keyRows: KeyboardLayout.standardKeyRows, phoneDock: true)

    @Test func aPhoneSizedDockOfFourRows() {
        #expect(Self.size.height == 232, "between squeekboard's 210 and 240 of a 720 pt screen")
        let layout = KeyboardLayout(windowSize: Size(width: 360, height: Self.size.height), mode: .system,
                                    desktopKeys: false, phoneDock: true)
        #expect(layout.keyboardFrame == Rect(x: 0, y: 0, width: 360, height: 232))
        #expect(layout.targetLine == .zero, "no target line in the dock")
        #expect(layout.keyHeight == KeyboardLayout.keyHeight)
        for (key, frame) in layout.keys {
            #expect(frame.minX >= 0 && frame.maxX <= 360 && frame.minY >= 0 && frame.maxY <= 232, "\(key) inside the dock")
        }
    }

    @Test func theHeeButtonKeepsTheSeedsShapeInAStripAboveTheLetters() throws {
        let layout = KeyboardLayout(windowSize: Size(width: 360, height: 232), mode: .system, desktopKeys: false, phoneDock: true)
        let hee = layout.heeFrame
        #expect(abs(hee.width / hee.height - 170.0 / 180.0) < 1e-9, "seed 000's 170 × 180, scaled as a whole")
        #expect(abs(layout.heeScale - 30.0 / 188.0) < 1e-9)
        let letters = layout.keys.filter { $0.key != .hee }.map(\.value.minY).min() ?? 0
        #expect(hee.maxY <= letters, "the button above the letters")
    }

    @Test func aTallerDockGivesTheKeysTheHeightAndTheButtonStays() {
        let layout = KeyboardLayout(windowSize: Size(width: 360, height: 300), mode: .system, desktopKeys: false, phoneDock: true)
        #expect(abs(layout.heeScale - 30.0 / 188.0) < 1e-9)
        #expect(layout.keyHeight > KeyboardLayout.keyHeight)
    }

    @Test func theMinimumIsTheDocksOwn() {
        #expect(KeyboardLayout.minimumWindowSize(for: .system, keyRows: 4, phoneDock: true).height == 232)
        #expect(KeyboardLayout.minimumWindowSize(for: .hostScreen, phoneDock: true) == KeyboardLayout.minimumWindowSize(for: .hostScreen),
                "the host screen has no dock")
    }

    @Test func withoutTheDockNothingChanges() {
        let size = KeyboardLayout.defaultSystemWindowSize()
        #expect(KeyboardLayout(windowSize: size, mode: .system) == KeyboardLayout(windowSize: size, mode: .system, phoneDock: false))
        #expect(KeyboardLayout(windowSize: size, mode: .system).targetLine.height == KeyboardLayout.targetLineHeight)
    }
}
