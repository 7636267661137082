import KeyboardCore
import Testing

/// The flick gesture: direction from the touch-down point, 25 pt threshold, dominant axis.
@Suite("FlickGesture")
struct FlickGestureTests {
    static let origin = Point(x: 100, y: 200)

    /// The point `dx`, `dy` points away from `origin`.
    static func at(_ dx: Double, _ dy: Double) -> Point { Point(x: origin.x + dx, y: origin.y + dy) }

    @Test func startsAtTheCenterAsATap() {
        let gesture = FlickGesture(touchDownAt: Self.origin)
        #expect(gesture.direction == .center)
        #expect(gesture.isTap)
        #expect(gesture.threshold == 25)
        #expect(FlickGesture.defaultThreshold == 25)
    }

    @Test("closer than the threshold is the center", arguments: [
        (0.0, 0.0), (24.9, 0), (-24.9, 0), (0, 24.9), (0, -24.9), (17, 17), (-17.6, 17.6),
    ])
    func insideThresholdIsCenter(dx: Double, dy: Double) {
        #expect(FlickGesture.direction(from: Self.origin, to: Self.at(dx, dy), threshold: 25) == .center)
    }

    @Test("at or beyond the threshold the dominant axis decides", arguments: [
        (-25.0, 0.0, FlickDirection.left), (25, 0, .right), (0, -25, .up), (0, 25, .down),
        (-40, 30, .left), (40, -30, .right), (30, -40, .up), (-30, 40, .down),
        (-200, 10, .left), (5, -300, .up),
        // An exact diagonal counts as vertical.
        (-20, -20, .up), (20, 20, .down), (30, -30, .up), (-30, 30, .down),
    ])
    func dominantAxis(dx: Double, dy: Double, expected: FlickDirection) {
        #expect(FlickGesture.direction(from: Self.origin, to: Self.at(dx, dy), threshold: 25) == expected)
    }

    @Test func directionFollowsTheFingerAndReportsChanges() {
        var gesture = FlickGesture(touchDownAt: Self.origin)
        #expect(gesture.move(to: Self.at(10, 0)) == false)
        #expect(gesture.direction == .center)
        #expect(gesture.isTap)
        #expect(gesture.move(to: Self.at(-30, 0)) == true)
        #expect(gesture.direction == .left)
        #expect(!gesture.isTap)
        #expect(gesture.move(to: Self.at(-60, 5)) == false)
        #expect(gesture.move(to: Self.at(-10, -40)) == true)
        #expect(gesture.direction == .up)
        #expect(gesture.move(to: Self.at(3, 3)) == true)
        #expect(gesture.direction == .center)
        #expect(!gesture.isTap, "came back, but it left the center: not a tap")
    }

    @Test func releaseGivesTheFinalDirection() {
        var tap = FlickGesture(touchDownAt: Self.origin)
        tap.move(to: Self.at(5, 5))
        #expect(tap.release(at: Self.at(8, -8)) == .tap)

        var flick = FlickGesture(touchDownAt: Self.origin)
        #expect(flick.release(at: Self.at(0, 60)) == .flick(.down))

        var awayAndBack = FlickGesture(touchDownAt: Self.origin)
        awayAndBack.move(to: Self.at(40, 0))
        #expect(awayAndBack.release(at: Self.origin) == .flick(.center))
    }

    @Test func customThreshold() {
        var gesture = FlickGesture(touchDownAt: Self.origin, threshold: 10)
        #expect(gesture.move(to: Self.at(10, 0)) == true)
        #expect(gesture.direction == .right)
    }

    /// Issue 22: every flick direction of every key (the standard table) — touch, slide a key
    /// width (60 pt) to a side, lift.
    @Test func everyFlickOfEveryStandardKey() {
        let expected: [String: [String?]] = [  // left, up, right, down
            "あ": ["い", "う", "え", "お"], "か": ["き", "く", "け", "こ"], "さ": ["し", "す", "せ", "そ"],
            "た": ["ち", "つ", "て", "と"], "な": ["に", "ぬ", "ね", "の"], "は": ["ひ", "ふ", "へ", "ほ"],
            "ま": ["み", "む", "め", "も"], "や": ["「", "ゆ", "」", "よ"], "ら": ["り", "る", "れ", "ろ"],
            "わ": ["を", "ん", "ー", nil], "、": ["。", "？", "！", nil],
        ]
        #expect(KanaKey.standard.map(\.id) == ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ", "、"])
        let slides: [(FlickDirection, Double, Double)] = [(.left, -60, 0), (.up, 0, -60), (.right, 60, 0), (.down, 0, 60)]
        for key in KanaKey.standard {
            var tap = FlickGesture(touchDownAt: Self.origin)
            #expect(key.flicks[tap.release(at: Self.origin).direction] == key.id)
            for (index, (direction, dx, dy)) in slides.enumerated() {
                var gesture = FlickGesture(touchDownAt: Self.origin)
                let release = gesture.release(at: Self.at(dx, dy))
                #expect(release == .flick(direction))
                #expect(key.flicks[release.direction] == expected[key.id]?[index], "\(key.id) \(direction)")
            }
        }
    }

    @Test func guideShowsTheNeighboursAndTheSelection() {
        let wa = KanaKey.standard("わ")!
        var gesture = FlickGesture(touchDownAt: Self.origin)
        let pad = KanaPad()
        var guide = pad.guide(for: wa, gesture)
        #expect(guide.targets.center == "わ")
        #expect(guide.neighbours.map(\.direction) == [.left, .up, .right])
        #expect(guide.neighbours.map(\.text) == ["を", "ん", "ー"])
        #expect(guide.selected == .center)
        #expect(guide.selectedText == "わ")
        gesture.move(to: Self.at(30, 0))
        guide = pad.guide(for: wa, gesture)
        #expect(guide.selected == .right)
        #expect(guide.selectedText == "ー")
        gesture.move(to: Self.at(0, 30))
        guide = pad.guide(for: wa, gesture)
        #expect(guide.selected == .down)
        #expect(guide.selectedText == nil, "nothing below わ: lifting there types nothing")
    }
}
