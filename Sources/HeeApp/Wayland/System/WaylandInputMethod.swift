import AppModel
import CWaylandProtocols
import KeyboardCore

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
    private var pendingHints: UInt32 = 0
    /// Whether an `activate` came since the last `done` (a field gained the focus).
    private var pendingActivation = false
    private var pendingSurrounding: KeystrokeOrder.Surrounding?
    /// The active text input's surrounding text at the last `done`, `nil` when it reports
    /// none (what `KeystrokeOrder` takes as the application's answer).
    private(set) var surrounding: KeystrokeOrder.Surrounding?
    /// The active text input's content purpose (text-input-v3's numbering: 0 normal, 13
    /// terminal, ...).
    private(set) var purpose: UInt32 = 0
    /// The active text input's content hint bits (text-input-v3's `content_hint`).
    private(set) var hints: UInt32 = 0
    /// Whether a text input is active now.
    private(set) var isActive = false
    /// Counts the `done`s that applied an `activate`: a field gained the focus (another one, or
    /// the same one again: GTK enables its text input anew on a tap).
    private(set) var focusSerial: UInt64 = 0
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
                pendingActivation = true
                pendingPurpose = 0
                pendingHints = 0
                pendingSurrounding = nil
            case 1:                        // deactivate
                pendingActive = false
                pendingSurrounding = nil
            case 2:                        // surrounding_text(text, cursor, anchor)
                pendingSurrounding = KeystrokeOrder.Surrounding(text: args.string(0), cursor: args.uint(1), anchor: args.uint(2))
            case 4:                        // content_type(hint, purpose)
                pendingHints = args.uint(0)
                pendingPurpose = args.uint(1)
            case 5:                        // done: everything since the last one applies now
                serial &+= 1
                purpose = pendingPurpose
                hints = pendingHints
                surrounding = pendingSurrounding
                if pendingActivation, pendingActive { focusSerial &+= 1 }
                pendingActivation = false
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

    /// The active text input as the keyboard's `TextContext` (`.inactive` when none is): its
    /// purpose and hints, and the text around its cursor (see
    /// `TextContext.init(purposeValue:hintBits:surroundingText:cursorByte:)`).
    var textContext: TextContext {
        guard isActive, !isUnavailable else { return .inactive }
        return TextContext(purposeValue: purpose, hintBits: hints, surroundingText: surrounding.map { Array($0.text.utf8) },
                           cursorByte: surrounding?.cursor ?? 0)
    }

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
