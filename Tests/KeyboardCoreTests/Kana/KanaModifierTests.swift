import KeyboardCore
import Testing

/// 「゛゜小」: every transition of the standard table, tapped and flicked.
@Suite("KanaModifierTable (゛゜小)")
struct KanaModifierTests {
    let table = KanaModifierTable.standard

    /// Every tap transition, written out by hand: each line is one cycle, back to its start.
    @Test func everyTapTransition() {
        let cycles = [
            "あぁ", "いぃ", "うぅゔ", "えぇ", "おぉ",
            "かが", "きぎ", "くぐ", "けげ", "こご", "さざ", "しじ", "すず", "せぜ", "そぞ",
            "ただ", "ちぢ", "つっづ", "てで", "とど",
            "はばぱ", "ひびぴ", "ふぶぷ", "へべぺ", "ほぼぽ",
            "やゃ", "ゆゅ", "よょ", "わゎ",
        ]
        #expect(table.forms.map { $0.cycle.joined() } == cycles)
        var count = 0
        for cycle in cycles {
            let kana = cycle.map(String.init)
            for (index, from) in kana.enumerated() {
                #expect(table.tapped(from) == kana[(index + 1) % kana.count], "\(from)")
                #expect(table.modified(from, .center) == table.tapped(from))
                count += 1
            }
        }
        #expect(count == 65)
    }

    @Test("kana without forms are left alone", arguments: ["ん", "ー", "、", "。", "な", "ま", "ら", "を", "「", "日"])
    func noForms(kana: String) {
        #expect(table.tapped(kana) == nil)
        for direction in FlickDirection.allCases { #expect(table.modified(kana, direction) == nil) }
        #expect(table.targets(for: kana) == .empty)
    }

    /// Flicked: left ゛, up small, right ゜ of the kana's base; nothing down.
    @Test(arguments: [
        ("は", FlickDirection.left, "ば"), ("は", .right, "ぱ"), ("は", .up, nil), ("は", .down, nil),
        ("ぱ", .left, "ば"), ("ば", .left, "ば"), ("ば", .right, "ぱ"),
        ("つ", .up, "っ"), ("つ", .left, "づ"), ("っ", .left, "づ"), ("づ", .up, "っ"), ("つ", .right, nil),
        ("う", .left, "ゔ"), ("う", .up, "ぅ"), ("ぅ", .left, "ゔ"),
        ("や", .up, "ゃ"), ("ゃ", .up, "ゃ"), ("や", .left, nil),
        ("か", .left, "が"), ("が", .left, "が"), ("か", .right, nil), ("か", .up, nil),
        ("わ", .up, "ゎ"), ("あ", .up, "ぁ"), ("あ", .down, nil),
    ] as [(String, FlickDirection, String?)])
    func flicked(kana: String, direction: FlickDirection, expected: String?) {
        #expect(table.modified(kana, direction) == expected)
    }

    @Test func guideOverTheLastKana() {
        #expect(table.targets(for: "は") == FlickTargets(center: "ば", left: "ば", up: nil, right: "ぱ", down: nil))
        #expect(table.targets(for: "ぱ") == FlickTargets(center: "は", left: "ば", up: nil, right: "ぱ", down: nil))
        #expect(table.targets(for: "つ") == FlickTargets(center: "っ", left: "づ", up: "っ", right: nil, down: nil))
        #expect(table.targets(for: "や") == FlickTargets(center: "ゃ", left: nil, up: "ゃ", right: nil, down: nil))
        #expect(table.targets(for: nil) == .empty)
    }

    @Test func aKanaInTwoEntriesBelongsToTheFirst() {
        let table = KanaModifierTable([KanaForms(base: "a", small: "b"), KanaForms(base: "b", voiced: "c")])
        #expect(table.tapped("b") == "a")
        #expect(table.forms(of: "c")?.base == "b")
    }
}
