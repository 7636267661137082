import AppModel
import CSDL
import CWaylandProtocols
import HeeRender
import KeyboardCore

/// System mode on a Wayland compositor that offers the wlroots layer shell and
/// `zwp_virtual_keyboard_v1` (sway, Hyprland, river, labwc, wayfire, phoc): the keyboard
/// docked along the bottom of the output (`WaylandLayerSurface`, drawn by
/// `WaylandLayerPresenter`), its pointer and touch input pushed into SDL's queue as SDL
/// events (`WaylandSeatInput`), keys typed through the input method or the virtual keyboard
/// (`WaylandKeystrokeSender`). All of it on a connection of its own (`WaylandConnection`);
/// SDL keeps its own connection, an event loop and a window that is never shown (its id is
/// what the pushed events carry, its size follows the layer surface's).
final class WaylandSystemMode: SystemModePlatform {
    /// The globals system mode needs, by interface name and the version it binds.
    static let required: [(String, UInt32)] = [("wl_compositor", 4), ("wl_shm", 1), ("wl_seat", 5),
                                                ("zwlr_layer_shell_v1", 4), ("zwp_virtual_keyboard_manager_v1", 1)]

    /// Connects to the compositor and checks it offers what system mode needs.
    /// - Returns: the connection, or the reason (one line) it cannot be used.
    static func connect() -> Result<WaylandConnection, KeySendFailure> {
        guard let connection = WaylandConnection() else {
            return .failure(KeySendFailure(description: "cannot connect to the Wayland compositor"))
        }
        let missing = required.map(\.0).filter { !connection.offers($0) }
        guard missing.isEmpty else {
            return .failure(KeySendFailure(description: "the compositor lacks \(missing.joined(separator: ", "))"))
        }
        return .success(connection)
    }

    private let connection: WaylandConnection
    private let window: Window
    private let compositor: WaylandObject
    private let shm: WaylandObject
    private let seat: WaylandObject
    private let layerShell: WaylandObject
    private let keyboardManager: WaylandObject
    private let inputMethodManager: WaylandObject?
    let layer: WaylandLayerSurface
    private let input: WaylandSeatInput
    private let sender: WaylandKeystrokeSender
    /// Draws into the layer surface.
    let presenter: WaylandLayerPresenter
    private var toldUnavailable = false
    /// The focused field's context, from the input method (issue 30).
    private var contextSource: WaylandContextSource!
    /// The loop's wait (SDL's and this connection's events together).
    private var waiter: WaylandEventWaiter?

