/// One kana key of the 12-key pad (あ, か, … わ, 、): what a tap, each flick and repeated taps
/// type.
///
/// Plain data that a layout file fills (issue 20: "the kana tables are data in the layout
/// file"); `KanaKey.standard` is iOS's table, shipped as default and test data only.
public struct KanaKey: Hashable, Sendable {
    /// The text in each direction; `center` is the tap kana.
    public var flicks: FlickTargets
    /// Toggle input's cycle: the kana repeated taps step through, starting with the tap kana
    /// and wrapping around (あ: あ い う え お ぁ ぃ ぅ ぇ ぉ).
    public var cycle: [String]

    /// A key typing `tap`, the four flicks, and `cycle` (default: the tap kana then the
    /// flicks in `FlickDirection.outward` order).
    public init(tap: String, left: String?, up: String?, right: String?, down: String?, cycle: [String]? = nil) {
        flicks = FlickTargets(center: tap, left: left, up: up, right: right, down: down)
        self.cycle = cycle ?? [tap] + [left, up, right, down].compactMap { $0 }
    }

    /// A key from a string of five kana, tap then left, up, right, down ("あいうえお"), and its
    /// cycle as a string of single-`Character` kana ("あいうえおぁぃぅぇぉ").
    public init(flicks five: String, cycle: String? = nil) {
        let kana = five.map(String.init)
        precondition(kana.count == 5, "five kana: tap, left, up, right, down")
        self.init(tap: kana[0], left: kana[1], up: kana[2], right: kana[3], down: kana[4],
                  cycle: cycle.map { $0.map(String.init) })
    }

    /// The tap kana.
    public var tap: String { flicks.center ?? "" }

    /// The key's id in the layout and the trace: its tap kana ("あ", "か", … "、"), as issue 22
    /// names them.
    public var id: String { tap }

    /// Why this key cannot be used, or `nil` when it can: for the layout loader to report
    /// with the file and the place in it.
    public var problem: String? {
        if tap.isEmpty { return "a kana key needs a tap kana" }
        if cycle.isEmpty { return "the toggle cycle of \(tap) is empty" }
        if cycle.first != tap { return "the toggle cycle of \(tap) must start with \(tap), not \(cycle[0])" }
        if cycle.contains(where: \.isEmpty) { return "the toggle cycle of \(tap) has an empty kana" }
        if FlickDirection.outward.contains(where: { flicks[$0]?.isEmpty == true }) {
            return "a flick of \(tap) is empty (leave it out to type nothing)"
        }
        return nil
    }

    /// The position of `kana` in the toggle cycle, if it is there.
    public func cycleIndex(of kana: String) -> Int? { cycle.firstIndex(of: kana) }
}
