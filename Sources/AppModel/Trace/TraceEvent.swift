import KeyboardCore
/// One line of `HeeApp --trace` (JSON Lines on stdout): the machine-readable record that
/// tests, automation and bug reports read. Coordinates are window points, the space of SDL
/// mouse events; `t` is seconds since the app started.
public enum TraceEvent: Hashable, Sendable {
    /// After the first frame and whenever the layout changes: window size, pixel scale and
    /// every key's and host control's rectangle (`hee` is the scaled 170 × 180 frame).
    /// `scale` is pixels per point; `coordinateScale` converts the layout's points into the
    /// trace's window coordinates (mouse-event units: `--scale` on X11, 1 by default).
    case layout(KeyboardLayout, scale: Double, coordinateScale: Double = 1)
    /// The keyboard's frame finished changing (`hide` with an all-zero frame).
    case keyboard(KeyboardStatus, Rect)
    /// A key's pressed state changed.
    case touch(KeyID, down: Bool)
    /// The へぇ button counted a press (the full count); `full` when it reached the limit.
    case hee(count: Int, full: Bool = false)
    /// At launch: the configuration this run uses (saved settings with the flags on top).
    case settings(RunConfiguration)
    /// The count was reset to 0.
    case reset
    /// The volume changed (0...100).
    case volume(Int)
    /// The shift key's state changed.
    case shift(ShiftState)
    /// The text field changed; caret in `Character`s.
    case text(String, caret: Int)
    /// The input method's composition at the caret changed (never part of the text; empty
    /// when it ended); cursor in `Character`s of the composition.
    case composition(String, cursor: Int)
    /// The audio device opened with this spec (`format` is `s16` or `f32`; `chunk` in
    /// sample frames), through SDL's audio `driver` (`pipewire`, `pulseaudio`, `alsa`, …).
    case audioOpen(rate: Int, channels: Int, format: String, chunk: Int, driver: String? = nil)
    /// The audio device closed.
    case audioClosed
    /// The audio device was closed after a silence (the keyboard is still up).
    case audioSuspended
    /// The audio device was reopened for a press after a suspension; carries the open event.
    indirect case audioResumed(TraceEvent)
    /// No sound, and why: `unavailable` (no usable device: at launch, or for a press that
    /// cannot play), `lost` (the open device went away) or `muted` (`--mute`).
    case audioSilent(status: String, reason: String)
    /// A sound started playing.
    case sound(SoundName)
    /// System mode: one keystroke typed into the focused window — `text` for characters,
    /// `key` (an X keysym name, or the character of a shortcut, `ctrl+` / `alt+` before it
    /// when Control / Alt is held) for other keys, and `modifiers` (`["ctrl","alt"]`) when
    /// any is held. When it could not be sent, `dropped` says why (e.g. no window has the
    /// focus). `via` names the way it goes where there are several (Wayland: `input-method`,
    /// `virtual-keyboard`), as things stand when it is handed over (Wayland keystrokes may
    /// queue behind the application's answer; see docs/system-mode.md, "On Wayland").
    case send(Keystroke, dropped: String? = nil, via: String? = nil)
    /// System mode: the window keys go to changed (`window` and `title` are `null` when no
    /// window has the focus, and on Wayland, where the compositor does not say which window
    /// has it). `inputMethod` (Wayland only): `active` when the focused application has a text
    /// input active, `inactive`, or `unavailable` (another input method has the seat, or the
    /// compositor has none).
    case target(FocusedWindow?, inputMethod: String? = nil)
    /// A desktop modifier key (`ctrl`, `alt`) changed state: `on` (latched for the next key),
    /// `locked`, `off`.
    case modifier(KeyAction.Modifier, ShiftState)
    /// Another layer of the layout is shown (`name`: `letters`, `numbers`, `symbols`).
    case layer(String)
    /// A key's alternates bubble opened: `key` and each choice's `text` and rectangle (`x`,
    /// `y`, `w`, `h` in window coordinates, scaled by `coordinateScale` as `layout`'s are).
    case alternates(KeyID, [AlternatesBubble.Choice], coordinateScale: Double = 1)
    /// The kana pad's candidate bar changed (issue 22): `items`, each candidate shown with its
    /// `text` and cell (`x`, `y`, `w`, `h`, window coordinates), and `selected`, the index in
    /// `items` of the one chosen with 次候補 (`null`: none). Empty when the bar empties.
    case candidates(CandidateBar, coordinateScale: Double = 1)
    /// The kana pad committed `text` to the document (it follows as `text` or `send` lines).
    case commit(String)
    /// The globe key switched to the layout `name`.
    case keyboardLayout(String)
    /// The emoji keyboard shows the category `name` (issue 34: `recents`, `smileys` … `flags`):
    /// it opened, a page turn ran into another category, or a category key was touched.
    case emojiCategory(String)
    /// The space bar became iOS's trackpad (`active` true) or stopped being one.
    case trackpad(Bool)
    /// System mode: another `--system` keyboard started on this display and asked this one
    /// to show itself (it then exited; see `SingleInstance`).
    case showRequested
    /// System mode: the focused text field of another application changed (issue 30): `active`
    /// (whether one has the focus), its `purpose` and `hints` (text-input-v3's names) and
    /// `application` (`null` when not known). Never its text; of a secure field (password,
    /// PIN, hidden or sensitive text) only `active`, `secure: true` and `application`.
    case context(TextContext)
    /// System mode: the platform cannot tell which text field has the focus (`available`
    /// false, and why: no accessibility bus on X11, say); the keyboard behaves as without one.
    case contextUnavailable(reason: String)
    /// System mode on Wayland: the shell asked for the keyboard shown (`visible` true) or
    /// hidden through `sm.puri.OSK0.SetVisible` (issue 31; Phosh's home-bar button, its lock).
    case visibilityRequested(Bool)

