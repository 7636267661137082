import CSDL
import KeyboardCore

/// The focused text field on Wayland (issue 30): what the seat's input method
/// (`zwp_input_method_v2`, `WaylandInputMethod`) was told at its last `done` — activation,
/// `content_type` and `surrounding_text`, double-buffered and applied whole on `done`, so
/// sway's `deactivate` + `done`, `activate` + `done` between two fields are two complete
/// states and never a half-applied one. Read by system mode's connection on the loop's
/// thread (`WaylandSystemMode.handle`); `handle` then says whether it changed.
final class WaylandContextSource: TextContextSource {
    private let inputMethod: WaylandInputMethod?
    private(set) var context = TextContext.inactive
    private(set) var focusSerial: UInt64 = 0
    private(set) var unavailableReason: String?
    /// Whether the input method's state changed since `handle` last said so.
    private var changed = true
    /// The connection's wake-up, as `WaylandConnection.isWakeUp` tells it.
    private let isWakeUp: (UnsafePointer<SDL_Event>) -> Bool

    /// Follows `inputMethod` (`nil`: the compositor offers none, and the source is
    /// unavailable); `isWakeUp` tells the connection's wake-up event.
    init(inputMethod: WaylandInputMethod?, isWakeUp: @escaping (UnsafePointer<SDL_Event>) -> Bool) {
        self.inputMethod = inputMethod
        self.isWakeUp = isWakeUp
        read()
    }

    /// The input method applied a `done` (or became unavailable): read its state.
    func inputMethodDone() {
        let before = (context, focusSerial, unavailableReason)
        read()
        if before != (context, focusSerial, unavailableReason) { changed = true }
    }

    private func read() {
        guard let inputMethod else {
            unavailableReason = "the compositor offers no zwp_input_method_manager_v2"
            return
        }
        if inputMethod.isUnavailable {
            unavailableReason = "another input method has the seat"
            context = .inactive
            return
        }
        context = inputMethod.textContext
        focusSerial = inputMethod.focusSerial
    }

    /// Whether the state changed since the last time this said so; also true at the first
    /// call, so the loop hears the state the keyboard started with.
    func takeChange() -> Bool {
        defer { changed = false }
        return changed
    }

    func handle(_ event: UnsafePointer<SDL_Event>) -> Bool {
        guard isWakeUp(event) else { return false }
        return takeChange()
    }
}
