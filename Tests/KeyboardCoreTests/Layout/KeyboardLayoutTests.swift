import KeyboardCore
import Testing

/// Geometry of the host screen and the keyboard for several window sizes.
@Suite("KeyboardLayout")
struct KeyboardLayoutTests {
    static let sizes: [Size] = [
        KeyboardLayout.minimumWindowSize,
        Size(width: 480, height: 800),
        Size(width: 800, height: 600),
        Size(width: 1024, height: 1400),
        Size(width: 320, height: 2000),
        Size(width: 2000, height: 700),
    ]

    static let allKeys: [KeyID] = [.hee, .shift, .backspace, .space] + "abcdefghijklmnopqrstuvwxyz".map { KeyID.letter($0) }

    static func inside(_ inner: Rect, _ outer: Rect) -> Bool {
        inner.minX >= outer.minX && inner.minY >= outer.minY && inner.maxX <= outer.maxX && inner.maxY <= outer.maxY
    }

    @Test func minimumIsSmallEnough() {
        // The 800×600 window the issue asks for must be allowed.
        let minimum = KeyboardLayout.minimumWindowSize
        #expect(minimum.width <= 480 && minimum.height <= 600)
        #expect(minimum.width > 0 && minimum.height > 0)
    }

    @Test(arguments: sizes)
    func windowSizeIsKept(size: Size) {
        #expect(KeyboardLayout(windowSize: size).windowSize == size)
    }

    @Test func sizesBelowMinimumAreLaidOutAsTheMinimum() {
        let minimum = KeyboardLayout.minimumWindowSize
        let small = KeyboardLayout(windowSize: Size(width: 100, height: 100))
        #expect(small.windowSize == minimum)
        #expect(small == KeyboardLayout(windowSize: minimum))
    }

    @Test(arguments: sizes)
    func hasEveryKey(size: Size) {
        let layout = KeyboardLayout(windowSize: size)
        #expect(Set(layout.keys.keys) == Set(Self.allKeys))
        #expect(layout.keys[.hee] == layout.heeFrame)
        #expect(Set(KeyboardLayout.keyOrder) == Set(Self.allKeys))
        #expect(KeyboardLayout.keyOrder.count == Self.allKeys.count)
    }

    @Test(arguments: sizes)
    func noTwoKeysOverlap(size: Size) throws {
        let layout = KeyboardLayout(windowSize: size)
        for (i, a) in Self.allKeys.enumerated() {
            for b in Self.allKeys[(i + 1)...] {
                let ra = try #require(layout.keys[a]), rb = try #require(layout.keys[b])
                #expect(!ra.intersects(rb), "\(a) \(ra) overlaps \(b) \(rb)")
            }
        }
    }

    @Test(arguments: sizes)
    func keysInsideKeyboardAndWindow(size: Size) throws {
        let layout = KeyboardLayout(windowSize: size)
        let window = Rect(x: 0, y: 0, width: size.width, height: size.height)
        for key in Self.allKeys {
            let rect = try #require(layout.keys[key])
            #expect(rect.width > 0 && rect.height > 0)
            #expect(Self.inside(rect, layout.keyboardFrame), "\(key) \(rect) outside keyboard \(layout.keyboardFrame)")
            #expect(Self.inside(rect, window), "\(key) \(rect) outside window")
        }
    }

    @Test(arguments: sizes)
    func keyboardSpansWidthAtBottom(size: Size) {
        let frame = KeyboardLayout(windowSize: size).keyboardFrame
        #expect(frame.minX == 0)
        #expect(frame.width == size.width)
        #expect(isClose(frame.maxY, size.height))
        #expect(frame.height > 0 && frame.minY > 0)
    }

    @Test(arguments: sizes)
    func hostAboveKeyboard(size: Size) {
        let layout = KeyboardLayout(windowSize: size)
        let window = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let host = [layout.titleFrame, layout.listFrame, layout.textField, layout.statusRow, layout.sizeRow,
                    layout.closeKeyboard]
        for rect in host {
            #expect(rect.maxY <= layout.keyboardFrame.minY, "\(rect) reaches into keyboard \(layout.keyboardFrame)")
            #expect(!rect.intersects(layout.keyboardFrame))
            #expect(Self.inside(rect, window))
        }
        // The four list rows, top to bottom, without overlapping (seed 001's List).
        let rows = [layout.textField, layout.statusRow, layout.sizeRow, layout.closeKeyboard]
        for (upper, lower) in zip(rows, rows.dropFirst()) {
            #expect(upper.maxY <= lower.minY)
        }
        #expect(layout.titleFrame.maxY <= layout.textField.minY)
    }