    /// Docks a keyboard `height` window coordinates tall (`floating`: without an exclusive
    /// zone) on `connection`, for SDL's (hidden) `window`, and waits for the compositor's
    /// first configure, so `window` has the surface's size when this returns. `readyText`
    /// (the へぇ button's) has keys in the first keymap sent.
    /// - Throws: `KeySendFailure` when a global cannot be bound or the surface is refused.
    ///   (The virtual keyboard and its keymap are made after the first frame: `windowShown`.)
    init(connection: WaylandConnection, window: Window, height: Int, floating: Bool, readyText: String) throws(KeySendFailure) {
        self.connection = connection
        self.window = window
        func bind(_ interface: UnsafePointer<wl_interface>, _ version: UInt32) throws(KeySendFailure) -> WaylandObject {
            guard let object = connection.bind(interface, version: version) else {
                throw KeySendFailure(description: "cannot bind \(String(cString: interface.pointee.name))")
            }
            return object
        }
        compositor = try bind(hee_wl_compositor(), 4)
        shm = try bind(hee_wl_shm(), 1)
        seat = try bind(hee_wl_seat(), 5)
        layerShell = try bind(hee_zwlr_layer_shell_v1(), 4)
        keyboardManager = try bind(hee_zwp_virtual_keyboard_manager_v1(), 1)
        inputMethodManager = connection.bind(hee_zwp_input_method_manager_v2(), version: 1)
        guard let layer = WaylandLayerSurface(connection: connection, compositor: compositor, layerShell: layerShell,
                                              height: height, floating: floating,
                                              placement: ShellPlacement.forDesktop(FileSystem.environment,
                                                                                   appID: SDLContext.waylandAppID)) else {
            throw KeySendFailure(description: "the compositor did not make a layer surface")
        }
        self.layer = layer
        input = WaylandSeatInput(seat: seat, surface: layer.surface.proxy, windowID: window.id)
        // The virtual keyboard joins the seat now, before the first frame (the compositor
        // re-enters the focused window for it); the input method after it.
        sender = WaylandKeystrokeSender(connection: connection, seat: seat, keyboardManager: keyboardManager,
                                        inputMethodManager: inputMethodManager, readyText: readyText,
                                        joinedAt: .milliseconds(Int64(SDL_GetTicks64())))
        // The seat's keymaps for the whole run: the one it has now, the one the compositor
        // gives our keyboard, and every later change (see WaylandKeystrokeSender).
        input.onKeymap = { [unowned sender] in sender.seatKeymapChanged($0) }
        connection.roundtrip()  // capabilities, the first configure, outputs
        connection.roundtrip()  // the keyboard's keymap
        do throws(SDLError) {
            presenter = try WaylandLayerPresenter(layer: layer, shm: shm.proxy, connection: connection)
        } catch {
            throw KeySendFailure(description: "\(error)")
        }
        layer.onChange = { [unowned self] in surfaceChanged() }
        layer.onClosed = {
            Console.error("\(Console.program): --system: the compositor closed the keyboard's surface")
            var quit = SDL_Event()
            quit.type = SDL_QUIT.rawValue
            SDL_PushEvent(&quit)
        }
        contextSource = WaylandContextSource(inputMethod: sender.inputMethod) { [unowned connection] in connection.isWakeUp($0) }
        sender.inputMethod?.onChange = { [unowned self] in
            inputMethodChanged()
            contextSource.inputMethodDone()
        }
        sender.inputMethod?.onDone = { [unowned self] in
            sender.inputMethodDone()
            contextSource.inputMethodDone()
        }
        inputMethodChanged()  // made with the sender: `unavailable` may have come already
        connection.roundtrip()  // the input method's state
        guard layer.size.width > 0 else { throw KeySendFailure(description: "the compositor did not configure the layer surface") }
        SDL_SetWindowSize(window.pointer, Int32(layer.size.width), Int32(layer.size.height))
        input.surfaceSize = (Double(layer.size.width), Double(layer.size.height))
        connection.startEventThread()
        waiter = WaylandEventWaiter(window: window, connection: connection)
    }

