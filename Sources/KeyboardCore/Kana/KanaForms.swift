/// The forms of one kana that the 「゛゜小」 key switches between: は ば ぱ, つ っ づ, う ぅ ゔ.
public struct KanaForms: Hashable, Sendable {
    /// The plain kana (は).
    public var base: String
    /// The small form (っ for つ), if any.
    public var small: String?
    /// The ゛ (dakuten) form (ば for は), if any.
    public var voiced: String?
    /// The ゜ (handakuten) form (ぱ for は), if any.
    public var semiVoiced: String?

    public init(base: String, small: String? = nil, voiced: String? = nil, semiVoiced: String? = nil) {
        self.base = base
        self.small = small
        self.voiced = voiced
        self.semiVoiced = semiVoiced
    }

    /// A tap's cycle: base, small, ゛, ゜ (those that exist), then back to base. This gives
    /// iOS's orders: は→ば→ぱ, つ→っ→づ, う→ぅ→ゔ (「「つ」や「う」は1回押すと小さい「っ」「ぅ」に
    /// なり、2回押すと濁点が付く」), か→が, や→ゃ.
    public var cycle: [String] { [base] + [small, voiced, semiVoiced].compactMap { $0 } }

    /// The 「゛゜小」 key's flicks for this kana: left ゛, up small, right ゜ (iOS: 「左側に濁音
    /// の「ば」、右側に半濁音の「ぱ」」, small 「ゃ」 up); nothing down.
    public var flicks: FlickTargets {
        FlickTargets(center: nil, left: voiced, up: small, right: semiVoiced, down: nil)
    }
}

/// The 「゛゜小」 key's rules over a table of `KanaForms`: what a tap or a flick makes of the
/// last kana of the composition.
///
/// Plain data like `KanaKey` (the layout file may carry it); `KanaModifierTable.standard`
/// is the hiragana table, shipped as default and test data.
public struct KanaModifierTable: Hashable, Sendable {
    /// Every kana's forms.
    public let forms: [KanaForms]
    /// For each kana that appears in `forms`, the index of its entry.
    private let entryOf: [String: Int]

    /// A table of `forms`; a kana listed in two entries belongs to the first.
    public init(_ forms: [KanaForms]) {
        self.forms = forms
        var entryOf: [String: Int] = [:]
        for (index, entry) in forms.enumerated() {
            for kana in entry.cycle where entryOf[kana] == nil { entryOf[kana] = index }
        }
        self.entryOf = entryOf
    }

    /// The forms `kana` belongs to (ば → は's), or `nil` when it has none (ー, 、, ん).
    public func forms(of kana: String) -> KanaForms? {
        entryOf[kana].map { forms[$0] }
    }

    /// A tap on 「゛゜小」: the next form in the cycle (は→ば→ぱ→は), or `nil` when `kana` has
    /// no other form.
    public func tapped(_ kana: String) -> String? {
        guard let entry = forms(of: kana), let index = entry.cycle.firstIndex(of: kana), entry.cycle.count > 1 else {
            return nil
        }
        return entry.cycle[(index + 1) % entry.cycle.count]
    }

    /// 「゛゜小」 lifted in `direction`: `.center` is a tap; left gives the ゛ form, up the
    /// small form, right the ゜ form of `kana`'s base (ぱ flicked left is ば; ば flicked left
    /// stays ば). `nil` when that form does not exist (か flicked right) or down.
    public func modified(_ kana: String, _ direction: FlickDirection) -> String? {
        if direction == .center { return tapped(kana) }
        return forms(of: kana)?.flicks[direction]
    }

    /// The flick guide of 「゛゜小」 over `kana` (the last kana of the composition): the tap's
    /// form in the middle, the ゛, small and ゜ forms around it. Empty when there is no kana or
    /// it has no forms.
    public func targets(for kana: String?) -> FlickTargets {
        guard let kana, let entry = forms(of: kana) else { return .empty }
        var targets = entry.flicks
        targets.center = tapped(kana)
        return targets
    }
}