    /// The event as a JSON object with `event` and `t` first.
    /// - Parameter time: seconds since the app started.
    public func json(at time: Double) -> JSONValue {
        var members: [(String, JSONValue)] = [("event", .string(name)), ("t", .number((time * 1000).rounded() / 1000))]
        switch self {
        case .layout(let layout, let scale, let f):
            members.append(("window", .object([("w", .number(layout.windowSize.width * f)),
                                               ("h", .number(layout.windowSize.height * f))])))
            members.append(("scale", .number(scale)))
            var keys: [(String, JSONValue)] = layout.orderedKeys.compactMap { key in
                layout.keys[key].map { (key.name, Self.rect($0.scaled(by: f))) }
            }
            for control in HostControl.allCases where layout.mode == .hostScreen {
                keys.append((control.rawValue, Self.rect(layout.frame(of: control).scaled(by: f))))
            }
            members.append(("keys", .object(keys)))
        case .keyboard(let status, let frame):
            members += [("status", .string(status.rawValue)), ("frame", Self.rect(frame))]
        case .touch(let key, let down):
            members += [("key", .string(key.name)), ("down", .bool(down))]
        case .hee(let count, let full):
            members.append(("count", .integer(count)))
            if full { members.append(("full", .bool(true))) }
        case .settings(let c):
            members += [("mute", .bool(c.mute)), ("volume", .integer(c.volume)),
                        ("limit", c.limit.map { .integer($0) } ?? .null), ("language", .string(c.language.rawValue)),
                        ("layout", .string(c.layout)),
                        ("size", .object([("w", .number(c.windowSize.width)), ("h", .number(c.windowSize.height))])),
                        ("scale", .number(c.scale)), ("desktopKeys", .bool(c.desktopKeys))]
            if c.maximized { members.append(("maximized", .bool(true))) }
        case .reset, .showRequested:
            break
        case .volume(let volume):
            members.append(("volume", .integer(volume)))
        case .shift(let state):
            members.append(("state", .string(state.rawValue)))
        case .text(let text, let caret):
            members += [("text", .string(text)), ("caret", .integer(caret))]
        case .composition(let text, let cursor):
            members += [("text", .string(text)), ("cursor", .integer(cursor))]
        case .audioOpen(let rate, let channels, let format, let chunk, let driver):
            members += [("status", .string("open")), ("rate", .integer(rate)), ("channels", .integer(channels)),
                        ("format", .string(format)), ("chunk", .integer(chunk))]
            if let driver { members.append(("driver", .string(driver))) }
        case .audioClosed:
            members.append(("status", .string("closed")))
        case .audioSuspended:
            members.append(("status", .string("suspended")))
        case .audioResumed(let opened):
            // The open event's fields, with the status "resumed".
            if case .object(let fields) = opened.json(at: time) {
                for (key, value) in fields.dropFirst(2) {
                    members.append((key, key == "status" ? .string("resumed") : value))
                }
            }
        case .audioSilent(let status, let reason):
            members += [("status", .string(status)), ("reason", .string(reason))]
        case .sound(let name):
            members.append(("name", .string(name.rawValue)))
        case .send(let stroke, let dropped, let via):
            switch stroke {
            case .text(let text): members.append(("text", .string(text)))
            case .key, .shortcut: members.append(("key", .string(stroke.keyName ?? "")))
            }
            let modifiers = stroke.modifiers.traceNames
            if !modifiers.isEmpty { members.append(("modifiers", .array(modifiers.map { .string($0) }))) }
            if let dropped { members.append(("dropped", .string(dropped))) }
            if let via { members.append(("via", .string(via))) }
        case .target(let window, let inputMethod):
            members.append(("window", window.map { .integer(Int(truncatingIfNeeded: $0.id)) } ?? .null))
            members.append(("title", window.map { .string($0.title) } ?? .null))
            if let inputMethod { members.append(("inputMethod", .string(inputMethod))) }
        case .layer(let name):
            members.append(("name", .string(name)))
        case .modifier(let modifier, let state):
            members.append(("key", .string(modifier.rawValue)))
            members.append(("state", .string(state == .capsLock ? "locked" : state.rawValue)))
        case .trackpad(let active):
            members.append(("active", .bool(active)))
        case .alternates(let key, let choices, let f):
            members.append(("key", .string(key.name)))
            members.append(("choices", .array(choices.map { Self.item($0.text, $0.frame, f) })))
        case .candidates(let bar, let f):
            members.append(("items", .array(bar.cells.map { Self.item($0.text, $0.frame, f) })))
            members.append(("selected", bar.cells.firstIndex { $0.index == bar.selected }.map { .integer($0) } ?? .null))
        case .commit(let text):
            members.append(("text", .string(text)))
        case .keyboardLayout(let name), .emojiCategory(let name):
            members.append(("name", .string(name)))
        case .context(let context):
            members.append(("active", .bool(context.isActive)))
            if context.isActive {
                if context.isSecure {
                    members.append(("secure", .bool(true)))
                } else {
                    members.append(("purpose", .string(context.purpose.name)))
                    members.append(("hints", .array(context.hints.names.map { .string($0) })))
                }
                members.append(("application", context.application.map { .string($0) } ?? .null))
            }
        case .contextUnavailable(let reason):
            members += [("active", .bool(false)), ("available", .bool(false)), ("reason", .string(reason))]
        case .visibilityRequested(let visible):
            members.append(("visible", .bool(visible)))
        }
        return .object(members)
    }

