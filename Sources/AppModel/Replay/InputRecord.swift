import KeyboardCore
/// One input event as `--record` writes it and `--replay` reads it: a line of JSON.
///
/// The format (JSON Lines, one object per line; blank lines and lines starting with `#` are
/// skipped). `t` is the SDL event timestamp in milliseconds; positions `x`, `y` are window
/// coordinates (the space of SDL mouse events) for mouse events and fractions of the window
/// for finger events (0…1 inside it; a finger that slid out of the window, which SDL still
/// reports on Wayland, is outside 0…1, at most `fingerFractionLimit` in size):
///
/// ```
/// {"t":1200,"type":"mousedown","x":240,"y":512}            // left button; "button" defaults to 1,
///                                                            // "clicks" (2: double click) to 1
/// {"t":1210,"type":"mousemotion","x":244,"y":515,"buttons":1}
/// {"t":1300,"type":"mouseup","x":244,"y":515}
/// {"t":1400,"type":"mousedown","x":240,"y":512,"touch":true}  // a mouse event SDL made from a touch
/// {"t":1500,"type":"fingerdown","finger":3,"x":0.5,"y":0.64}  // "device" (touch id) optional
/// {"t":1520,"type":"fingermotion","finger":3,"x":0.51,"y":0.64}
/// {"t":1600,"type":"fingerup","finger":3,"x":0.51,"y":0.64}
/// {"t":1650,"type":"fingerup","finger":4,"x":0.2,"y":-0.05}    // a finger that left the window
/// {"t":1660,"type":"touchcancel"}                             // the compositor took the touches back
/// {"t":1700,"type":"keydown","key":"Backspace"}              // SDL key names (SDL_GetKeyName)
/// {"t":1750,"type":"keydown","key":"A","mod":64}             // "mod": SDL_Keymod bits (64: left Ctrl)
/// {"t":1760,"type":"keydown","key":"V","mod":64,"clipboard":"pasted"}  // Ctrl+V: what it pasted
/// {"t":1790,"type":"keyup","key":"Backspace"}
/// {"t":1800,"type":"textinput","text":"a"}
/// {"t":1805,"type":"textediting","text":"へん","start":2,"length":0}  // IME composition (also the _EXT form)
/// {"t":1900,"type":"window","event":"resized","w":600,"h":900}   // also size_changed (w, h)
/// {"t":1950,"type":"window","event":"moved","x":100,"y":40}      // window position, screen coordinates
/// {"t":2000,"type":"window","event":"minimized"}                 // and the others of `WindowEvent`
/// ```
public struct InputRecord: Hashable, Sendable {
    /// The kinds of record.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case mousedown, mouseup, mousemotion
        case fingerdown, fingerup, fingermotion
        /// The compositor took every touch back (Wayland's `wl_touch.cancel`, which SDL 2.26
        /// drops; the app hears it itself): `device` optional.
        case touchcancel
        case keydown, keyup, textinput
        /// The input method's composition (`SDL_TEXTEDITING`, and `SDL_TEXTEDITING_EXT` for
        /// long compositions, recorded the same way): `text`, `start`, `length`.
        case textediting
        case window
    }

    /// Window events that are recorded, named after SDL's `SDL_WINDOWEVENT_*`.
    public enum WindowEvent: String, Hashable, Sendable, CaseIterable {
        /// `SDL_WINDOWEVENT_RESIZED` (`w`, `h`): resized from outside (the user, the window
        /// manager). A replay also sets the window to that size.
        case resized
        /// `SDL_WINDOWEVENT_SIZE_CHANGED` (`w`, `h`): the size changed, for any reason.
        case size_changed
        case focus_lost
        case focus_gained
        case close
        /// The pointer entered / left the window.
        case enter, leave
        case minimized, maximized, restored
        case shown, hidden, exposed
        /// `SDL_WINDOWEVENT_MOVED` (`x`, `y`: the window's new position on the screen).
        case moved
        /// `SDL_WINDOWEVENT_DISPLAY_CHANGED` (`display`: the display's index).
        case display_changed

        /// Whether the event carries the window's new size in `w` and `h`.
        public var carriesSize: Bool { self == .resized || self == .size_changed }
    }

    /// SDL timestamp, milliseconds.
    public var t: Int
    public var type: Kind
    public var x: Double?
    public var y: Double?
    /// Mouse button (1 left, 2 middle, 3 right) for mousedown/mouseup.
    public var button: Int?
    /// Click count of a mousedown (2 for a double click); defaults to 1.
    public var clicks: Int?
    /// Held-button mask for mousemotion (SDL's `state`: 1 left).
    public var buttons: Int?
    /// Whether a mouse event was synthesised by SDL from a touch (`which == SDL_TOUCH_MOUSEID`).
    public var touch: Bool?
    /// Finger id and touch device id for finger events.
    public var finger: Int64?
    public var device: Int64?
    /// SDL key name for keydown/keyup.
    public var key: String?
    /// Modifier keys held (SDL's `SDL_Keymod` bits: 0x0003 Shift, 0x00C0 Ctrl, 0x0300 Alt)
    /// for keydown/keyup; defaults to none.
    public var mod: Int?
    /// The clipboard's text a keydown pasted (Ctrl+V), recorded so that the replay pastes
    /// the same text; without it a replay pastes the clipboard of its own machine.
    public var clipboard: String?
    /// Committed text for textinput; the composition for textediting (empty: it ended).
    public var text: String?
    /// The input method's cursor (`start`, in Unicode scalars as SDL counts it) and the
    /// length of its selection within a textediting `text`; default 0.
    public var start: Int?
    public var length: Int?
    /// The display index of a `display_changed` window event.
    public var display: Int?
    public var event: WindowEvent?
    /// New size (window coordinates) for a resized or size_changed window event.
    public var w: Int?
    public var h: Int?

    /// The largest finger fraction a record may hold, either sign: a finger that left the
    /// window is outside 0…1 (SDL reports it so on Wayland), but a finger 64 window widths
    /// away is a file in pixels or a broken one. (16384, the largest window, over 320, the
    /// narrowest, is 51.)
    public static let fingerFractionLimit = 64.0

    public init(t: Int, type: Kind) {
        self.t = t
        self.type = type
    }

    /// A replay file that cannot be used: `line` is 1-based. The app prints
    /// `FILE:LINE: message` and exits with status 65 (`EX_DATAERR`). `message` is one line: text
    /// from the file in it is shown as a JSON string, control characters escaped.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses a whole replay file. Every line is checked before any is used, so a bad file
    /// is refused whole rather than half-applied.
    /// - Throws: `ParseError` for the first malformed line: not JSON, an unknown type, a
    ///   missing or out-of-range field, or a timestamp earlier than the line before.
    /// - Parameter isKnownKey: whether a key name is valid (the app asks SDL).
    public static func parse(lines text: String, isKnownKey: (String) -> Bool = { _ in true }) throws(ParseError) -> [InputRecord] {
        try withoutActuallyEscaping(isKnownKey) { (isKnownKey) throws(ParseError) in
            var reader = Reader(isKnownKey: isKnownKey)
            try reader.consume(Array(text.utf8)[...])
            return try reader.finish()
        }
    }

    /// What is wrong with the record's fields for its type, or `nil`.
    public var problem: String? {
        if t < 0 { return "\"t\" must not be negative" }
        func need(_ value: Any?, _ name: String) -> String? { value == nil ? "\(type.rawValue) needs \"\(name)\"" : nil }
        switch type {
        case .mousedown, .mouseup, .mousemotion:
            if let p = need(x, "x") ?? need(y, "y") { return p }
            if let b = button, !(1...5).contains(b) { return "\"button\" must be 1...5" }
            if let c = clicks, !(1...255).contains(c) { return "\"clicks\" must be 1...255" }
            if let x, let y, !x.isFinite || !y.isFinite { return "\"x\" and \"y\" must be numbers" }
            if let x, let y, abs(x) > 1_000_000 || abs(y) > 1_000_000 {
                return "\"x\" and \"y\" must be window coordinates (at most 1,000,000 in size)"
            }
            if let b = buttons, !(0...0xFFFF).contains(b) { return "\"buttons\" must be a button mask, 0...65535" }
        case .fingerdown, .fingerup, .fingermotion:
            if let p = need(finger, "finger") ?? need(x, "x") ?? need(y, "y") { return p }
            if let x, let y, !x.isFinite || !y.isFinite || abs(x) > Self.fingerFractionLimit
                || abs(y) > Self.fingerFractionLimit {
                return "finger \"x\" and \"y\" are fractions of the window (0...1 inside it), at most 64 in size"
            }
        case .touchcancel:
            break
        case .keydown, .keyup:
            if let p = need(key, "key") { return p }
            if key?.isEmpty == true { return "\"key\" must not be empty" }
            // SDL reads a name as a C string, which ends at NUL: "A\u0000x" would pass as "A".
            // No SDL key name holds a control character.
            if key?.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) == true {
                return "\"key\" must be an SDL key name, without control characters"
            }
            if let m = mod, !(0...0xFFFF).contains(m) { return "\"mod\" must be SDL_Keymod bits, 0...65535" }
            if clipboard != nil, type != .keydown { return "only a keydown has \"clipboard\"" }
        case .textinput:
            if let p = need(text, "text") { return p }
            if text?.isEmpty == true { return "\"text\" must not be empty" }
        case .textediting:
            if let p = need(text, "text") { return p }
            if let s = start, !(0...Int(Int32.max)).contains(s) { return "\"start\" must be 0 or more" }
            if let l = length, !(0...Int(Int32.max)).contains(l) { return "\"length\" must be 0 or more" }
        case .window:
            if let p = need(event, "event") { return p }
            if event?.carriesSize == true {
                if let p = need(w, "w") ?? need(h, "h") { return p }
                if let w, let h, w <= 0 || h <= 0 || w > 16384 || h > 16384 { return "\"w\" and \"h\" must be 1...16384" }
            }
            if event == .moved {
                if let p = need(x, "x") ?? need(y, "y") { return p }
                if let x, let y, !x.isFinite || !y.isFinite || abs(x) > 1_000_000 || abs(y) > 1_000_000 {
                    return "\"x\" and \"y\" must be screen coordinates (at most 1,000,000 in size)"
                }
            }
            if let d = display, !(0...255).contains(d) { return "\"display\" must be 0...255" }
        }
        return nil
    }

    /// The record as one line of JSON (no newline), fields in a fixed order.
    public var jsonLine: String {
        var members: [(String, JSONValue)] = [("t", .integer(t)), ("type", .string(type.rawValue))]
        if let finger { members.append(("finger", .integer(Int(finger)))) }
        if let device { members.append(("device", .integer(Int(device)))) }
        if let x { members.append(("x", .number(x))) }
        if let y { members.append(("y", .number(y))) }
        if let button { members.append(("button", .integer(button))) }
        if let clicks { members.append(("clicks", .integer(clicks))) }
        if let buttons { members.append(("buttons", .integer(buttons))) }
        if let touch { members.append(("touch", .bool(touch))) }
        if let key { members.append(("key", .string(key))) }
        if let mod { members.append(("mod", .integer(mod))) }
        if let clipboard { members.append(("clipboard", .string(clipboard))) }
        if let text { members.append(("text", .string(text))) }
        if let start { members.append(("start", .integer(start))) }
        if let length { members.append(("length", .integer(length))) }
        if let event { members.append(("event", .string(event.rawValue))) }
        if let w { members.append(("w", .integer(w))) }
        if let h { members.append(("h", .integer(h))) }
        if let display { members.append(("display", .integer(display))) }
        return JSONValue.object(members).serialized
    }

    /// A record from a parsed JSON line.
    /// - Throws: `JSONFields.FieldError` for a value that is not an object, a missing `t` or
    ///   `type`, an unknown type or window event, or a member of the wrong type.
    init(json: JSONValue) throws(JSONFields.FieldError) {
        guard let fields = JSONFields(json) else { throw JSONFields.FieldError(message: "not a JSON object") }
        guard let t = try fields.int("t") else { throw JSONFields.FieldError(message: "missing \"t\"") }
        guard let typeName = try fields.string("type") else { throw JSONFields.FieldError(message: "missing \"type\"") }
        guard let type = Kind(rawValue: typeName) else {
            throw JSONFields.FieldError(message: "\"type\" has an unknown value \(JSONValue.string(typeName).serialized)")
        }
        self.init(t: t, type: type)
        x = try fields.double("x")
        y = try fields.double("y")
        button = try fields.int("button")
        clicks = try fields.int("clicks")
        buttons = try fields.int("buttons")
        touch = try fields.bool("touch")
        finger = try fields.int("finger").map(Int64.init)
        device = try fields.int("device").map(Int64.init)
        key = try fields.string("key")
        mod = try fields.int("mod")
        clipboard = try fields.string("clipboard")
        text = try fields.string("text")
        start = try fields.int("start")
        length = try fields.int("length")
        display = try fields.int("display")
        if let name = try fields.string("event") {
            guard let event = WindowEvent(rawValue: name) else {
                throw JSONFields.FieldError(message: "\"event\" has an unknown value \(JSONValue.string(name).serialized)")
            }
            self.event = event
        }
        w = try fields.int("w")
        h = try fields.int("h")
    }
}
