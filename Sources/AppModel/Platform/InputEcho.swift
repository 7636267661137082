/// SDL makes an input twice when its hints ask it to: mouse events from every touch
/// (`SDL_TOUCH_MOUSE_EVENTS`, on by default) and finger events from the mouse
/// (`SDL_MOUSE_TOUCH_EVENTS`, off by default). One physical input is one action, whatever the
/// user's environment sets: the copies are recognised by the ids SDL gives them and dropped.
/// (A copy handled as well would be a second pointer on the same key: with iOS rollover, a
/// click would type its letter twice.)
public enum InputEcho {
    /// `SDL_TOUCH_MOUSEID`: the `which` of mouse events SDL makes from touches.
    public static let touchMouseID = UInt32.max
    /// `SDL_MOUSE_TOUCHID`: the touch device id of finger events SDL makes from the mouse.
    public static let mouseTouchID: Int64 = -1

    /// Whether a mouse event with this `which` is SDL's copy of a touch.
    public static func isMouseFromTouch(which: UInt32) -> Bool { which == touchMouseID }

    /// Whether a finger event of this touch device is SDL's copy of the mouse.
    public static func isFingerFromMouse(touchID: Int64) -> Bool { touchID == mouseTouchID }
}
