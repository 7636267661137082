import KeyboardCore
import Testing

/// Shared helpers of the desktop row's tests (issue 21).
enum Desktop {
    static let ctrl: KeyID = "ctrl", alt: KeyID = "alt", esc: KeyID = "esc", tab: KeyID = "tab"
    static let left: KeyID = "left", down: KeyID = "down", up: KeyID = "up", right: KeyID = "right"

    /// The id of a modifier's key.
    static func key(_ modifier: KeyAction.Modifier) -> KeyID { KeyID(modifier.rawValue) }

    /// The keystroke option of a modifier.
    static func option(_ modifier: KeyAction.Modifier) -> KeyModifiers { modifier == .ctrl ? .control : .alt }

    /// A system-mode session (the desktop row shown, its default) at its default size,
    /// launched at time zero.
    static func system(desktopKeys: Bool? = nil) -> KeyboardSession {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultSystemWindowSize(), mode: .system,
                                      desktopKeys: desktopKeys)
        _ = session.handle(.launched, at: .zero)
        return session
    }

    /// A host-screen session with the desktop row shown (`"desktopKeys": true`), launched.
    static func hostScreen(desktopKeys: Bool = true) -> KeyboardSession {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize, desktopKeys: desktopKeys)
        _ = session.handle(.launched, at: .zero)
        return session
    }
}

extension Array where Element == KeyboardEffect {
    /// The keystrokes of every `send`, in order.
    var sends: [Keystroke] {
        compactMap { if case .send(let stroke) = $0 { stroke } else { nil } }
    }

    /// Every `modifierChanged`, in order.
    var modifierChanges: [ModifierChange] {
        compactMap { if case .modifierChanged(let modifier, let state) = $0 { ModifierChange(modifier, state) } else { nil } }
    }
}

/// A `modifierChanged` effect, comparable in tests.
struct ModifierChange: Hashable, CustomStringConvertible {
    var modifier: KeyAction.Modifier
    var state: ShiftState
    init(_ modifier: KeyAction.Modifier, _ state: ShiftState) {
        self.modifier = modifier
        self.state = state
    }
    var description: String { "\(modifier.rawValue) \(state.rawValue)" }
}

extension KeyboardSession {
    /// The state of a desktop modifier's key.
    func state(of modifier: KeyAction.Modifier) -> ShiftState { modifier == .ctrl ? modifiers.ctrl.state : modifiers.alt.state }
}
