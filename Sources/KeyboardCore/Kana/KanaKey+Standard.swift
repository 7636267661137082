// DEFAULT AND TEST DATA. The kana pad's tables are data in the layout file: the app reads
// them from `layouts/ja-kana.json`, which carries these values (a test keeps the file and
// `LayoutDefinition.japaneseKana`, built from these, equal). Here they are what the core's
// tests drive, and `KanaModifierTable.standard` is what a layout without `forms` uses.
//
// Sources (public descriptions of iOS 日本語かな; iOS itself is not at hand):
// - Flicks: left い段, up う段, right え段, down お段 (mynavi 2016-01-12 「9時方向を先頭に
//   時計回り」). や: 「 ゆ 」 よ (nikkei 「iPhoneでは「や」キーからカギカッコを入力でき」, iOS 8
//   on). わ: を ん ー and nothing down; 、: 。 ？ ！ and nothing down (nikkei: Gboard's 〜 and
//   … below them 「iPhoneは不可」).
// - Toggle cycles: あ あいうえおぁぃぅぇぉ (its reverse order 「ぉぇぅぃぁおえういあ」 is quoted
//   from the iPhone's ↶ key, nori510.com); わ x3 = ん (「「わ」を3回」 → ん in 音楽, caferoman).
//   た's っ after と, や's ゃゅょ, わ's ゎ and ー, and 、's 。？！… follow two open 12-key
//   keyboards (one modelled on iOS, one on Gboard); they agree on these, iOS's exact order
//   is not documented anywhere found. Being data, a layout file can correct them.

extension KanaKey {
    /// iOS 日本語かな's eleven kana keys in reading order: あ か さ / た な は / ま や ら / わ 、.
    public static let standard: [KanaKey] = [
        KanaKey(flicks: "あいうえお", cycle: "あいうえおぁぃぅぇぉ"),
        KanaKey(flicks: "かきくけこ"),
        KanaKey(flicks: "さしすせそ"),
        KanaKey(flicks: "たちつてと", cycle: "たちつてとっ"),
        KanaKey(flicks: "なにぬねの"),
        KanaKey(flicks: "はひふへほ"),
        KanaKey(flicks: "まみむめも"),
        KanaKey(tap: "や", left: "「", up: "ゆ", right: "」", down: "よ", cycle: ["や", "ゆ", "よ", "ゃ", "ゅ", "ょ"]),
        KanaKey(flicks: "らりるれろ"),
        KanaKey(tap: "わ", left: "を", up: "ん", right: "ー", down: nil, cycle: ["わ", "を", "ん", "ゎ", "ー"]),
        KanaKey(tap: "、", left: "。", up: "？", right: "！", down: nil, cycle: ["、", "。", "？", "！", "…"]),
    ]

    /// The number pad behind ☆123: its twelve keys in reading order (1 2 3 / 4 5 6 / 7 8 9 /
    /// ( 0 .), each typing its digit or sign on a tap and symbols on the flicks.
    public static let numberPad: [KanaKey] = [
        KanaKey(tap: "1", left: "☆", up: "♪", right: "→", down: nil), KanaKey(tap: "2", left: "¥", up: "$", right: "€", down: nil),
        KanaKey(tap: "3", left: "%", up: "°", right: "#", down: nil), KanaKey(tap: "4", left: "○", up: "*", right: "・", down: nil),
        KanaKey(tap: "5", left: "+", up: "×", right: "÷", down: nil), KanaKey(tap: "6", left: "<", up: "=", right: ">", down: nil),
        KanaKey(tap: "7", left: "「", up: "」", right: ":", down: nil), KanaKey(tap: "8", left: "〒", up: "々", right: "〆", down: nil),
        KanaKey(tap: "9", left: "^", up: "|", right: "\\", down: nil), KanaKey(tap: "(", left: ")", up: "[", right: "]", down: nil),
        KanaKey(tap: "0", left: "〜", up: "…", right: nil, down: nil), KanaKey(tap: ".", left: ",", up: "-", right: "/", down: nil),
    ]

    /// The standard key whose id (tap kana) is `id`.
    public static func standard(_ id: String) -> KanaKey? {
        standard.first { $0.id == id }
    }
}

extension KanaModifierTable {
    /// The hiragana forms 「゛゜小」 switches: small あ行, や行, っ and ゎ; ゛ on か さ た は行 and
    /// ゔ; ゜ on は行. (The pad types hiragana; katakana comes from conversion.)
    public static let standard = KanaModifierTable([
        KanaForms(base: "あ", small: "ぁ"),
        KanaForms(base: "い", small: "ぃ"),
        KanaForms(base: "う", small: "ぅ", voiced: "ゔ"),
        KanaForms(base: "え", small: "ぇ"),
        KanaForms(base: "お", small: "ぉ"),
        KanaForms(base: "か", voiced: "が"),
        KanaForms(base: "き", voiced: "ぎ"),
        KanaForms(base: "く", voiced: "ぐ"),
        KanaForms(base: "け", voiced: "げ"),
        KanaForms(base: "こ", voiced: "ご"),
        KanaForms(base: "さ", voiced: "ざ"),
        KanaForms(base: "し", voiced: "じ"),
        KanaForms(base: "す", voiced: "ず"),
        KanaForms(base: "せ", voiced: "ぜ"),
        KanaForms(base: "そ", voiced: "ぞ"),
        KanaForms(base: "た", voiced: "だ"),
        KanaForms(base: "ち", voiced: "ぢ"),
        KanaForms(base: "つ", small: "っ", voiced: "づ"),
        KanaForms(base: "て", voiced: "で"),
        KanaForms(base: "と", voiced: "ど"),
        KanaForms(base: "は", voiced: "ば", semiVoiced: "ぱ"),
        KanaForms(base: "ひ", voiced: "び", semiVoiced: "ぴ"),
        KanaForms(base: "ふ", voiced: "ぶ", semiVoiced: "ぷ"),
        KanaForms(base: "へ", voiced: "べ", semiVoiced: "ぺ"),
        KanaForms(base: "ほ", voiced: "ぼ", semiVoiced: "ぽ"),
        KanaForms(base: "や", small: "ゃ"),
        KanaForms(base: "ゆ", small: "ゅ"),
        KanaForms(base: "よ", small: "ょ"),
        KanaForms(base: "わ", small: "ゎ"),
    ])
}
