extension KeyboardSession {
    /// What a pointer holds.
    public enum PointerTarget: Hashable, Sendable {
        /// A key, or `nil` after a letter press slid off every letter key.
        case key(KeyID?)
        /// A host control (acts when released over it).
        case host(HostControl)
        /// A candidate of the kana pad's bar, by its index (committed when released over it).
        case candidate(Int)
        /// Nothing that reacts.
        case none
    }

    /// Text an input method is composing.
    public struct Composition: Hashable, Sendable {
        public var text: String
        /// The IME's cursor within `text`, in Characters.
        public var cursor: Int

        /// `text` composed, the cursor `cursor` Characters into it.
        public init(text: String, cursor: Int) {
            self.text = text
            self.cursor = cursor
        }
    }
}
