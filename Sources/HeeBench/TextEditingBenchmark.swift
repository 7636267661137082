import KeyboardCore

/// The text field's editing cost in wall-clock time (`HeeBench --text`, part of `make bench`):
/// the same operations as the unit tests `longPasteIsLinear` and
/// `editingAfterALongPasteCostsOnlyWhatItTouches`, which check the work they do by counting it
/// (`TextWork`); here the time they take is measured, through `KeyboardSession` as the app
/// drives it. No SDL.
enum TextEditingBenchmark {
    /// A session with the text field focused, fed one input every 10 ms.
    struct Field {
        var session = KeyboardSession(windowSize: KeyboardLayout.defaultWindowSize)
        var time = Duration.zero

        init() { send(.launched) }

        mutating func send(_ input: KeyboardInput) {
            time += .milliseconds(10)
            _ = session.handle(input, at: time)
        }

        var work: TextWork { session.document.textField.work }
    }

    /// `length` Characters in lines of 79 (Japanese, an emoji with a skin tone, ASCII), each
    /// followed by a line break: the tests' pasted text.
    static func pastedText(length: Int) -> String {
        let line = String(String(repeating: "あいう👍🏽abcdef", count: 8).dropLast())
        var text = String(repeating: line + "\n", count: length / 80 - 1)
        text += String(repeating: "x", count: length - (length / 80 - 1) * 80)
        return text
    }

    /// Milliseconds `body` took.
    static func milliseconds(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// One sample of every figure: name → (milliseconds, the work counted meanwhile).
    static func sample() -> [(String, Double, TextWork)] {
        var results: [(String, Double, TextWork)] = []
        for (length, name) in [(50_000, "50,000"), (200_000, "200,000")] {
            let text = pastedText(length: length)
            var field = Field()
            field.send(.paste("[selected]"))
            field.send(.placeCaret(at: 1, extendingSelection: false, clickCount: 1))
            field.send(.placeCaret(at: 9, extendingSelection: true, clickCount: 1))
            let before = field.work
            let ms = milliseconds { field.send(.paste(text)) }
            precondition(field.session.document.textField.count == length + 2, "the paste went wrong")
            results.append(("paste \(name) characters", ms, field.work - before))
        }
        var field = Field()
        field.send(.paste(String(repeating: "abc def ", count: 25_000)))
        var before = field.work
        let edits = milliseconds {
            for _ in 0..<100 {
                field.send(.textInput("z"))
                field.send(.editing(.move(.characterLeft, extendingSelection: false)))
                field.send(.editing(.move(.wordLeft, extendingSelection: false)))
                field.send(.editing(.move(.end, extendingSelection: false)))
                field.send(.editing(.deleteBackward))
            }
        }
        precondition(field.session.document.textField.count == 200_000, "the edits went wrong")
        results.append(("500 edits and moves at the end of 200,000 characters", edits, field.work - before))
        before = field.work
        let homeEnd = milliseconds {
            field.send(.editing(.move(.start, extendingSelection: false)))
            field.send(.editing(.move(.end, extendingSelection: false)))
        }
        results.append(("Home + End on 200,000 characters", homeEnd, field.work - before))
        return results
    }

    /// `runs` samples of every figure as one JSON object: name → {"ms": [samples], "work":
    /// {"characters", "scalars", "bytes"}} (the work is the same in every run).
    static func run(runs: Int) -> String {
        var times: [String: [Double]] = [:]
        var works: [String: TextWork] = [:]
        var order: [String] = []
        for _ in 0..<runs {
            for (name, ms, work) in sample() {
                if times[name] == nil { order.append(name) }
                times[name, default: []].append(ms)
                works[name] = work
            }
        }
        let entries = order.map { name -> String in
            let w = works[name]!
            return "\"\(name)\":{\"ms\":[" + times[name]!.map { "\($0)" }.joined(separator: ",")
                + "],\"work\":{\"characters\":\(w.characters),\"scalars\":\(w.scalars),\"bytes\":\(w.bytes)}}"
        }
        return "{" + entries.joined(separator: ",") + "}"
    }
}
