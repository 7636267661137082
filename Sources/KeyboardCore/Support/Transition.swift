/// A value animated from `from` to `to` over `duration`, starting at `start`.
///
/// Time is an input: `value(at:)` takes the current time, so the same transition gives the
/// same value in a test, a replay and the live app. Uses an ease-in-out curve, SwiftUI's
/// default animation curve.
public struct Transition: Hashable, Sendable {
    public var from: Double
    public var to: Double
    /// When the transition began, as time since the session started.
    public var start: Duration
    /// How long it runs.
    public var duration: Duration

    public init(from: Double, to: Double, start: Duration, duration: Duration) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = duration
    }

    /// A transition that is already at rest at `value`.
    public static func resting(at value: Double) -> Transition {
        Transition(from: value, to: value, start: .zero, duration: .zero)
    }

    /// When the value reaches `to`.
    public var end: Duration { start + duration }

    /// Whether the value still changes after `time`.
    public func isRunning(at time: Duration) -> Bool { time < end && from != to }

    /// Progress in 0...1 (linear in time).
    public func progress(at time: Duration) -> Double {
        guard duration > .zero else { return 1 }
        let p = (time - start).seconds / duration.seconds
        return min(max(p, 0), 1)
    }

    /// The eased value at `time`.
    public func value(at time: Duration) -> Double {
        let p = progress(at: time)
        let eased = p * p * (3 - 2 * p)  // smoothstep: ease in and out
        return from + (to - from) * eased
    }

    /// A transition from wherever this one is at `time` towards `target`, for values that
    /// run in 0...1 (a press, a slide). It takes `fullDuration` × the distance left, so a
    /// release half-way through a press animation takes half as long to come back.
    public func retargeted(to target: Double, at time: Duration, fullDuration: Duration) -> Transition {
        let current = value(at: time)
        let share = min(abs(target - current), 1)
        return Transition(from: current, to: target, start: time, duration: fullDuration * share)
    }
}