    @Test(arguments: sizes)
    func heeFrameKeepsSeedAspectAndScale(size: Size) {
        let layout = KeyboardLayout(windowSize: size)
        #expect(KeyboardLayout.heeScaleRange.contains(layout.heeScale))
        #expect(isClose(layout.heeFrame.width / layout.heeFrame.height, 170.0 / 180.0))
        #expect(isClose(layout.heeFrame.width, 170 * layout.heeScale))
        #expect(isClose(layout.heeFrame.height, 180 * layout.heeScale))
        // Its 4 pt padding (scaled) stays inside the keyboard too.
        let padded = layout.heeFrame.insetBy(dx: -4 * layout.heeScale, dy: -4 * layout.heeScale)
        #expect(Self.inside(padded, layout.keyboardFrame))
    }

    @Test func heeIsSeedSizeAtReferenceWidthWithRoom() {
        let layout = KeyboardLayout(windowSize: Size(width: 480, height: 1000))
        #expect(layout.heeScale == 1)
        #expect(layout.heeFrame.width == 170 && layout.heeFrame.height == 180)
    }

    @Test(arguments: sizes)
    func centreOfEveryKeyHitsThatKey(size: Size) throws {
        let layout = KeyboardLayout(windowSize: size)
        for key in Self.allKeys {
            let rect = try #require(layout.keys[key])
            #expect(layout.key(at: rect.center) == key)
            // Just inside each corner too.
            for corner in [Point(x: rect.minX + 0.5, y: rect.minY + 0.5), Point(x: rect.maxX - 0.5, y: rect.maxY - 0.5)] {
                #expect(layout.key(at: corner) == key, "\(key) corner \(corner)")
            }
        }
    }

    @Test(arguments: sizes)
    func gapBetweenAdjacentLettersHitsOneOfThem(size: Size) throws {
        let layout = KeyboardLayout(windowSize: size)
        for row in KeyID.letterRows {
            for (l, r) in zip(row, row.dropFirst()) {
                let left = try #require(layout.keys[.letter(l)]), right = try #require(layout.keys[.letter(r)])
                let gap = right.minX - left.maxX
                try #require(gap > 0)
                for y in [left.minY + 1, left.midY, left.maxY - 1] {
                    for fraction in stride(from: 0.0, through: 1.0, by: 0.125) {
                        let point = Point(x: left.maxX + gap * fraction, y: y)
                        let hit = layout.key(at: point)
                        #expect(hit == .letter(l) || hit == .letter(r), "\(point) between \(l) and \(r) hit \(String(describing: hit))")
                    }
                    // The nearer key wins.
                    #expect(layout.key(at: Point(x: left.maxX + gap * 0.25, y: y)) == .letter(l))
                    #expect(layout.key(at: Point(x: right.minX - gap * 0.25, y: y)) == .letter(r))
                }
            }
        }
    }

