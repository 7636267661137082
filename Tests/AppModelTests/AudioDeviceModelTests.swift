import AppModel
import KeyboardCore
import Testing

/// The audio device's rules (issue 10): a press plays or says why not, the device follows
/// losses and late servers, retries at most once a second, one warning per change of state.
@Suite("Audio device model")
struct AudioDeviceModelTests {
    typealias Effect = AudioDeviceModel.Effect
    static let spec = TraceEvent.audioOpen(rate: 48000, channels: 2, format: "s16", chunk: 256, driver: "pipewire")

    static func unavailable(_ reason: String) -> Effect { .trace(.audioSilent(status: "unavailable", reason: reason)) }
    static func warnings(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .warn(let line) = $0 { line } else { nil } }
    }

    /// A model whose device opened at time zero.
    static func opened() -> AudioDeviceModel {
        var model = AudioDeviceModel(muted: false)
        #expect(model.start(at: .zero) == [.openDevice(redetect: false)])
        #expect(model.opened(spec, at: .zero) == [.trace(spec)])
        return model
    }

    @Test func aPressOnAnOpenDevicePlays() {
        var model = Self.opened()
        #expect(model.press(at: .seconds(1)) == [.play])
        #expect(model.isOpen)
    }

    @Test func aSuspendedDeviceReopensForThePressAndResumes() {
        var model = Self.opened()
        #expect(model.suspend() == [.closeDevice, .trace(.audioSuspended)])
        #expect(model.press(at: .seconds(5)) == [.openDevice(redetect: false)])
        #expect(model.opened(Self.spec, at: .seconds(5)) == [.trace(.audioResumed(Self.spec)), .play])
    }

    @Test func aLostDeviceIsClosedAndTheNextPressReopensAtOnce() {
        var model = Self.opened()
        let lost = model.lost("the audio device was removed", at: .seconds(2))
        #expect(lost.prefix(2) == [.closeDevice, .trace(.audioSilent(status: "lost", reason: "the audio device was removed"))])
        #expect(Self.warnings(lost).count == 1)
        #expect(!Self.warnings(lost)[0].contains("running without sound"))
        // The very next press, even at once, opens the default device again (redetecting).
        #expect(model.press(at: .milliseconds(2001)) == [.openDevice(redetect: true)])
        let back = model.opened(Self.spec, at: .milliseconds(2001))
        #expect(back.first == .trace(Self.spec) && back.last == .play)
        #expect(Self.warnings(back) == ["sound is back (pipewire)"])
    }

    @Test func failedOpensAreRetriedAtMostOnceASecond() {
        var model = AudioDeviceModel(muted: false)
        _ = model.start(at: .zero)
        let failed = model.openFailed("no server", at: .zero)
        #expect(failed.first == Self.unavailable("no server"))
        #expect(Self.warnings(failed).count == 1)
        // 999 ms later: no attempt, the trace says why.
        #expect(model.press(at: .milliseconds(999)) == [Self.unavailable("no server")])
        // 1 s later: an attempt with the drivers detected afresh; it fails again, silently.
        #expect(model.press(at: .milliseconds(1000)) == [.openDevice(redetect: true)])
        let again = model.openFailed("still no server", at: .milliseconds(1000))
        #expect(again == [Self.unavailable("still no server")])
        #expect(model.press(at: .milliseconds(1500)) == [Self.unavailable("still no server")])
        // A server started meanwhile: the next allowed attempt opens, plays, and says so once.
        #expect(model.press(at: .milliseconds(2100)) == [.openDevice(redetect: true)])
        let back = model.opened(Self.spec, at: .milliseconds(2100))
        #expect(back == [.trace(Self.spec), .warn("sound is back (pipewire)"), .play])
        #expect(model.press(at: .milliseconds(2200)) == [.play])
    }

    @Test func warningsComeOncePerChangeOfState() {
        var model = Self.opened()
        var lines: [String] = []
        for cycle in 0..<3 {
            let t = Duration.seconds(10 * cycle + 10)
            lines += Self.warnings(model.lost("gone", at: t))
            lines += Self.warnings(model.press(at: t))
            lines += Self.warnings(model.openFailed("no server", at: t))
            lines += Self.warnings(model.press(at: t + .seconds(2)))
            lines += Self.warnings(model.openFailed("no server", at: t + .seconds(2)))
            _ = model.press(at: t + .seconds(4))
            lines += Self.warnings(model.opened(Self.spec, at: t + .seconds(4)))
        }
        #expect(lines.count == 6, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("warning: sound lost") }.count == 3)
        #expect(lines.filter { $0.hasPrefix("sound is back") }.count == 3)
    }

    @Test func openingThatFailsAtLaunchIsNotFinal() {
        var model = AudioDeviceModel(muted: false)
        _ = model.start(at: .zero)
        let failed = model.openFailed("ALSA: no card", at: .zero)
        #expect(Self.warnings(failed) == ["warning: no sound: ALSA: no card; trying again when a key is pressed"])
    }

    @Test func mutedPressesSayWhyAndWarnOnce() {
        var model = AudioDeviceModel(muted: true)
        let start = model.start(at: .zero)
        #expect(start.first == .trace(.audioSilent(status: "muted", reason: "--mute")))
        #expect(Self.warnings(start) == ["warning: sound is off (--mute)"])
        #expect(model.press(at: .seconds(1)) == [.trace(.audioSilent(status: "muted", reason: "--mute"))])
        _ = model.stop()
        #expect(Self.warnings(model.start(at: .seconds(2))).isEmpty)
    }

    @Test func stoppingClosesAndReportsOnlyAfterAnOpen() {
        var model = Self.opened()
        #expect(model.stop() == [.closeDevice, .trace(.audioClosed)])
        var never = AudioDeviceModel(muted: false)
        _ = never.start(at: .zero)
        _ = never.openFailed("none", at: .zero)
        #expect(never.stop() == [])
        // A suspended device counts as opened: its close is reported, with nothing to close.
        var suspended = Self.opened()
        _ = suspended.suspend()
        #expect(suspended.stop() == [.trace(.audioClosed)])
    }

    @Test func aDeviceOpenedAfterTheKeyboardHidIsClosedAgain() {
        var model = AudioDeviceModel(muted: false)
        _ = model.start(at: .zero)
        _ = model.stop()
        #expect(model.opened(Self.spec, at: .zero) == [.closeDevice])
    }

    @Test func theOpenEventNamesTheDriverAndLostHasAReason() {
        #expect(Self.spec.json(at: 1).serialized.hasSuffix(#""chunk":256,"driver":"pipewire"}"#))
        let lost = TraceEvent.audioSilent(status: "lost", reason: "the audio device was removed")
        #expect(lost.json(at: 1).serialized == #"{"event":"audio","t":1,"status":"lost","reason":"the audio device was removed"}"#)
    }
}