    /// The layer surface has a new size or scale: SDL's window takes the size, and the loop
    /// hears it as SDL's own resize (a new layout, a frame at the new scale).
    private func surfaceChanged() {
        let (width, height) = layer.size
        guard width > 0 else { return }
        SDL_SetWindowSize(window.pointer, Int32(width), Int32(height))
        input.surfaceSize = (Double(width), Double(height))
        var event = SDL_Event()
        event.window.type = SDL_WINDOWEVENT.rawValue
        event.window.event = UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue)
        event.window.windowID = window.id
        event.window.data1 = Int32(width)
        event.window.data2 = Int32(height)
        SDL_PushEvent(&event)
    }

    private func inputMethodChanged() {
        guard let inputMethod = sender.inputMethod, inputMethod.isUnavailable, !toldUnavailable else { return }
        toldUnavailable = true
        Console.error("\(Console.program): --system: another input method has the seat; "
                      + "every key goes through the virtual keyboard")
    }

    var keySender: any KeySender { sender }

    /// Where another thread of ours writes a byte to wake the loop (`SessionBusService`).
    var wakeWriteFD: Int32? { connection.wakeWriteFD }

    /// What the input method says of the focused field.
    var textContextSource: (any TextContextSource)? { contextSource }

    /// Whether the compositor tells which field has the focus: an input method of our own on
    /// the seat (auto-show's condition, issue 30).
    var tellsFocusedField: Bool { contextSource.unavailableReason == nil }

    /// Maps the layer surface (`shown`) or unmaps it: hidden, its exclusive zone goes back to
    /// the other windows and no frame is drawn; shown, the next frame after its configure
    /// goes to the screen whole.
    func setKeyboardShown(_ shown: Bool) {
        if shown {
            guard !layer.isMapped else { return }
            presenter.surfaceRemapped()
            layer.map()
        } else {
            layer.unmap()
        }
        connection.flush()
    }

    /// The longest a frame waits for keystrokes to reach the compositor.
    static let frameHoldLimit: Duration = .milliseconds(20)

    /// Frames wait while keystrokes just sent have not been handled by the compositor: the
    /// keystroke goes first. Drawn and committed at once, the frame (0.1–0.5 ms, then the
    /// compositor taking the buffer) ran beside sway delivering the key and foot writing it,
    /// on the same 2 cores: a letter's release → text in foot was 1.04 ms at the median
    /// with frames, 0.55 ms without (sway headless, load 2–3).
    var frameHoldDeadline: Duration? { sender.inFlightSince.map { $0 + Self.frameHoldLimit } }
    var eventWaiter: (any EventWaiter)? { waiter }
    var focusWatcher: any FocusWatcher { self }

    /// The layer surface is shown with the first frame (`WaylandLayerPresenter.windowShown`);
    /// SDL's window stays hidden.
    func showWindow() {}

    /// The first frame has gone to the compositor: the virtual keyboard's keymap is made now
    /// (see `WaylandKeystrokeSender`). A keymap that cannot be made is said once on stderr; every
    /// keystroke's trace line then says it too.
    func windowShown() {
        do throws(KeySendFailure) {
            try sender.start()
        } catch {
            Console.error("\(Console.program): --system: \(error); keys are not sent")
        }
    }

    /// Reads and dispatches the connection's events when `event` is its wake-up; returns
    /// whether the input method's state changed. A failed connection ends the run (one
    /// line on stderr saying why).
    func handle(_ event: UnsafePointer<SDL_Event>, at now: Duration) -> Bool {
        guard connection.isWakeUp(event) else { return false }
        sender.now = max(sender.now, now)
        let before = inputMethodState
        if !connection.dispatch() { connectionFailed() }
        return inputMethodState != before
    }

    /// Says why the connection failed and quits.
    private func connectionFailed() {
        Console.error("\(Console.program): --system: the Wayland connection failed: \(connection.failure)")
        var quit = SDL_Event()
        quit.type = SDL_QUIT.rawValue
        SDL_PushEvent(&quit)
    }
}

/// Where keys go, as far as the compositor tells: the focused surface, with or without a
/// text input active.
extension WaylandSystemMode: FocusWatcher {
    var keyTarget: KeyTarget {
        guard let inputMethod = sender.inputMethod, !inputMethod.isUnavailable else { return .focusedSurface(textInput: nil) }
        return .focusedSurface(textInput: inputMethod.isActive)
    }

    /// The compositor does not say which window has the focus.
    var focusedWindow: FocusedWindow? { nil }

    /// `active`, `inactive`, or `unavailable` (no input method for us).
    var inputMethodState: String? {
        guard let inputMethod = sender.inputMethod, !inputMethod.isUnavailable else { return "unavailable" }
        return inputMethod.isActive ? "active" : "inactive"
    }
}

extension WaylandSystemMode {
    /// Whether this is a Wayland session to try native system mode in: a compositor named
    /// (`WAYLAND_DISPLAY`, or the default `wayland-0` with `XDG_SESSION_TYPE=wayland`) and
    /// `SDL_VIDEODRIVER` not asking for X11 alone.
    static func sessionOffersWayland(_ environment: [String: String]) -> Bool {
        if let driver = environment["SDL_VIDEODRIVER"], !driver.isEmpty, !driver.lowercased().contains("wayland") { return false }
        guard environment["XDG_RUNTIME_DIR"].map({ !$0.isEmpty }) == true else { return false }
        return !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }
}
