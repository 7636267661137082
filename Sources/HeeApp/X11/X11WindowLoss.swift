#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CX11
import Synchronization

/// Ending the app cleanly (status 0, settings saved) when another X client destroys its
/// window (`xdotool windowclose`, which calls `XDestroyWindow`) or the X connection goes away
/// (`xkill`, the X server ending).
///
/// Xlib's default handlers print the error and call `exit(1)`: the app would die in the
/// middle of an SDL call, without saving. So the app installs its own:
///
/// - an **error handler** that never exits: an error about the app's own window (it was
///   destroyed, so later requests on it fail with BadWindow/BadDrawable) marks the window as
///   lost and the loop quits; any other error is reported once per kind on stderr and the app
///   carries on;
/// - an **I/O error handler** (the connection is gone; Xlib does not allow it to return):
///   it saves the settings from `SettingsSnapshot`, says so in one line and ends the process
///   with status 0.
///
/// The window's `DestroyNotify` (SDL passes X events on as `SDL_SYSWMEVENT` when asked) ends
/// the loop too, so a destroyed window is noticed even while nothing draws.
///
/// Facts from SDL 2.26's X11 driver (`src/video/x11`): `X11_CreateDevice` (in `SDL_Init`)
/// saves the error handler it finds and installs a "safety net" that calls it; SDL's
/// temporary handlers (window creation, XShm, XRandR) put back whatever was installed
/// before them; `X11_DeleteDevice` (in `SDL_Quit`) restores the saved handler before
/// `XCloseDisplay`. SDL never sets an I/O error handler. So the handlers are installed before
/// `SDL_Init`: SDL's safety net then calls ours, and ours is back in place for the errors
/// that `XCloseDisplay` flushes out at the end.
enum X11WindowLoss {
    /// Installs both handlers (before `SDL_Init`; see above). Only process-wide pointers in
    /// libX11 are set: nothing is sent to any X server.
    static func installHandlers() {
        XSetErrorHandler(x11ErrorHandler)
        XSetIOErrorHandler(x11ConnectionLostHandler)
    }

    /// Puts Xlib's defaults back, when SDL did not pick its X11 video driver (Wayland,
    /// offscreen): the app then has no X connection of its own to look after.
    static func removeHandlers() {
        XSetErrorHandler(nil)
        XSetIOErrorHandler(nil)
    }

    /// Starts watching the app's window: its id marks the errors that mean it is gone, and
    /// SDL is asked to pass X events on (`SDL_SYSWMEVENT`) so its `DestroyNotify` is seen.
    static func watch(_ window: X11WindowHandles) {
        watchedWindow.store(UInt(window.window), ordering: .relaxed)
        _ = SDL_EventState(SDL_SYSWMEVENT.rawValue, SDL_ENABLE)
    }

    /// Whether `event` is the `DestroyNotify` of the watched window.
    static func isWindowDestroyed(by event: SDL_Event) -> Bool {
        guard SDL_EventType(event.type) == SDL_SYSWMEVENT, let message = event.syswm.msg,
              message.pointee.subsystem == SDL_SYSWM_X11 else { return false }
        let xevent = message.pointee.msg.x11.event
        let watched = watchedWindow.load(ordering: .relaxed)
        return xevent.type == HEE_X11_DESTROY_NOTIFY && watched != 0 && UInt(xevent.xdestroywindow.window) == watched
    }

    /// Whether an X error said the watched window no longer exists.
    static var windowLost: Bool { windowGone.load(ordering: .relaxed) }
}

/// The app's X window id (0: not watching).
private let watchedWindow = Atomic<UInt>(0)
/// Set by the error handler when a request on the app's window failed because it is gone.
private let windowGone = Atomic<Bool>(false)
/// The error kinds (error code, request code) already reported on stderr.
private let reportedErrors = Mutex<Set<UInt16>>([])

/// Xlib's error handler (called on the thread whose request failed, with the display
/// unlocked; it must not send requests). Never exits.
private func x11ErrorHandler(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    guard let event = event?.pointee else { return 0 }
    let watched = watchedWindow.load(ordering: .relaxed)
    if watched != 0 && UInt(event.resourceid) == watched
        && (event.error_code == HEE_X11_BAD_WINDOW || event.error_code == HEE_X11_BAD_DRAWABLE) {
        windowGone.store(true, ordering: .relaxed)
        return 0
    }
    let kind = UInt16(event.error_code) << 8 | UInt16(event.request_code)
    let isNew = reportedErrors.withLock { $0.insert(kind).inserted }
    if isNew {
        var text = [CChar](repeating: 0, count: 160)
        XGetErrorText(display, Int32(event.error_code), &text, Int32(text.count))
        let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        Console.error("\(Console.program): warning: X error \(message) (request \(event.request_code).\(event.minor_code)); continuing")
    }
    return 0
}

/// Xlib's I/O error handler: the X connection is gone (server ended, `xkill`). Xlib exits
/// after it returns, so it saves the settings and ends the process itself, status 0.
private func x11ConnectionLostHandler(_ display: OpaquePointer?) -> Int32 {
    SettingsSnapshot.saveOnce()
    Console.error("\(Console.program): the connection to the X server was closed; settings saved, quitting")
    _exit(0)
}
