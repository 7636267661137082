import KeyboardCore
import Testing

/// `value` milliseconds since the session started.
func ms(_ value: Int) -> Duration { .milliseconds(value) }

/// Whether two doubles agree to within `tolerance`.
func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

extension KeyboardSession {
    /// A session for `size` that has received `.launched` at time zero.
    static func launched(_ size: Size = KeyboardLayout.defaultWindowSize) -> KeyboardSession {
        var session = KeyboardSession(windowSize: size)
        _ = session.handle(.launched, at: .zero)
        return session
    }

    /// Sends `input` at `time` milliseconds.
    @discardableResult
    mutating func send(_ input: KeyboardInput, at time: Int) -> [KeyboardEffect] {
        handle(input, at: ms(time))
    }

    /// The centre of `key` in the current layout.
    func center(of key: KeyID) throws -> Point {
        try #require(layout.keys[key]).center
    }

    /// Presses `key` at `time` ms and releases it `hold` ms later, both at its centre.
    @discardableResult
    mutating func tap(_ key: KeyID, at time: Int, hold: Int = 40, pointer: PointerID = .mouse) throws -> [KeyboardEffect] {
        let point = try center(of: key)
        return send(.pointerDown(pointer, point), at: time) + send(.pointerUp(pointer, point), at: time + hold)
    }

    /// Clicks a host control at `time` ms (down, then up 40 ms later, at its centre).
    @discardableResult
    mutating func click(_ control: HostControl, at time: Int) -> [KeyboardEffect] {
        let point = layout.frame(of: control).center
        return send(.pointerDown(.mouse, point), at: time) + send(.pointerUp(.mouse, point), at: time + 40)
    }
}

extension Array where Element == KeyboardEffect {
    /// The texts of every `textChanged`, in order.
    var texts: [String] {
        compactMap { if case .textChanged(let text, _) = $0 { text } else { nil } }
    }

    /// Every `heeCounted` value, in order.
    var heeCounts: [Int] {
        compactMap { if case .heeCounted(let count) = $0 { count } else { nil } }
    }

    /// Every `keyboardFrameChanged`, in order.
    var frameChanges: [KeyboardEffect] {
        filter { if case .keyboardFrameChanged = $0 { true } else { false } }
    }

    /// Every `shiftChanged` state, in order.
    var shiftStates: [ShiftState] {
        compactMap { if case .shiftChanged(let state) = $0 { state } else { nil } }
    }

    /// The effects other than `needsDisplay`.
    var withoutDisplay: [KeyboardEffect] { filter { $0 != .needsDisplay } }
}
