/// The へぇ button (seed 000): its press counter (`HeeButtonModel`), the cap's press
/// animation and the clip's playback volume.
///
/// A part of `KeyboardSession`. A touch-down that counts answers `true`: the session then
/// does what seed 000's keyboard controller does with it (the text 「へぇ〜」 into the
/// document, the clip played); the counter's reset and the volume come from the host
/// screen's buttons.
public struct HeeButton: Hashable, Sendable {
    /// How long the cap takes to sink or rise (about 0.1 s, the figure).
    public static let pressAnimationDuration: Duration = .milliseconds(100)
    /// The volume buttons' step (of 0...100).
    public static let volumeStep = 10

    /// The press counter and whether a press is down (seed 000's view model).
    public private(set) var model: HeeButtonModel { didSet { if model != oldValue { revision &+= 1 } } }
    /// The cap's press animation: 0 at rest, 1 pressed (10 pt down, highlight colour).
    public private(set) var cap = Transition.resting(at: 0) { didSet { if cap != oldValue { revision &+= 1 } } }
    /// Playback volume, 0...100.
    public private(set) var volume: Int { didSet { if volume != oldValue { revision &+= 1 } } }
    /// Counts changes of what is drawn: the counter, the cap's animation, the volume.
    public private(set) var revision = 0

    /// A button that has counted nothing; `limit`: the show's limit for the counter, if any;
    /// `volume` is clamped to 0...100.
    public init(limit: Int? = nil, volume: Int = 100) {
        model = HeeButtonModel(limit: limit)
        self.volume = min(max(volume, 0), 100)
    }

    /// The cap's press fraction at `time`: 0 at rest ... 1 fully down and highlighted.
    public func capPress(at time: Duration) -> Double { cap.value(at: time) }

    /// The button was touched at `time`: the cap sinks; returns whether the press counted
    /// (not while already touched, nor once the counter is full).
    public mutating func touchDown(at time: Duration) -> Bool {
        cap = cap.retargeted(to: 1, at: time, fullDuration: Self.pressAnimationDuration)
        return model.touchDown()
    }

    /// The touch ended at `time`: the cap rises.
    public mutating func touchUp(at time: Duration) {
        model.touchUp()
        cap = cap.retargeted(to: 0, at: time, fullDuration: Self.pressAnimationDuration)
    }

    /// The host screen's reset button: the count goes back to 0 (nothing when it is 0).
    public mutating func resetCount() -> [KeyboardEffect] {
        guard model.count != 0 else { return [] }
        model.reset()
        return [.countReset]
    }

    /// The host screen's volume buttons: one step up or down, within 0...100.
    public mutating func stepVolume(up: Bool) -> [KeyboardEffect] {
        let next = min(max(volume + (up ? Self.volumeStep : -Self.volumeStep), 0), 100)
        guard next != volume else { return [] }
        volume = next
        return [.setVolume(next)]
    }
}
