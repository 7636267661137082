import AppModel
import CWaylandProtocols

/// The seat's input method (`zwp_input_method_v2`): while the focused application has a
/// text input enabled (`activate`), text goes to it with `commit_string` and
/// `commit(serial)`, the serial being the number of `done` events received. Another input
/// method already bound on the seat (fcitx5, ibus) makes the object `unavailable`: then every
/// key goes through the virtual keyboard.
final class WaylandInputMethod {
    private let object: WaylandObject
    /// The most bytes of UTF-8 one `commit_string` may carry (input-method-unstable-v2).
    static let maximumCommitBytes = 4000
    /// text-input-v3's content purpose `terminal`.
    static let terminalPurpose: UInt32 = 13
    /// Activation and content purpose received but not yet applied (state is applied on
    /// `done`).
    private var pendingActive = false
    private var pendingPurpose: UInt32 = 0
    private var pendingSurrounding: KeystrokeOrder.Surrounding?
    /// The active text input's surrounding text at the last `done`, `nil` when it reports
    /// none (what `KeystrokeOrder` takes as the application's answer).
    private(set) var surrounding: KeystrokeOrder.Surrounding?
    /// The active text input's content purpose (text-input-v3's numbering: 0 normal, 13
    /// terminal, ...).
    private(set) var purpose: UInt32 = 0
    /// Whether a text input is active now.
    private(set) var isActive = false
    /// Whether text should go to the active text input through `commit`: not to a terminal's
    /// (content purpose `terminal`), which reads keys. foot 1.13 commits its text-input state
    /// whenever its cursor moves (every echoed character) and drops committed text whose
    /// `done` carries an older serial than its last commit, so text following text races
    /// its own echo (1 of 1,000 rapid へぇ〜 lost here); its keys never race.
    var takesText: Bool { isActive && purpose != Self.terminalPurpose }
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
        object.onEvent = { [unowned self] opcode, args in
            switch opcode {
            case 0:                        // activate: the text input's state starts anew
                pendingActive = true
                pendingPurpose = 0
                pendingSurrounding = nil
            case 1:                        // deactivate
                pendingActive = false
                pendingSurrounding = nil
            case 2:                        // surrounding_text(text, cursor, anchor)
                pendingSurrounding = KeystrokeOrder.Surrounding(text: args.string(0), cursor: args.uint(1), anchor: args.uint(2))
            case 4: pendingPurpose = args.uint(1)  // content_type(hint, purpose)
            case 5:                        // done
                serial &+= 1
                purpose = pendingPurpose
                surrounding = pendingSurrounding
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
                break                      // text change cause
            }
        }
    }

    deinit { object.destroy(request: 6) }

    /// Inserts `text` into the active text input.
    func commit(_ text: String) {
        object.request(0, [.string(text)])   // commit_string
        object.request(3, [.uint(serial)])   // commit
    }

    /// Asks the active text input for its state: a commit with nothing in it (the compositor
    /// sends the application a `done`; it reports its surrounding text at the next `done`).
    func requestState() {
        object.request(3, [.uint(serial)])  // commit
    }

    /// Deletes `bytes` bytes of the active text input's text before its cursor.
    func deleteBeforeCursor(bytes: UInt32) {
        object.request(2, [.uint(bytes), .uint(0)])  // delete_surrounding_text(before, after)
        object.request(3, [.uint(serial)])           // commit
    }

    /// The length in bytes of the character before the cursor, when the text input reports
    /// its text, has one there and nothing selected (what BackSpace deletes); `nil` otherwise.
    var characterBeforeCursor: UInt32? {
        guard takesText, let surrounding, surrounding.cursor == surrounding.anchor else { return nil }
        let before = String(decoding: surrounding.text.utf8.prefix(Int(surrounding.cursor)), as: UTF8.self)
        guard let last = before.last, before.utf8.count == Int(surrounding.cursor) else { return nil }
        return UInt32(String(last).utf8.count)
    }
}
