import KeyboardCore
/// What happens to the audio device — when to open, close, retry and play, and what to tell
/// the user — as a value type with explicit transitions (issue 10, "What must hold").
///
/// - A press either plays (`.play`) or says in the trace why not (`audio` `unavailable` with
///   a reason, or `muted`): never silence with a `sound` line.
/// - The device follows the system: a lost device (SDL_AUDIODEVICEREMOVED, or one that
///   stopped playing) is closed and the next press opens the default device again; when no
///   device could be opened, a press tries again at most once per `retryInterval`, with the
///   audio drivers detected afresh (`redetect`), so a sound server started later is heard.
/// - Warnings: one line per change of state — sound lost or unavailable, then sound back —
///   never one per press, and never "running without sound" while it will try again.
/// - After `idleTimeout` of silence the device is suspended (closed, or made inactive) and
///   the next press opens it again (see docs/performance.md for its cost).
///
/// Time is an input (the app's clock); the app performs the effects and reports their
/// outcome (`opened`, `openFailed`).
public struct AudioDeviceModel: Hashable, Sendable {
    /// Shortest time between two attempts to open a device after one failed.
    public static let retryInterval: Duration = .seconds(1)

    /// Where the device stands.
    public enum Phase: Hashable, Sendable {
        /// The keyboard is hidden: no device wanted.
        case stopped
        /// Wanted but not open: not opened yet, or closed after a silence (`suspended`).
        case closed(suspended: Bool)
        /// Open and playing (silence when no clip plays).
        case open
        /// No device: the last attempt failed (at `lastAttempt`), or the device was lost
        /// (`lastAttempt` nil: the next press tries at once).
        case failing(reason: String, lastAttempt: Duration?)
    }

    /// What the app must do.
    public enum Effect: Hashable, Sendable {
        /// Open the default device; `redetect`: start the audio subsystem afresh first, so
        /// drivers and sound servers are looked for again. Report `opened` or `openFailed`.
        case openDevice(redetect: Bool)
        /// Close the device.
        case closeDevice
        /// Nothing played for the idle time: make the device cost nothing until the next
        /// `openDevice` (SDL's devices are closed; the app's own PipeWire stream is made
        /// inactive, its links kept, so reopening it is fast).
        case suspendDevice
        /// Start the clip (the device is open and live).
        case play
        /// Print this line on stderr (after the program's name).
        case warn(String)
        /// Write this trace event.
        case trace(TraceEvent)
    }

    /// Where the device stands now (`stopped` until the keyboard appears).
    public private(set) var phase: Phase = .stopped
    /// Never open a device (`--mute`).
    public let muted: Bool
    /// Whether the user has been told that there is no sound (and not yet that it is back).
    public private(set) var toldNoSound = false
    /// Whether a device was opened since the keyboard appeared (a close is then reported).
    private var openedSinceStart = false
    /// A press is waiting for the device being opened.
    private var pressPending = false
    private var toldMuted = false

    /// A model for a keyboard not shown yet; `muted` (`--mute`): never open a device.
    public init(muted: Bool) {
        self.muted = muted
    }

    /// The keyboard appeared: open the device (or say why there is no sound).
    public mutating func start(at time: Duration) -> [Effect] {
        guard phase == .stopped else { return [] }
        if muted { return mutedEffects(warn: true) }
        phase = .closed(suspended: false)
        openedSinceStart = false
        return [.openDevice(redetect: false)]
    }

    /// The keyboard disappeared: close the device.
    public mutating func stop() -> [Effect] {
        // A suspended device may still hold something (an inactive stream): closed too.
        let wasOpen = phase == .open || phase == .closed(suspended: true)
        let opened = openedSinceStart
        phase = .stopped
        pressPending = false
        openedSinceStart = false
        var effects: [Effect] = wasOpen ? [.closeDevice] : []
        if opened { effects.append(.trace(.audioClosed)) }
        return effects
    }

    /// The へぇ button was pressed at `time`: play, open first, or say why not.
    public mutating func press(at time: Duration) -> [Effect] {
        if muted { return mutedEffects(warn: false) }
        switch phase {
        case .stopped:
            return [.trace(.audioSilent(status: "unavailable", reason: "the keyboard is hidden"))]
        case .open:
            return [.play]
        case .closed:
            pressPending = true
            return [.openDevice(redetect: false)]
        case .failing(let reason, let lastAttempt):
            if let lastAttempt, time - lastAttempt < Self.retryInterval {
                return [.trace(.audioSilent(status: "unavailable", reason: reason))]
            }
            pressPending = true
            return [.openDevice(redetect: true)]
        }
    }

    /// The device opened with `spec` (an `audioOpen` event).
    public mutating func opened(_ spec: TraceEvent, at time: Duration) -> [Effect] {
        let wasSuspended = phase == .closed(suspended: true)
        guard phase != .stopped else { return [.closeDevice] }
        phase = .open
        openedSinceStart = true
        var effects: [Effect] = [.trace(wasSuspended ? .audioResumed(spec) : spec)]
        if toldNoSound {
            toldNoSound = false
            effects.append(.warn("sound is back\(Self.driverNote(spec))"))
        }
        if pressPending {
            pressPending = false
            effects.append(.play)
        }
        return effects
    }

    /// Opening failed (`reason`: the error) at `time`. Says so in the trace (which also
    /// answers a waiting press) and, the first time, on stderr.
    public mutating func openFailed(_ reason: String, at time: Duration) -> [Effect] {
        guard phase != .stopped else { return [] }
        phase = .failing(reason: reason, lastAttempt: time)
        pressPending = false
        var effects: [Effect] = [.trace(.audioSilent(status: "unavailable", reason: reason))]
        if !toldNoSound {
            toldNoSound = true
            effects.append(.warn("warning: no sound: \(reason); trying again when a key is pressed"))
        }
        return effects
    }

    /// The open device went away (removed, or it stopped playing): close it; the next press
    /// opens the default device again.
    public mutating func lost(_ reason: String, at time: Duration) -> [Effect] {
        guard phase == .open else { return [] }
        phase = .failing(reason: reason, lastAttempt: nil)
        var effects: [Effect] = [.closeDevice, .trace(.audioSilent(status: "lost", reason: reason))]
        if !toldNoSound {
            toldNoSound = true
            effects.append(.warn("warning: sound lost: \(reason); it comes back with a key press once a device is available"))
        }
        return effects
    }

    /// The pointer moved over the window: a press may be coming, so a device closed after a
    /// silence is opened now, ahead of it (a failed or lost device is left to the next
    /// press, which tries again).
    public mutating func pointerApproached() -> [Effect] {
        guard phase == .closed(suspended: true) else { return [] }
        return [.openDevice(redetect: false)]
    }

    /// Nothing has played for the idle time: suspend the device until the next press.
    public mutating func suspend() -> [Effect] {
        guard phase == .open else { return [] }
        phase = .closed(suspended: true)
        return [.suspendDevice, .trace(.audioSuspended)]
    }

    /// Whether the device is open.
    public var isOpen: Bool { phase == .open }

    private mutating func mutedEffects(warn: Bool) -> [Effect] {
        var effects: [Effect] = [.trace(.audioSilent(status: "muted", reason: "--mute"))]
        if warn && !toldMuted {
            toldMuted = true
            effects.append(.warn("warning: sound is off (--mute)"))
        }
        return effects
    }

    private static func driverNote(_ spec: TraceEvent) -> String {
        if case .audioOpen(_, _, _, _, let driver?) = spec { return " (\(driver))" }
        return ""
    }
}