    /// The `event` field.
    public var name: String {
        switch self {
        case .layout: "layout"
        case .keyboard: "keyboard"
        case .touch: "touch"
        case .hee: "hee"
        case .reset: "reset"
        case .settings: "settings"
        case .volume: "volume"
        case .shift: "shift"
        case .text: "text"
        case .composition: "composition"
        case .audioOpen, .audioClosed, .audioSilent, .audioSuspended, .audioResumed: "audio"
        case .sound: "sound"
        case .send: "send"
        case .target: "target"
        case .layer: "layer"
        case .modifier: "modifier"
        case .alternates: "alternates"
        case .candidates: "candidates"
        case .commit: "commit"
        case .keyboardLayout: "keyboardLayout"
        case .emojiCategory: "emojiCategory"
        case .trackpad: "trackpad"
        case .showRequested: "show"
        case .context, .contextUnavailable: "context"
        case .visibilityRequested: "setVisible"
        }
    }

    /// `{"text": …, "x": …, "y": …, "w": …, "h": …}`, the rectangle scaled by `f`.
    private static func item(_ text: String, _ frame: Rect, _ f: Double) -> JSONValue {
        var fields: [(String, JSONValue)] = [("text", .string(text))]
        if case .object(let rect) = Self.rect(frame.scaled(by: f)) { fields += rect }
        return .object(fields)
    }

    private static func rect(_ r: Rect) -> JSONValue {
        .object([("x", .number(r.x)), ("y", .number(r.y)), ("w", .number(r.width)), ("h", .number(r.height))])
    }
}
