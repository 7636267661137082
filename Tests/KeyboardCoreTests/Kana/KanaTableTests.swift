import KeyboardCore
import Testing

/// The kana tables as data: the standard (default/test) table, its cycles, and the checks a
/// layout loader reports.
@Suite("Kana tables")
struct KanaTableTests {
    @Test func standardCycles() {
        let cycles = Dictionary(uniqueKeysWithValues: KanaKey.standard.map { ($0.id, $0.cycle.joined()) })
        #expect(cycles == [
            "あ": "あいうえおぁぃぅぇぉ", "か": "かきくけこ", "さ": "さしすせそ", "た": "たちつてとっ",
            "な": "なにぬねの", "は": "はひふへほ", "ま": "まみむめも", "や": "やゆよゃゅょ",
            "ら": "らりるれろ", "わ": "わをんゎー", "、": "、。？！…",
        ])
    }

    @Test func standardKeysAreValid() {
        for key in KanaKey.standard { #expect(key.problem == nil, "\(key.id)") }
        #expect(KanaKey.standard("か")?.tap == "か")
        #expect(KanaKey.standard("ん") == nil)
    }

    @Test func defaultCycleIsTapThenFlicks() {
        let key = KanaKey(tap: "x", left: "a", up: nil, right: "b", down: "c")
        #expect(key.cycle == ["x", "a", "b", "c"])
        #expect(key.cycleIndex(of: "b") == 2)
        #expect(key.cycleIndex(of: "z") == nil)
    }

    @Test func problemsALayoutLoaderReports() {
        #expect(KanaKey(tap: "", left: nil, up: nil, right: nil, down: nil).problem == "a kana key needs a tap kana")
        #expect(KanaKey(tap: "あ", left: nil, up: nil, right: nil, down: nil, cycle: []).problem
                == "the toggle cycle of あ is empty")
        #expect(KanaKey(tap: "あ", left: nil, up: nil, right: nil, down: nil, cycle: ["い", "あ"]).problem
                == "the toggle cycle of あ must start with あ, not い")
        #expect(KanaKey(tap: "あ", left: nil, up: nil, right: nil, down: nil, cycle: ["あ", ""]).problem
                == "the toggle cycle of あ has an empty kana")
        #expect(KanaKey(tap: "あ", left: "", up: nil, right: nil, down: nil, cycle: ["あ"]).problem
                == "a flick of あ is empty (leave it out to type nothing)")
    }
}
