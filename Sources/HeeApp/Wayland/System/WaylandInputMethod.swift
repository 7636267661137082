import CWaylandProtocols

/// The seat's input method (`zwp_input_method_v2`): while the focused application has a
/// text input enabled (`activate`), text goes to it with `commit_string` and
/// `commit(serial)`, the serial being the number of `done` events received. Another input
/// method already bound on the seat (fcitx5, ibus) makes the object `unavailable`: then every
/// key goes through the virtual keyboard.
final class WaylandInputMethod {
    private let object: WaylandObject
    /// Activation received but not yet applied (state is applied on `done`).
    private var pendingActive = false
    /// Whether a text input is active now.
    private(set) var isActive = false
    /// Whether the compositor said another input method has the seat.
    private(set) var isUnavailable = false
    /// The number of `done` events received.
    private var serial: UInt32 = 0
    /// Called when `isActive` or `isUnavailable` changed.
    var onChange: (() -> Void)?
    /// Called after every `done` (the text input's state, e.g. after it applied our text).
    var onDone: (() -> Void)?

    /// Asks `manager` for the input method of `seat`.
    init?(manager: WaylandObject, seat: WaylandObject) {
        guard let object = manager.request(0, [.object(seat), .newID], creating: hee_zwp_input_method_v2()) else { return nil }
        self.object = object
        object.onEvent = { [unowned self] opcode, _ in
            switch opcode {
            case 0: pendingActive = true   // activate
            case 1: pendingActive = false  // deactivate
            case 5:                        // done
                serial &+= 1
                if isActive != pendingActive {
                    isActive = pendingActive
                    onChange?()
                }
                onDone?()
            case 6:                        // unavailable
                isUnavailable = true
                isActive = false
                onChange?()
            default:
                break                      // surrounding text, change cause, content type
            }
        }
    }

    deinit { object.destroy(request: 6) }

    /// Inserts `text` into the active text input.
    func commit(_ text: String) {
        object.request(0, [.string(text)])   // commit_string
        object.request(3, [.uint(serial)])   // commit
    }
}
