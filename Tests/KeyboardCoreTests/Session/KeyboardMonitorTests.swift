import KeyboardCore
import Testing

/// Seed 001's `ViewModel`: a zero keyboard frame means 閉じている (hidden), any other frame
/// 開いている (shown); the size row shows the frame's size like `CGSize`'s description.
@Suite("KeyboardMonitor (seed 001)")
struct KeyboardMonitorTests {
    @Test func startsHidden() {
        let monitor = KeyboardMonitor()
        #expect(monitor.keyboardStatus == .hide)
        #expect(monitor.keyboardRect == .zero)
        #expect(monitor.keyboardStatus.rowValue == "閉じている")
        #expect(monitor.sizeText == "(0.0, 0.0)")
    }

    @Test(arguments: [
        (Rect(x: 0, y: 408, width: 480, height: 392), "(480.0, 392.0)"),
        (Rect(x: 0, y: 268.25, width: 800, height: 331.75), "(800.0, 331.75)"),
        (Rect(x: 0, y: 0, width: 1, height: 2), "(1.0, 2.0)"),
    ])
    func nonZeroFrameShows(frame: Rect, size: String) {
        var monitor = KeyboardMonitor()
        monitor.keyboardDidChangeFrame(frame)
        #expect(monitor.keyboardStatus == .show)
        #expect(monitor.keyboardStatus.rowValue == "開いている")
        #expect(monitor.keyboardRect == frame)
        #expect(monitor.sizeText == size)
    }

    @Test func zeroFrameHidesAgain() {
        var monitor = KeyboardMonitor()
        monitor.keyboardDidChangeFrame(Rect(x: 0, y: 408, width: 480, height: 392))
        monitor.keyboardDidChangeFrame(.zero)
        #expect(monitor.keyboardStatus == .hide)
        #expect(monitor.keyboardStatus.rowValue == "閉じている")
        #expect(monitor.sizeText == "(0.0, 0.0)")
    }

    @Test func hostScreenWordsAreTheSeeds() {
        #expect(HostScreenText.japanese.title == "キーボード監視")
        #expect(HostScreenText.japanese.placeholder == "タップしてください")
        #expect(HostScreenText.japanese.statusLabel == "状態")
        #expect(HostScreenText.japanese.sizeLabel == "サイズ")
        #expect(HostScreenText.japanese.closeKeyboard == "キーボードを閉じる")
    }
}
