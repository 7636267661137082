#if canImport(Glibc)
import Glibc
#endif
import AppModel
import CAtspi
import CSDL
import KeyboardCore

/// The focused text field on X11, through AT-SPI 2 (issue 30): at-spi2-core's accessibility
/// bus, followed by `CAtspi`'s watch on a thread of its own (its GLib main loop never runs on
/// the SDL loop's thread, and nothing is polled). The watch posts an `SDL_USEREVENT` of a type
/// of its own when it has a report; `handle` takes it and makes the `TextContext` of what the
/// focused object says (`AccessibleFacts.textContext`: the rules live in AppModel).
///
/// Started by system mode on X11 once the keyboard's first frame is on the screen: libatspi
/// (with GObject) is loaded then, never for the host screen. While it runs it sets the bus's
/// `org.a11y.Status.IsEnabled` (when it was false), so that Chromium and Firefox started
/// meanwhile expose their fields, and gives it back when it stops (see docs/system-mode.md, "The focused text field (X11)").
final class AtspiContextSource: TextContextSource {
    private let watch: OpaquePointer?
    /// Why the watch did not start, until `handle` says so.
    private var failure: String?
    /// The SDL event type the watch posts (from `SDL_RegisterEvents`).
    let eventType: UInt32
    private var report = hee_atspi_report()
    private(set) var context = TextContext.inactive
    private(set) var unavailableReason: String?
    private(set) var focusSerial: UInt64 = 0
    /// Whether an accessible (not ours) has the focus: false before the first report and
    /// where the focused window's application exposes nothing (xterm, Tk; Qt 5 without its
    /// variable), true for any object that says it has the focus, text field or not.
    private(set) var isFocusKnown = false
    /// Whether the watch's first report came (it says something even when it reads the same
    /// as before it: auto-show's keyboard, hidden until then, waits for it).
    private var reported = false

    /// Loads libatspi and starts the watch; `enableAccessibility`: set `IsEnabled` while it runs.
    /// When libatspi cannot be loaded (or SDL has no event type left) the source is
    /// unavailable from the start, and says so at its first event, which it posts itself.
    init(enableAccessibility: Bool) {
        eventType = SDL_RegisterEvents(1)
        guard eventType != UInt32.max else {
            watch = nil
            unavailableReason = "SDL has no event type left"
            return
        }
        var options = hee_atspi_options(text_before: Int32(AccessibleFacts.textWindowBefore),
                                        text_after: Int32(AccessibleFacts.textWindowAfter),
                                        enable_accessibility: enableAccessibility,
                                        gate: atspiTextGate, wake: atspiWake, wake_argument: eventType)
        var error = [CChar](repeating: 0, count: 256)
        watch = hee_atspi_watch_start(&options, &error, error.count)
        if watch == nil {
            failure = "cannot load AT-SPI: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            atspiWake(eventType)
        }
    }

    /// Stops the watch (its thread gives `IsEnabled` back and leaves the bus).
    deinit {
        if let watch { hee_atspi_watch_stop(watch) }
        hee_atspi_facts_clear(&report.facts)
    }

    func handle(_ event: UnsafePointer<SDL_Event>) -> Bool {
        guard event.pointee.type == eventType else { return false }
        guard let watch else {
            defer { failure = nil }
            guard let failure else { return false }
            unavailableReason = failure
            return true
        }
        guard hee_atspi_watch_take(watch, &report) else { return false }
        LatencyProbe.mark("atspi-event", nanoseconds: report.event_ns)
        LatencyProbe.mark("atspi-read", nanoseconds: report.read_ns)
        LatencyProbe.mark("atspi-report", nanoseconds: report.published_ns)
        var reason: String?
        if report.status == HEE_ATSPI_FAILED {
            reason = withUnsafeBytes(of: report.reason) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let next = report.focused ? AccessibleFacts(report.facts).textContext : .inactive
        defer {
            context = next
            unavailableReason = reason
            focusSerial = report.focus_serial
            isFocusKnown = report.focused
            reported = true
        }
        return !reported || next != context || reason != unavailableReason || report.focus_serial != focusSerial
            || report.focused != isFocusKnown
    }

    /// The X focus moved: the watch reads the focused object again (its application may have
    /// quit, or the focus gone to a window that says nothing through AT-SPI).
    func focusMoved() {
        if let watch { hee_atspi_watch_refresh(watch) }
    }
}

extension AccessibleFacts {
    /// The facts the watch copied out of libatspi (its text only when it read some).
    init(_ facts: hee_atspi_facts) {
        var attributes: [String: String] = [:]
        for i in 0..<facts.attribute_count {
            guard let name = facts.attribute_names?[i], let value = facts.attribute_values?[i] else { continue }
            attributes[String(cString: name)] = String(cString: value)
        }
        var window: TextWindow?
        if facts.has_text, let text = facts.text {
            window = TextWindow(text: String(cString: text), start: Int(facts.text_start), caret: Int(facts.caret))
        }
        self.init(role: Role(rawValue: facts.role), states: States(rawValue: facts.states), attributes: attributes,
                  application: facts.application.map { String(cString: $0) }, text: window)
    }
}

/// The watch's gate, on its thread: whether the object's text may be read (AppModel's rule;
/// it looks only at the facts it is given).
private func atspiTextGate(_ facts: UnsafePointer<hee_atspi_facts>?) -> Bool {
    guard let facts else { return false }
    return AccessibleFacts(facts.pointee).mayReadText
}

/// The watch's wake-up, on its thread: an `SDL_USEREVENT` of the source's type (SDL's queue
/// takes events from any thread). A plain function: nothing of the main actor is touched.
private func atspiWake(_ type: UInt32) {
    var event = SDL_Event()
    event.type = type
    event.user.timestamp = SDL_GetTicks()
    _ = SDL_PushEvent(&event)
}
