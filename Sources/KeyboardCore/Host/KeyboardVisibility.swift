/// The keyboard sliding in and out: where it is and where it is going.
///
/// `hiddenFraction` is 0 when the keyboard is fully shown and 1 when it has slid entirely
/// below the window's bottom edge; in between it is animated over `slideDuration`.
public struct KeyboardVisibility: Hashable, Sendable {
    /// How long a full slide in or out takes (iOS's keyboard animation is about 0.25 s).
    public static let slideDuration: Duration = .milliseconds(250)

    /// Where the keyboard is heading.
    public private(set) var target: KeyboardStatus
    private var slide: Transition

    /// A keyboard at rest, shown or hidden.
    public init(resting status: KeyboardStatus) {
        target = status
        slide = .resting(at: status == .show ? 0 : 1)
    }

    /// 0 (shown) ... 1 (hidden) at `time`.
    public func hiddenFraction(at time: Duration) -> Double { slide.value(at: time) }

    /// Whether the slide has finished at `time`.
    public func isSettled(at time: Duration) -> Bool { !slide.isRunning(at: time) }

    /// When the running slide ends (`nil` when settled).
    public func deadline(after time: Duration) -> Duration? {
        slide.isRunning(at: time) ? slide.end : nil
    }

    /// Starts sliding in at `time`. Returns `false` if it was already shown or showing.
    public mutating func show(at time: Duration) -> Bool {
        move(to: .show, at: time)
    }

    /// Starts sliding out at `time`. Returns `false` if it was already hidden or hiding.
    public mutating func hide(at time: Duration) -> Bool {
        move(to: .hide, at: time)
    }

    private mutating func move(to status: KeyboardStatus, at time: Duration) -> Bool {
        guard target != status else { return false }
        target = status
        slide = slide.retargeted(to: status == .show ? 0 : 1, at: time, fullDuration: Self.slideDuration)
        return true
    }
}
