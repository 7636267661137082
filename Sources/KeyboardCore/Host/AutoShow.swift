/// System mode's keyboard appears when a text field of another application wants it
/// (issue 30): shown while a field has the focus, hidden once none has it for `hideDelay`, and
/// hidden by the user's own choice (the `hide` key, iOS's `dismissKeyboard()`) until the focus
/// moves to another field or the same field takes it again.
///
/// A part of `KeyboardSession`. It reads the platform's `TextContext` (AT-SPI 2 on X11,
/// input-method-v2 on Wayland, each applied once it is complete: on Wayland at `done`) and a
/// focus serial that changes whenever a field gains the focus; it answers with what the
/// keyboard should do (`Change`), which the session hands to `HostScreen`. Time is only what
/// its inputs say: `hideDue` is read by the session's deadline, and `tick(at:)` acts on it.
///
/// The hold: sway sends `deactivate` + `done` and then `activate` + `done` back to back when
/// the focus moves between two fields, and X11's focus events come out of order, so hiding
/// waits `hideDelay` after the last field went away and any field's focus in between cancels it.
public struct AutoShow: Hashable, Sendable {
    /// How long the keyboard stays after the last text field lost the focus: 250 ms, between
    /// squeekboard's 200 ms and Onboard's 300 ms — longer than a focus change between two
    /// fields takes on a loaded machine (sway's two `done`s come within about 1 ms, AT-SPI's
    /// focus events within tens of ms), and no longer than iOS's keyboard slide (0.25 s).
    public static let hideDelay: Duration = .milliseconds(250)

    /// What the keyboard should do now.
    public enum Change: Hashable, Sendable {
        case show, hide
    }

    /// Whether the keyboard hides while no field has the focus (`--auto-show`, setting
    /// `"autoShow"`, where the platform tells the focused field). Off, the keyboard is shown as
    /// before auto-show, and the `hide` key does nothing (nothing would bring it back).
    public let isEnabled: Bool
    /// The focused field as last told (`.inactive` when none has the focus).
    public private(set) var context = TextContext.inactive {
        didSet { if context.kind != oldValue.kind { revision &+= 1 } }
    }
    /// Changes whenever what the line above the keys says of the field (`context.kind`) does;
    /// never for its text alone.
    public private(set) var revision = 0
    /// Whether the platform can tell which field has the focus; once it said it cannot
    /// (`unavailable()`), the keyboard stays shown, as without auto-show.
    public private(set) var isAvailable = true
    /// The keyboard's state as this part decided it last.
    public private(set) var isShown = true
    /// When the keyboard hides if no field takes the focus before (session time).
    public private(set) var hideDue: Duration?
    /// The focus serial of the field last focused (`nil` before any).
    private var focus: UInt64?
    /// The user hid the keyboard while the field of this focus serial had the focus.
    private var dismissedFocus: UInt64?
    /// Whether the platform said nothing has the focus that it knows of (`contextUnknown()`)
    /// and nothing it knows has taken the focus since.
    public private(set) var isFocusUnknown = false
    /// Whether the user hid the keyboard and no field has taken the focus since.
    public var isDismissed: Bool { dismissedFocus != nil }
    /// The shell's or the user's choice (Phosh's `sm.puri.OSK0.SetVisible`, issue 31): shown
    /// (`true`) or hidden, held until the input method's active state next changes (a field
    /// gains the focus while none had it, or the last one loses it); `nil` when none holds.
    public private(set) var request: Bool?

    /// A part that hides the keyboard when no field wants it if `isEnabled`.
    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    private var hidesWithoutField: Bool { isEnabled && isAvailable && !isFocusUnknown }

    // MARK: Inputs

    /// The keyboard started at `time`: hidden at once (`.hide`) unless a field has the focus,
    /// so nothing is ever drawn for a keyboard no field wants (no flash at the start). The
    /// platform's first context comes right after, before the first frame: a field already
    /// focused shows it again within the same instant. Without auto-show, or where the
    /// platform cannot tell, it starts shown (`nil`).
    public mutating func launched(at time: Duration) -> Change? {
        isShown = true
        hideDue = nil
        guard hidesWithoutField, !context.isActive else { return nil }
        isShown = false
        return .hide
    }

