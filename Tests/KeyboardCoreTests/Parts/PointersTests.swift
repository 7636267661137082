import KeyboardCore
import Testing

/// The `Pointers` part alone: what each pointer holds, rollover's order, where a slide takes a
/// press, layer returns and the held key's repeat, and the revision of what is drawn.
@Suite("Pointers (part)")
struct PointersTests {
    static let definition = LayoutDefinition.english
    static func actsOnTouchDown(_ key: KeyID) -> Bool { definition.action(of: key).actsOnTouchDown }
    static func isLayerKey(_ key: KeyID) -> Bool {
        if case .showLayer = definition.action(of: key) { true } else { false }
    }

    @Test func pressedKeysAndTheHostControlComeFromTheTargets() {
        var pointers = Pointers()
        pointers.set(.mouse, to: .key("a"))
        pointers.set(.finger(2), to: .key("a"))
        pointers.set(.finger(3), to: .key(nil))
        pointers.set(.finger(4), to: .host(.volumeUp))
        #expect(pointers.pressedKeys == ["a"])
        #expect(pointers.pressedHostControl == .volumeUp)
        #expect(pointers[.finger(3)] == .key(nil))
        pointers.letGo(.mouse)
        #expect(pointers.pressedKeys == ["a"], "another finger still holds it")
        pointers.removeFingers()
        #expect(pointers.targets == [.mouse: .none])
        pointers.removeAll()
        #expect(pointers.targets.isEmpty)
    }

    @Test func ofTwoHostControlsHeldTheFirstPointersIsDrawn() {
        var pointers = Pointers()
        pointers.set(.finger(5), to: .host(.volumeUp))
        pointers.set(.finger(2), to: .host(.resetCount))
        #expect(pointers.pressedHostControl == .resetCount)
        pointers.set(.mouse, to: .host(.closeKeyboard))
        #expect(pointers.pressedHostControl == .closeKeyboard)
        pointers.set(.mouse, to: nil)
        pointers.set(.finger(2), to: .key("a"))
        #expect(pointers.pressedHostControl == .volumeUp)
    }

    @Test func rolloverCommitsPressesThatTypeOnReleaseInPointerOrder() {
        var pointers = Pointers()
        pointers.set(.finger(9), to: .key("b"))
        pointers.set(.finger(2), to: .key(nil))
        pointers.set(.mouse, to: .key("c"))
        pointers.set(.finger(5), to: .key(.shift))
        pointers.set(.finger(6), to: .host(.textField))
        let presses = pointers.rolloverPresses(actsOnTouchDown: Self.actsOnTouchDown)
        #expect(presses.map(\.pointer) == [.mouse, .finger(2), .finger(9)])
        #expect(presses.map(\.key) == ["c", nil, "b"])
    }

    @Test func aSlideFollowsTheFingerUnlessThePressActsOnTouchDown() throws {
        let slide = { (held: KeyID?, under: KeyID?) in
            Pointers.slide(from: held, over: under, actsOnTouchDown: Self.actsOnTouchDown, isLayerKey: Self.isLayerKey)
        }
        let toS = try #require(slide("a", "s"))
        #expect(toS.next == "s" && !toS.rollover)
        let off = try #require(slide("a", nil))
        #expect(off.next == nil, "off the keys: cancelled")
        let ontoShift = try #require(slide("a", .shift))
        #expect(ontoShift.next == nil, "shift does not take a slide")
        #expect(slide(.hee, "a") == nil, "the へぇ button keeps its press")
        #expect(slide(.backspace, nil) == nil)
        let stays = try #require(slide("123", nil))
        #expect(stays.next == "123" && !stays.rollover, "a layer key's press stays until it reaches a key that types")
        let fromLayer = try #require(slide("123", "1"))
        #expect(fromLayer.next == "1" && fromLayer.rollover, "like touching the key: others commit first")
    }

    @Test func layerReturnsAreTakenOnce() {
        var pointers = Pointers()
        pointers.setLayerReturn("letters", for: .finger(1))
        pointers.setLayerReturn("numbers", for: .finger(2))
        #expect(pointers.takeLayerReturn(of: .finger(1)) == "letters")
        #expect(pointers.takeLayerReturn(of: .finger(1)) == nil)
        pointers.forgetLayerReturn(of: .finger(2))
        #expect(pointers.layerReturns.isEmpty)
        pointers.setLayerReturn("letters", for: .finger(3))
        pointers.letGo(.finger(3))
        #expect(pointers.layerReturns.isEmpty, "a press let go returns to no layer")
    }

    @Test func aRepeatStartsAfterTheDelayAndStopsWithItsKey() throws {
        var pointers = Pointers()
        pointers.startRepeat(.backspace, at: ms(1_000), modifiers: .control)
        let started = try #require(pointers.keyRepeat)
        #expect(started.nextFire == ms(1_500) && started.modifiers == .control && !started.isIdle)
        pointers.stopRepeat(of: "left")
        #expect(pointers.keyRepeat != nil, "another key's release")
        pointers.stopRepeat(of: .backspace)
        #expect(pointers.keyRepeat == nil)

        pointers.startRepeat(.backspace, at: .zero, modifiers: [])
        pointers.resumeIdleRepeat(fieldRevisions: TextBuffer().revisions, at: ms(3_000))
        #expect(pointers.keyRepeat?.nextFire == ms(500), "not idle: nothing to resume")
    }

    @Test func theRevisionCountsPressedKeysAndHostControlsOnly() {
        var pointers = Pointers()
        var last = pointers.revision
        func changed() -> Bool { defer { last = pointers.revision }; return pointers.revision != last }
        pointers.set(.mouse, to: .none)
        #expect(!changed(), "holding nothing is not drawn")
        pointers.set(.mouse, to: .candidate(2))
        #expect(!changed())
        pointers.set(.mouse, to: .key("q"))
        #expect(changed())
        pointers.set(.finger(1), to: .key("q"))
        #expect(!changed(), "q is already drawn pressed")
        pointers.set(.mouse, to: .host(.resetCount))
        #expect(changed(), "the reset button is drawn held (q still is, by the finger)")
        pointers.set(.finger(1), to: nil)
        #expect(changed())
        pointers.startRepeat(.backspace, at: .zero, modifiers: [])
        pointers.setLayerReturn("letters", for: .mouse)
        #expect(!changed(), "repeats and layer returns are not drawn")
    }
}
