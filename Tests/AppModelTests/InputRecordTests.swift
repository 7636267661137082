import AppModel
import KeyboardCore
import Testing

/// The replay file format (`InputRecord.parse`) and the command-line options of issue 3
/// (`--scale`, `--record`, `--replay`, `--exit-when-done`, `GDK_SCALE`).
@Suite("InputRecord.parse")
struct InputRecordTests {
    /// The error `parse` throws for `text`, or `nil` if it parses.
    static func parseError(_ text: String, isKnownKey: (String) -> Bool = { _ in true }) -> InputRecord.ParseError? {
        do {
            _ = try InputRecord.parse(lines: text, isKnownKey: isKnownKey)
            return nil
        } catch {
            return error
        }
    }

    static func record(_ t: Int, _ type: InputRecord.Kind, _ fill: (inout InputRecord) -> Void = { _ in }) -> InputRecord {
        var record = InputRecord(t: t, type: type)
        fill(&record)
        return record
    }

    /// One line of every type, with the records they mean.
    static let everyType: [(String, InputRecord)] = [
        (#"{"t":1200,"type":"mousedown","x":240,"y":512}"#,
         record(1200, .mousedown) { $0.x = 240; $0.y = 512 }),
        (#"{"t":1210,"type":"mousemotion","x":244.5,"y":515,"buttons":1}"#,
         record(1210, .mousemotion) { $0.x = 244.5; $0.y = 515; $0.buttons = 1 }),
        (#"{"t":1300,"type":"mouseup","x":244,"y":515,"button":3}"#,
         record(1300, .mouseup) { $0.x = 244; $0.y = 515; $0.button = 3 }),
        (#"{"t":1400,"type":"mousedown","x":240,"y":512,"touch":true}"#,
         record(1400, .mousedown) { $0.x = 240; $0.y = 512; $0.touch = true }),
        (#"{"t":1500,"type":"fingerdown","finger":3,"x":0.5,"y":0.64,"device":2}"#,
         record(1500, .fingerdown) { $0.finger = 3; $0.x = 0.5; $0.y = 0.64; $0.device = 2 }),
        (#"{"t":1520,"type":"fingermotion","finger":3,"x":0,"y":1}"#,
         record(1520, .fingermotion) { $0.finger = 3; $0.x = 0; $0.y = 1 }),
        (#"{"t":1600,"type":"fingerup","finger":3,"x":0.51,"y":0.64}"#,
         record(1600, .fingerup) { $0.finger = 3; $0.x = 0.51; $0.y = 0.64 }),
        // A finger that slid out of the window (SDL reports it so on Wayland).
        (#"{"t":1610,"type":"fingermotion","finger":3,"x":-0.02,"y":1.4}"#,
         record(1610, .fingermotion) { $0.finger = 3; $0.x = -0.02; $0.y = 1.4 }),
        (#"{"t":1620,"type":"fingerup","finger":4,"x":64,"y":-64}"#,
         record(1620, .fingerup) { $0.finger = 4; $0.x = 64; $0.y = -64 }),
        (#"{"t":1650,"type":"touchcancel"}"#, record(1650, .touchcancel)),
        (#"{"t":1660,"type":"touchcancel","device":94410574496192}"#,
         record(1660, .touchcancel) { $0.device = 94_410_574_496_192 }),
        (#"{"t":1700,"type":"keydown","key":"Backspace"}"#,
         record(1700, .keydown) { $0.key = "Backspace" }),
        (#"{"t":1790,"type":"keyup","key":"Backspace"}"#,
         record(1790, .keyup) { $0.key = "Backspace" }),
        (#"{"t":1800,"type":"textinput","text":"へぇ〜 \"a\""}"#,
         record(1800, .textinput) { $0.text = "へぇ〜 \"a\"" }),
        (#"{"t":1900,"type":"window","event":"resized","w":600,"h":900}"#,
         record(1900, .window) { $0.event = .resized; $0.w = 600; $0.h = 900 }),
        (#"{"t":1900,"type":"window","event":"focus_lost"}"#,
         record(1900, .window) { $0.event = .focus_lost }),
        (#"{"t":1950,"type":"window","event":"focus_gained"}"#,
         record(1950, .window) { $0.event = .focus_gained }),
        (#"{"t":2000,"type":"window","event":"close"}"#,
         record(2000, .window) { $0.event = .close }),
        (#"{"t":2005,"type":"keydown","key":"V","mod":64,"clipboard":"pasted\ttext"}"#,
         record(2005, .keydown) { $0.key = "V"; $0.mod = 64; $0.clipboard = "pasted\ttext" }),
        (#"{"t":2010,"type":"textediting","text":"へん","start":2,"length":0}"#,
         record(2010, .textediting) { $0.text = "へん"; $0.start = 2; $0.length = 0 }),
        (#"{"t":2011,"type":"textediting","text":""}"#,
         record(2011, .textediting) { $0.text = "" }),
        (#"{"t":2020,"type":"window","event":"size_changed","w":600,"h":900}"#,
         record(2020, .window) { $0.event = .size_changed; $0.w = 600; $0.h = 900 }),
        (#"{"t":2030,"type":"window","event":"moved","x":-20,"y":40}"#,
         record(2030, .window) { $0.event = .moved; $0.x = -20; $0.y = 40 }),
        (#"{"t":2040,"type":"window","event":"display_changed","display":1}"#,
         record(2040, .window) { $0.event = .display_changed; $0.display = 1 }),
    ] + ["enter", "leave", "minimized", "maximized", "restored", "shown", "hidden", "exposed"].enumerated().map { n, name in
        (#"{"t":\#(2100 + n),"type":"window","event":"\#(name)"}"#,
         record(2100 + n, .window) { $0.event = InputRecord.WindowEvent(rawValue: name) })
    }

    // MARK: Valid files

    @Test func everyTypeParses() throws {
        let text = Self.everyType.map(\.0).joined(separator: "\n")
        let records = try InputRecord.parse(lines: text)
        #expect(records.count == Self.everyType.count)
        for (record, (line, expected)) in zip(records, Self.everyType) {
            #expect(record == expected, "\(line)")
        }
        // Every kind and every window event is covered.
        #expect(Set(records.map(\.type)) == Set(InputRecord.Kind.allCases))
        #expect(Set(records.compactMap(\.event)) == Set(InputRecord.WindowEvent.allCases))
    }

    @Test func jsonLineRoundTrips() throws {
        let originals = Self.everyType.map(\.1) + [
            Self.record(2300, .textinput) { $0.text = "tab\there, line\nbreak, back\\slash, \u{1}" },
            Self.record(2400, .fingerdown) { $0.finger = 9_000_000_000; $0.device = -1; $0.x = 1.0 / 3; $0.y = 0.1 },
            Self.record(2500, .textediting) { $0.text = "長い変換中の文章は三十一バイトを超える"; $0.start = 7; $0.length = 3 },
        ]
        let file = originals.map(\.jsonLine).joined(separator: "\n")
        let parsed = try InputRecord.parse(lines: file)
        #expect(parsed.count == originals.count)
        for (index, (record, original)) in zip(parsed, originals).enumerated() {
            #expect(record == original, "record \(index)")
        }
        for record in originals {
            #expect(!record.jsonLine.contains("\n"))
            #expect(try InputRecord.parse(lines: record.jsonLine) == [record])
        }
    }

    @Test func commentsAndBlankLinesAreSkipped() throws {
        let text = """
            # a hand-written replay
            \("")
            {"t":10,"type":"mousedown","x":1,"y":2}
               # an indented comment
            \t
            {"t":20,"type":"mouseup","x":1,"y":2}\r
            \("")
            """
        let records = try InputRecord.parse(lines: text)
        #expect(records == [
            Self.record(10, .mousedown) { $0.x = 1; $0.y = 2 },
            Self.record(20, .mouseup) { $0.x = 1; $0.y = 2 },
        ])
        #expect(try InputRecord.parse(lines: "").isEmpty)
        #expect(try InputRecord.parse(lines: "# nothing\n\n").isEmpty)
    }

    @Test func equalTimestampsAreAllowed() throws {
        let text = """
            {"t":5,"type":"fingerdown","finger":1,"x":0.5,"y":0.5}
            {"t":5,"type":"fingerdown","finger":2,"x":0.2,"y":0.5}
            """
        #expect(try InputRecord.parse(lines: text).count == 2)
    }

    @Test func knownKeysPass() throws {
        let text = #"{"t":1,"type":"keydown","key":"Left"}"#
        #expect(try InputRecord.parse(lines: text, isKnownKey: { $0 == "Left" }).count == 1)
    }

    // MARK: Malformed lines

    /// A malformed line, which line of the file it is on, and words its message must hold.
    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var line: String
        var words: [String]
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "not JSON", line: #"t=3 mousedown"#, words: ["JSON"]),
        Malformed(name: "truncated JSON", line: #"{"t":3,"type":"mousedown","x":1"#, words: ["JSON"]),
        Malformed(name: "a JSON array", line: #"[1,2]"#, words: []),
        Malformed(name: "unknown type", line: #"{"t":3,"type":"mousewheel","x":1,"y":1}"#, words: ["\"type\"", "unknown"]),
        Malformed(name: "unknown window event", line: #"{"t":3,"type":"window","event":"iconified"}"#, words: ["\"event\"", "unknown"]),
        Malformed(name: "clipboard on a keyup", line: #"{"t":3,"type":"keyup","key":"V","clipboard":"x"}"#, words: ["\"clipboard\""]),
        Malformed(name: "moved without y", line: #"{"t":3,"type":"window","event":"moved","x":10}"#, words: ["window", "\"y\""]),
        Malformed(name: "size_changed without w", line: #"{"t":3,"type":"window","event":"size_changed","h":900}"#, words: ["\"w\""]),
        Malformed(name: "size_changed too big", line: #"{"t":3,"type":"window","event":"size_changed","w":20000,"h":900}"#, words: ["1...16384"]),
        Malformed(name: "display out of range", line: #"{"t":3,"type":"window","event":"display_changed","display":-1}"#, words: ["\"display\""]),
        Malformed(name: "textediting without text", line: #"{"t":3,"type":"textediting","start":0}"#, words: ["textediting", "\"text\""]),
        Malformed(name: "textediting negative start", line: #"{"t":3,"type":"textediting","text":"a","start":-1}"#, words: ["\"start\""]),
        Malformed(name: "textediting negative length", line: #"{"t":3,"type":"textediting","text":"a","length":-2}"#, words: ["\"length\""]),
        Malformed(name: "missing t", line: #"{"type":"mousedown","x":1,"y":1}"#, words: ["missing", "\"t\""]),
        Malformed(name: "missing type", line: #"{"t":3,"x":1,"y":1}"#, words: ["missing", "\"type\""]),
        Malformed(name: "t is a string", line: #"{"t":"3","type":"mousedown","x":1,"y":1}"#, words: ["\"t\"", "wrong type"]),
        Malformed(name: "mouse without x", line: #"{"t":3,"type":"mousedown","y":1}"#, words: ["mousedown", "\"x\""]),
        Malformed(name: "mouse without y", line: #"{"t":3,"type":"mousemotion","x":1}"#, words: ["mousemotion", "\"y\""]),
        Malformed(name: "mouse button 9", line: #"{"t":3,"type":"mouseup","x":1,"y":1,"button":9}"#, words: ["button"]),
        Malformed(name: "finger without finger", line: #"{"t":3,"type":"fingerdown","x":0.5,"y":0.5}"#, words: ["fingerdown", "\"finger\""]),
        Malformed(name: "finger without x", line: #"{"t":3,"type":"fingerup","finger":1,"y":0.5}"#, words: ["fingerup", "\"x\""]),
        Malformed(name: "finger in pixels", line: #"{"t":3,"type":"fingerdown","finger":1,"x":240,"y":512}"#, words: ["fractions", "64"]),
        Malformed(name: "finger just past the limit", line: #"{"t":3,"type":"fingermotion","finger":1,"x":0.5,"y":-64.01}"#, words: ["fractions", "64"]),
        Malformed(name: "finger beyond any number", line: #"{"t":3,"type":"fingerup","finger":1,"x":1e400,"y":0.5}"#, words: ["fractions", "64"]),
        Malformed(name: "key without key", line: #"{"t":3,"type":"keydown"}"#, words: ["keydown", "\"key\""]),
        Malformed(name: "empty key", line: #"{"t":3,"type":"keyup","key":""}"#, words: ["key", "empty"]),
        Malformed(name: "textinput without text", line: #"{"t":3,"type":"textinput"}"#, words: ["textinput", "\"text\""]),
        Malformed(name: "empty text", line: #"{"t":3,"type":"textinput","text":""}"#, words: ["text", "empty"]),
        Malformed(name: "window without event", line: #"{"t":3,"type":"window"}"#, words: ["window", "\"event\""]),
        Malformed(name: "resized without w", line: #"{"t":3,"type":"window","event":"resized","h":900}"#, words: ["\"w\""]),
        Malformed(name: "resized without h", line: #"{"t":3,"type":"window","event":"resized","w":600}"#, words: ["\"h\""]),
        Malformed(name: "resized to zero", line: #"{"t":3,"type":"window","event":"resized","w":0,"h":900}"#, words: ["\"w\"", "\"h\""]),
        Malformed(name: "negative t", line: #"{"t":-1,"type":"mousedown","x":1,"y":1}"#, words: ["\"t\"", "negative"]),
    ]

    @Test(arguments: malformed)
    func malformedLineIsRefusedWithItsLineNumber(_ bad: Malformed) throws {
        // Line 1 a comment, line 2 blank, line 3 valid, line 4 the bad one, line 5 valid.
        let text = """
            # header
            \("")
            {"t":1,"type":"mousemotion","x":1,"y":1,"buttons":0}
            \(bad.line)
            {"t":9,"type":"mousemotion","x":1,"y":1,"buttons":0}
            """
        let error = try #require(Self.parseError(text))
        #expect(error.line == 4)
        #expect(!error.message.isEmpty)
        #expect(!error.message.contains("\n"))
        for word in bad.words {
            #expect(error.message.contains(word), "message: \(error.message)")
        }
        #expect(error.description == "line 4: \(error.message)")
        // On its own, the same line is line 1.
        #expect(Self.parseError(bad.line)?.line == 1)
    }

    @Test func timestampGoingBackwardsIsRefused() throws {
        let text = """
            {"t":100,"type":"fingerdown","finger":1,"x":0.5,"y":0.5}
            {"t":150,"type":"fingermotion","finger":1,"x":0.5,"y":0.6}
            # later
            {"t":149,"type":"fingerup","finger":1,"x":0.5,"y":0.6}
            """
        let error = try #require(Self.parseError(text))
        #expect(error.line == 4)
        #expect(error.message.contains("149"))
        #expect(error.message.contains("150"))
        #expect(error.message.contains("earlier"))
    }

    @Test func unknownKeyNameIsRefused() throws {
        let text = """
            {"t":1,"type":"keydown","key":"Backspace"}
            {"t":2,"type":"keyup","key":"Backspace"}
            {"t":3,"type":"keydown","key":"Bakcspace"}
            """
        let known: (String) -> Bool = { ["Backspace", "Left", "Right", "Home", "End"].contains($0) }
        let error = try #require(Self.parseError(text, isKnownKey: known))
        #expect(error.line == 3)
        #expect(error.message.contains("unknown key"))
        #expect(error.message.contains("Bakcspace"))
        // Without the check, any non-empty name is accepted.
        #expect(Self.parseError(text) == nil)
    }

    /// The file's own text in a refusal (an unknown type, window event or key name) is shown
    /// as a JSON string, its control characters escaped: the message stays one line and an
    /// escape sequence in the file does not reach the terminal (found by the replay fuzz
    /// targets, issue 24).
    @Test(arguments: [
        (#"{"t":3,"type":"finger\u001b[2Jdown"}"#, #""type" has an unknown value "finger\u001b[2Jdown""#),
        (#"{"t":3,"type":"window","event":"clo\nse"}"#, #""event" has an unknown value "clo\nse""#),
        (#"{"t":3,"type":"keydown","key":"B\u2028ackspace"}"#, #"unknown key name "B\u2028ackspace""#),
    ])
    func theFilesTextIsShownEscaped(line: String, message: String) throws {
        let error = try #require(Self.parseError(line, isKnownKey: { $0 == "Backspace" }))
        #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "\(error.message.debugDescription)")
        #expect(error.message == message)
    }

    /// A key name is read by SDL as a C string, which ends at NUL: "A\u0000x" passed SDL's
    /// check as "A" and was accepted. No SDL key name holds a control character.
    @Test(arguments: [#"A\u0000x"#, #"Back\u0000"#, #"\u0000"#, #"Left\tShift"#, #"A\u007f"#, #"A\u0085"#])
    func aKeyNameWithAControlCharacterIsRefused(name: String) throws {
        // What SDL_GetKeyFromName sees: the name up to its first NUL.
        let sdl: (String) -> Bool = { ["A", "Backspace", "Left Shift", "Back"].contains(String($0.prefix { $0 != "\u{0}" })) }
        let error = try #require(Self.parseError(#"{"t":1,"type":"keydown","key":"\#(name)"}"#, isKnownKey: sdl))
        #expect(error.line == 1 && error.message.contains("\"key\""), "\(error)")
    }

    @Test func theFirstBadLineIsReported() throws {
        let text = """
            {"t":1,"type":"mousedown","x":1,"y":1}
            {"t":2,"type":"mousedown"}
            not json either
            """
        #expect(Self.parseError(text)?.line == 2)
    }
}

/// Issue 3's command-line options.
@Suite("LaunchOptions: scale, record, replay")
struct LaunchOptionsTouchTests {
    static func run(_ arguments: [String]) throws -> LaunchOptions {
        let command = try LaunchOptions.parse(arguments)
        guard case .run(let options) = command else {
            Issue.record("expected .run for \(arguments), got \(command)")
            return LaunchOptions()
        }
        return options
    }

    static func usageError(_ arguments: [String]) -> LaunchOptions.UsageError? {
        do {
            _ = try LaunchOptions.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [("1", 1.0), ("2", 2.0), ("1.5", 1.5), ("0.5", 0.5), ("8", 8.0)])
    func validScale(_ text: String, _ scale: Double) throws {
        #expect(try Self.run(["--scale", text]).scale == scale)
        #expect(try Self.run(["--scale=\(text)"]).scale == scale)
    }

    @Test(arguments: ["0", "9", "abc", "-1", "nan", "inf", ""])
    func invalidScale(_ text: String) throws {
        let error = try #require(Self.usageError(["--scale", text]))
        #expect(error.message.contains("--scale"))
    }

    @Test func scaleWithoutValue() throws {
        let error = try #require(Self.usageError(["--scale"]))
        #expect(error.message.contains("--scale"))
        #expect(error.message.contains("value"))
    }

    @Test func noScaleByDefault() throws {
        #expect(try Self.run([]).scale == nil)
    }

    @Test func recordAndReplay() throws {
        #expect(try Self.run(["--record", "/tmp/in.jsonl"]).recordPath == "/tmp/in.jsonl")
        #expect(try Self.run(["--record=out.jsonl"]).recordPath == "out.jsonl")
        let replay = try Self.run(["--replay", "taps.jsonl"])
        #expect(replay.replayPath == "taps.jsonl")
        #expect(!replay.exitWhenDone)
        let scripted = try Self.run(["--replay", "taps.jsonl", "--exit-when-done", "--trace"])
        #expect(scripted.replayPath == "taps.jsonl")
        #expect(scripted.exitWhenDone)
        #expect(scripted.trace)
        // The flag may come before --replay.
        #expect(try Self.run(["--exit-when-done", "--replay", "a.jsonl"]).exitWhenDone)
        let defaults = try Self.run([])
        #expect(defaults.recordPath == nil)
        #expect(defaults.replayPath == nil)
        #expect(!defaults.exitWhenDone)
    }

    @Test func recordAndReplayNeedAFile() throws {
        #expect(Self.usageError(["--record"]) != nil)
        #expect(Self.usageError(["--replay"]) != nil)
        #expect(Self.usageError(["--record", ""]) != nil)
        #expect(Self.usageError(["--replay="]) != nil)
    }

    @Test func exitWhenDoneNeedsReplay() throws {
        let error = try #require(Self.usageError(["--exit-when-done"]))
        #expect(error.message.contains("--replay"))
        #expect(Self.usageError(["--record", "x.jsonl", "--exit-when-done"]) != nil)
        #expect(Self.usageError(["--exit-when-done=yes", "--replay", "a"]) != nil)
    }

    @Test func resolvedScale() {
        var explicit = LaunchOptions()
        explicit.scale = 1.5
        #expect(explicit.resolvedScale(environment: ["GDK_SCALE": "2"]) == 1.5)
        #expect(explicit.resolvedScale(environment: [:]) == 1.5)

        let unset = LaunchOptions()
        #expect(unset.resolvedScale(environment: [:]) == 1)
        #expect(unset.resolvedScale(environment: ["GDK_SCALE": "2"]) == 2)
        #expect(unset.resolvedScale(environment: ["GDK_SCALE": "3"]) == 3)
        for bad in ["abc", "0", "-2", "", "1.5", "99"] {
            #expect(unset.resolvedScale(environment: ["GDK_SCALE": bad]) == 1, "GDK_SCALE=\(bad)")
        }
    }
}