    /// The focused field is now `context` (applied whole: on Wayland at input-method-v2's
    /// `done`), at `time`; `focus` changes whenever a field gains the focus (another field, or
    /// the same one again), so a change of the field's text or kind alone keeps it.
    public mutating func contextChanged(_ context: TextContext, focus: UInt64, at time: Duration) -> Change? {
        let activeChanged = context.isActive != self.context.isActive
        self.context = context
        isFocusUnknown = false
        if activeChanged, request != nil { return requestEnded(focus: focus, at: time) }
        if request != nil {
            // The request holds: another field, or the same field's text, changes nothing.
            if context.isActive { self.focus = focus }
            return nil
        }
        guard context.isActive else {
            // No field: hide after the hold (unless hidden already, or the platform cannot tell).
            if hidesWithoutField, isShown, hideDue == nil { hideDue = time + Self.hideDelay }
            return nil
        }
        hideDue = nil
        if focus != self.focus { dismissedFocus = nil }
        self.focus = focus
        guard dismissedFocus == nil, !isShown else { return nil }
        isShown = true
        return .show
    }

    /// The platform cannot tell which field has the focus (no accessibility bus, another
    /// input method has the seat): the keyboard is shown, as without auto-show, from now on.
    public mutating func unavailable() -> Change? {
        isAvailable = false
        return showAsWithoutAutoShow()
    }

    /// The focus went where the platform cannot see what has it (on X11 a window whose
    /// application exposes nothing through AT-SPI: xterm, Tk): the keyboard is shown, as
    /// without auto-show, until the platform tells a field or a non-text object again. It ends
    /// the hold and the user's hide (the focus moved). Nothing when it was unknown already.
    public mutating func contextUnknown() -> Change? {
        guard !isFocusUnknown else { return nil }
        isFocusUnknown = true
        return showAsWithoutAutoShow()
    }

    /// No field known: the hold and the user's hide end, and the keyboard is shown.
    private mutating func showAsWithoutAutoShow() -> Change? {
        context = .inactive
        hideDue = nil
        dismissedFocus = nil
        guard !isShown else { return nil }
        isShown = true
        return .show
    }

    /// The user's `hide` key: the keyboard hides now and stays hidden until a field gains the
    /// focus (another one, or the same one again). Nothing without auto-show, or where the
    /// platform cannot tell which field has the focus (nothing would bring the keyboard back).
    public mutating func dismissed() -> Change? {
        guard hidesWithoutField else { return nil }
        hideDue = nil
        request = nil
        dismissedFocus = focus ?? 0
        guard isShown else { return nil }
        isShown = false
        return .hide
    }

    /// The shell or the user asked for the keyboard shown (`visible`) or hidden, through
    /// `sm.puri.OSK0.SetVisible` (Phosh's home-bar button, its lock screen): done now, and held
    /// until the input method's active state next changes, whatever auto-show would decide
    /// meanwhile (the hold after the last field, the `hide` key's choice are set aside).
    public mutating func visibilityRequested(_ visible: Bool) -> Change? {
        request = visible
        hideDue = nil
        dismissedFocus = nil
        guard visible != isShown else { return nil }
        isShown = visible
        return visible ? .show : .hide
    }

    /// The input method's active state changed while a request held: the request ends, and
    /// the keyboard follows the field again — shown when one has the focus (or where
    /// auto-show does not hide it), else hidden after the hold.
    private mutating func requestEnded(focus: UInt64, at time: Duration) -> Change? {
        request = nil
        if context.isActive || !hidesWithoutField {
            if context.isActive { self.focus = focus }
            guard !isShown else { return nil }
            isShown = true
            return .show
        }
        if isShown { hideDue = time + Self.hideDelay }
        return nil
    }

    /// Time passed to `time`: the hold ends once `time` reaches `hideDue`.
    public mutating func tick(at time: Duration) -> Change? {
        guard let due = hideDue, time >= due else { return nil }
        hideDue = nil
        guard isShown else { return nil }
        isShown = false
        return .hide
    }
}
