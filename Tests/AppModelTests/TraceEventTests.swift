import Foundation
import AppModel
import KeyboardCore
import Testing

/// `HeeApp --trace` lines: one JSON object per event, `event` and `t` first.
@Suite("TraceEvent")
struct TraceEventTests {
    static func parse(_ value: JSONValue) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(value.serialized.utf8))
        return try #require(object as? [String: Any])
    }

    static let layout = KeyboardLayout(windowSize: Size(width: 480, height: 800))

    static let events: [TraceEvent] = [
        .layout(layout, scale: 2),
        .keyboard(.show, layout.keyboardFrame),
        .keyboard(.hide, .zero),
        .touch(.letter("a"), down: true),
        .touch(.hee, down: false),
        .hee(count: 100),
        .shift(.capsLock),
        .text("say \"へぇ〜\" \\ ok", caret: 3),
        .composition("にほん", cursor: 2),
        .composition("", cursor: 0),
        .audioOpen(rate: 48000, channels: 2, format: "s16", chunk: 512),
        .audioClosed,
        .audioSilent(status: "muted", reason: "--mute"),
        .sound(.hee),
        .layer("numbers"),
        .alternates("e", [AlternatesBubble.Choice(text: "é", frame: Rect(x: 1, y: 2, width: 3, height: 4))]),
        .trackpad(true),
        .trackpad(false),
    ]

    @Test(arguments: events)
    func everyEventIsValidJSONWithEventAndTimeFirst(event: TraceEvent) throws {
        let json = event.json(at: 1.23456)
        let text = json.serialized
        #expect(text.hasPrefix("{\"event\":\"\(event.name)\",\"t\":1.235,"), "\(text)")
        #expect(!text.contains("\n"))
        let parsed = try Self.parse(json)
        #expect(parsed["event"] as? String == event.name)
        #expect(parsed["t"] as? Double == 1.235)
    }

    @Test func compositionCarriesItsTextAndCursor() throws {
        let parsed = try Self.parse(TraceEvent.composition("にほん", cursor: 2).json(at: 0.5))
        #expect(parsed["event"] as? String == "composition")
        #expect(parsed["text"] as? String == "にほん")
        #expect(parsed["cursor"] as? Int == 2)
        #expect(Set(parsed.keys) == ["event", "t", "text", "cursor"])
    }

    @Test func layoutHasEveryKeyAndHostControl() throws {
        let layout = Self.layout
        let parsed = try Self.parse(TraceEvent.layout(layout, scale: 1.5).json(at: 0))
        #expect(parsed["event"] as? String == "layout")
        #expect(parsed["scale"] as? Double == 1.5)
        let window = try #require(parsed["window"] as? [String: Any])
        #expect(window["w"] as? Double == 480)
        #expect(window["h"] as? Double == 800)

        let keys = try #require(parsed["keys"] as? [String: Any])
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let expectedNames = Set(letters + ["hee", "shift", "backspace", "space", "return", "123"] + HostControl.allCases.map(\.rawValue))
        #expect(expectedNames.isSuperset(of: ["textField", "closeKeyboard", "volumeDown", "volumeUp", "resetCount"]))
        #expect(Set(keys.keys) == expectedNames)

        func check(_ name: String, _ rect: Rect) throws {
            let r = try #require(keys[name] as? [String: Any], "\(name)")
            // The trace writes numbers rounded to micro-points.
            for (field, value) in [("x", rect.x), ("y", rect.y), ("w", rect.width), ("h", rect.height)] {
                #expect(abs(try #require(r[field] as? Double) - value) < 1e-6, "\(name).\(field)")
            }
        }
        for key in layout.orderedKeys { try check(key.name, try #require(layout.keys[key])) }
        try check("textField", layout.textField)
        try check("closeKeyboard", layout.closeKeyboard)
        try check("hee", layout.heeFrame)
    }

    @Test func keyboardEventCarriesStatusAndFrame() throws {
        let hidden = try Self.parse(TraceEvent.keyboard(.hide, .zero).json(at: 2))
        #expect(hidden["status"] as? String == "hide")
        let frame = try #require(hidden["frame"] as? [String: Any])
        #expect(frame.count == 4)
        #expect(frame.values.allSatisfy { ($0 as? Double) == 0 })

        let shown = try Self.parse(TraceEvent.keyboard(.show, Self.layout.keyboardFrame).json(at: 2))
        #expect(shown["status"] as? String == "show")
        #expect((shown["frame"] as? [String: Any])?["h"] as? Double == Self.layout.keyboardFrame.height)
    }

    @Test func textEventKeepsQuotesAndJapanese() throws {
        let parsed = try Self.parse(TraceEvent.text("say \"へぇ〜\" \\ ok", caret: 3).json(at: 0))
        #expect(parsed["text"] as? String == "say \"へぇ〜\" \\ ok")
        #expect(parsed["caret"] as? Int == 3)
    }

    @Test func smallFieldsAreNamed() throws {
        let touch = try Self.parse(TraceEvent.touch(.letter("q"), down: true).json(at: 0))
        #expect(touch["key"] as? String == "q")
        #expect(touch["down"] as? Bool == true)
        #expect(try Self.parse(TraceEvent.hee(count: 123).json(at: 0))["count"] as? Int == 123)
        #expect(try Self.parse(TraceEvent.shift(.capsLock).json(at: 0))["state"] as? String == "capsLock")
        #expect(try Self.parse(TraceEvent.sound(.hee).json(at: 0))["name"] as? String == "hee")
        #expect(try Self.parse(TraceEvent.audioClosed.json(at: 0))["status"] as? String == "closed")
    }

    @Test func theHeeTraceSaysFull() throws {
        #expect(TraceEvent.hee(count: 20, full: true).json(at: 0).serialized.contains(#""full":true"#))
        #expect(!TraceEvent.hee(count: 19).json(at: 0).serialized.contains("full"))
    }

    /// Issue 20's lines: the layer shown, the bubble's choices with their rectangles (scaled
    /// as the layout's are), the trackpad on and off.
    @Test func layerAlternatesAndTrackpadLines() throws {
        #expect(TraceEvent.layer("symbols").json(at: 0.5).serialized == #"{"event":"layer","t":0.5,"name":"symbols"}"#)
        #expect(TraceEvent.emojiCategory("animals").json(at: 0.5).serialized
            == #"{"event":"emojiCategory","t":0.5,"name":"animals"}"#, "issue 34")
        let choices = [AlternatesBubble.Choice(text: "è", frame: Rect(x: 10, y: 20, width: 42, height: 40)),
                       AlternatesBubble.Choice(text: "é", frame: Rect(x: 52, y: 20, width: 42, height: 40))]
        #expect(TraceEvent.alternates("e", choices, coordinateScale: 2).json(at: 1).serialized
                == #"{"event":"alternates","t":1,"key":"e","choices":[{"text":"è","x":20,"y":40,"w":84,"h":80},"#
                + #"{"text":"é","x":104,"y":40,"w":84,"h":80}]}"#)
        #expect(TraceEvent.trackpad(true).json(at: 2).serialized == #"{"event":"trackpad","t":2,"active":true}"#)
        #expect(TraceEvent.trackpad(false).json(at: 2).serialized == #"{"event":"trackpad","t":2,"active":false}"#)
    }
}
