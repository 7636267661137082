import AppModel
import KeyboardCore

/// The emoji keyboard's data round trip (issue 34): the session asks with `.emojiDataNeeded`
/// when the globe key first reaches it, the app reads `emoji/emoji.tsv` from the assets and
/// hands the text back (`KeyboardInput.emojiData`). Nothing is read at start-up.
extension Application {
    /// The largest emoji data file read (the committed one is about 230 KB).
    static let emojiDataLimit = 4 << 20

    /// Reads the emoji data and hands it to the session; a file that cannot be read is one
    /// line on stderr and an empty grid.
    func emojiDataNeeded(at time: Duration) {
        let path = AssetLocator.join(assetsDirectory, "emoji/emoji.tsv")
        let text: String
        switch RegularFileRead.read(path, limit: Self.emojiDataLimit) {
        case .contents(let bytes, _):
            text = String(decoding: bytes, as: UTF8.self)
        default:
            Console.error("\(Console.program): emoji data \(path) cannot be read; the emoji keyboard is empty")
            text = ""
        }
        send(.emojiData(text), at: time)
    }

    /// The largest 顔文字 file read (the committed one is under 1 KB).
    static let kaomojiDataLimit = 64 << 10

    /// Reads the kana pad's 顔文字 (`emoji/kaomoji.tsv`, a few hundred bytes) at launch and
    /// hands them to the session; a file that cannot be read is one line on stderr and a ^_^
    /// tap that shows nothing.
    func kaomojiDataRead(at time: Duration) {
        let path = AssetLocator.join(assetsDirectory, "emoji/kaomoji.tsv")
        guard case .contents(let bytes, _) = RegularFileRead.read(path, limit: Self.kaomojiDataLimit) else {
            Console.error("\(Console.program): kaomoji \(path) cannot be read; the ^_^ key shows none")
            return
        }
        send(.kaomojiData(String(decoding: bytes, as: UTF8.self)), at: time)
    }
}
