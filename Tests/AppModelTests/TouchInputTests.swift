import AppModel
import KeyboardCore
import Testing

/// Issue 19: one physical input is one action under SDL's touch/mouse hints, and a finger
/// that left the window is off the keys on X11 too.
@Suite("Touch input rules (issue 19)")
struct TouchInputTests {
    @Test func sdlsCopiesAreRecognisedByTheirIDs() {
        // SDL_TOUCH_MOUSEID is (Uint32)-1, SDL_MOUSE_TOUCHID (Sint64)-1 (SDL_touch.h).
        #expect(InputEcho.isMouseFromTouch(which: 0xFFFF_FFFF))
        #expect(!InputEcho.isMouseFromTouch(which: 0))
        #expect(!InputEcho.isMouseFromTouch(which: 1))
        #expect(InputEcho.isFingerFromMouse(touchID: -1))
        // Real touch devices: X11's XInput device ids, Wayland's wl_touch addresses, and a
        // replay file's default 0.
        for device: Int64 in [0, 9, 94_410_574_496_192] {
            #expect(!InputEcho.isFingerFromMouse(touchID: device))
        }
    }

    @Test func fingersInsideTheWindowAreWhereSDLPutsThem() {
        let size = Size(width: 480, height: 800)
        #expect(FingerPlacement.point(x: 0.5, y: 0.25, in: size) == Point(x: 240, y: 200))
        #expect(FingerPlacement.point(x: 0.001, y: 0.999, in: size) == Point(x: 0.48, y: 799.2))
    }

    @Test func fingersOutsideTheWindowStayOutside() {
        // Wayland: SDL reports them beyond 0…1, as they are.
        let size = Size(width: 480, height: 800)
        #expect(FingerPlacement.point(x: -0.1, y: 1.5, in: size) == Point(x: -48, y: 1200))
        #expect(FingerPlacement.point(x: 2, y: -3, in: size) == Point(x: 960, y: -2400))
    }

    @Test func fingersAtTheEdgeAreOutside() {
        // X11: a finger beyond the window arrives at its edge (0 or 1 exactly), where the
        // keys nearest the edges reach.
        let size = Size(width: 468, height: 767)
        #expect(FingerPlacement.point(x: 0, y: 0.84, in: size).x == -FingerPlacement.outside)
        #expect(FingerPlacement.point(x: 1, y: 0.5, in: size).x == 468 + FingerPlacement.outside)
        #expect(FingerPlacement.point(x: 0.3, y: 0, in: size).y == -FingerPlacement.outside)
        #expect(FingerPlacement.point(x: 0.3, y: 1, in: size).y == 767 + FingerPlacement.outside)
        // Off every key of the layout at that size.
        let layout = KeyboardLayout(windowSize: size)
        for (x, y) in [(0.0, 0.84), (1.0, 0.5), (0.5, 1.0), (0.0, 0.98), (1.0, 0.98)] {
            #expect(layout.key(at: FingerPlacement.point(x: x, y: y, in: size)) == nil, "(\(x), \(y))")
        }
    }
}