    @Test(arguments: sizes)
    func gapBetweenLetterRowsHitsOneOfTheTwoKeys(size: Size) throws {
        let layout = KeyboardLayout(windowSize: size)
        var pairs = 0
        for (upperRow, lowerRow) in zip(KeyID.letterRows, KeyID.letterRows.dropFirst()) {
            for upperLetter in upperRow {
                for lowerLetter in lowerRow {
                    let upper = try #require(layout.keys[.letter(upperLetter)])
                    let lower = try #require(layout.keys[.letter(lowerLetter)])
                    // Vertically adjacent: they share a stretch of x.
                    let left = max(upper.minX, lower.minX), right = min(upper.maxX, lower.maxX)
                    guard right > left else { continue }
                    pairs += 1
                    let x = (left + right) / 2
                    let gap = lower.minY - upper.maxY
                    try #require(gap > 0)
                    for fraction in stride(from: 0.0, through: 1.0, by: 0.125) {
                        let point = Point(x: x, y: upper.maxY + gap * fraction)
                        let hit = layout.key(at: point)
                        #expect(hit == .letter(upperLetter) || hit == .letter(lowerLetter),
                                "\(point) between \(upperLetter) and \(lowerLetter) hit \(String(describing: hit))")
                    }
                    #expect(layout.key(at: Point(x: x, y: upper.maxY + gap * 0.25)) == .letter(upperLetter))
                    #expect(layout.key(at: Point(x: x, y: lower.minY - gap * 0.25)) == .letter(lowerLetter))
                }
            }
        }
        // Each of the 9 middle-row keys sits under two top-row keys (half-key offset); the
        // centred bottom row puts each of its 7 keys under one middle-row key.
        #expect(pairs == 9 * 2 + 7)
    }

    @Test(arguments: sizes)
    func heeTouchAreaIncludesItsPadding(size: Size) {
        let layout = KeyboardLayout(windowSize: size)
        let pad = 4 * layout.heeScale
        let hee = layout.heeFrame
        #expect(layout.key(at: Point(x: hee.minX - pad + 0.25, y: hee.midY)) == .hee)
        #expect(layout.key(at: Point(x: hee.maxX + pad - 0.25, y: hee.midY)) == .hee)
        #expect(layout.key(at: Point(x: hee.minX - pad - 0.25, y: hee.midY)) == nil)
    }

    @Test(arguments: sizes)
    func hostPointsHitNoKey(size: Size) {
        let layout = KeyboardLayout(windowSize: size)
        for control in HostControl.allCases {
            let center = layout.frame(of: control).center
            #expect(layout.key(at: center) == nil)
            #expect(layout.hostControl(at: center) == control)
        }
        #expect(layout.key(at: layout.titleFrame.center) == nil)
        #expect(layout.key(at: layout.statusRow.center) == nil)
        #expect(layout.hostControl(at: layout.statusRow.center) == nil)
        #expect(layout.hostControl(at: layout.heeFrame.center) == nil)
        #expect(layout.key(at: Point(x: -1, y: size.height - 10)) == nil)
        #expect(layout.key(at: Point(x: size.width / 2, y: size.height + 1)) == nil)
    }

    @Test(arguments: sizes)
    func keyboardOffsetMovesHitTesting(size: Size) {
        let layout = KeyboardLayout(windowSize: size)
        let center = layout.heeFrame.center
        // Half-way through a slide the button is drawn lower by the offset.
        #expect(layout.key(at: Point(x: center.x, y: center.y + 50), keyboardOffset: 50) == .hee)
        #expect(layout.key(at: center, keyboardOffset: layout.keyboardFrame.height) == nil)
    }

    @Test(arguments: sizes)
    func lettersAreQWERTY(size: Size) throws {
        let layout = KeyboardLayout(windowSize: size)
        var letters: [(Character, Rect)] = []
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            letters.append((letter, try #require(layout.keys[.letter(letter)])))
        }
        let rowTops = Set(letters.map(\.1.minY)).sorted()
        let rows = rowTops.map { top in
            String(letters.filter { $0.1.minY == top }.sorted { $0.1.minX < $1.1.minX }.map(\.0))
        }
        #expect(rows == ["qwertyuiop", "asdfghjkl", "zxcvbnm"])

        let shift = try #require(layout.keys[.shift]), backspace = try #require(layout.keys[.backspace])
        let z = try #require(layout.keys[.letter("z")]), m = try #require(layout.keys[.letter("m")])
        let space = try #require(layout.keys[.space])
        #expect(shift.minY == z.minY && shift.maxX <= z.minX)
        #expect(backspace.minY == m.minY && backspace.minX >= m.maxX)
        #expect(space.minY >= m.maxY)
        let q = try #require(layout.keys[.letter("q")])
        #expect(layout.heeFrame.maxY <= q.minY)
    }

    @Test func minimumWindowIsNonOverlappingAndTight() throws {
        let layout = KeyboardLayout(windowSize: KeyboardLayout.minimumWindowSize)
        #expect(layout.closeKeyboard.maxY <= layout.keyboardFrame.minY)
        #expect(isClose(layout.heeScale, KeyboardLayout.heeScaleRange.lowerBound, tolerance: 0.01))
        // Letter keys stay usable: at least 26 pt wide.
        let q = try #require(layout.keys[.letter("q")])
        #expect(q.width >= 26)
    }
}
