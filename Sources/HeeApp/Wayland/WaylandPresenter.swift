import CSDL
import CWayland
import HeeRender

/// Presents frames on Wayland through `wl_shm` buffers attached to SDL's own `wl_surface`.
///
/// SDL 2.26 has no window framebuffer on Wayland: its software renderer cannot present there,
/// and its other renderers go through OpenGL ES (Mesa's llvmpipe on a machine without a GPU:
/// about 110 MB resident). So the frame is drawn by SDL's software renderer into a target
/// texture of the window's size in pixels, copied into a shared-memory buffer of ours, and
/// attached, damaged and committed on the window's surface, as any Wayland client without a
/// GPU does. SDL keeps everything else: the shell surface and its configure events, the
/// surface's buffer scale (`SDL_WINDOW_ALLOW_HIGHDPI`: the frame is drawn at the output's
/// scale, so it is sharp), decorations (server-side, or libdecor's), input and the event loop.
///
/// Our `wl_shm` and buffers live on an event queue of our own, dispatched only here, so no
/// callback of ours ever runs inside SDL's event pump. A buffer is reused once the compositor
/// has released it; a frame that finds every buffer busy gets a new one (at most
/// `maximumBuffers`, two in practice).
final class WaylandPresenter: FramePresenter {
    let renderer: Renderer
    /// How many buffers may exist at once before a frame waits for the compositor.
    static let maximumBuffers = 4

    private let window: Window
    private let display: OpaquePointer
    private let surface: OpaquePointer
    private let queue: OpaquePointer
    private let shm: OpaquePointer
    private let bufferListener: UnsafeMutablePointer<wl_buffer_listener>
    private var buffers: [WaylandShmBuffer] = []
    /// The frame being drawn and last presented, `SDL_GetWindowSizeInPixels` large.
    private var frame: Texture?
    private var shown = false

    /// Binds `wl_shm` on SDL's Wayland connection for `window`.
    /// - Throws: `SDLError` when the window is not a Wayland window, the compositor offers no
    ///   `wl_shm`, or the software renderer cannot be created.
    init(window: Window) throws(SDLError) {
        self.window = window
        var display: OpaquePointer?
        var surface: OpaquePointer?
        guard hee_sdl_wayland_handles(window.pointer, &display, &surface) != 0, let display, let surface else {
            throw SDLError("SDL_GetWindowWMInfo")
        }
        self.display = display
        self.surface = surface
        queue = wl_display_create_queue(display)
        guard let shm = Self.bindShm(display: display, queue: queue) else {
            wl_event_queue_destroy(queue)
            throw SDLError("wl_registry_bind", message: "the Wayland compositor offers no wl_shm")
        }
        self.shm = shm
        bufferListener = .allocate(capacity: 1)
        bufferListener.initialize(to: wl_buffer_listener(release: { data, _ in
            guard let data else { return }
            Unmanaged<WaylandShmBuffer>.fromOpaque(data).takeUnretainedValue().busy = false
        }))
        // The renderer's own target is never shown: frames go into `frame`.
        do {
            renderer = try Renderer(surface: try Surface(width: 1, height: 1))
        } catch {
            bufferListener.deallocate()
            wl_proxy_destroy(shm)
            wl_event_queue_destroy(queue)
            throw error
        }
    }

    deinit {
        frame = nil
        buffers.removeAll()
        wl_proxy_destroy(shm)
        wl_display_flush(display)
        wl_event_queue_destroy(queue)
        bufferListener.deallocate()
    }

    /// Finds the compositor's `wl_shm` (with a registry on `queue`) and binds it there.
    private static func bindShm(display: OpaquePointer, queue: OpaquePointer) -> OpaquePointer? {
        final class Found { var name: UInt32? }
        let found = Found()
        guard let wrapper = wl_proxy_create_wrapper(UnsafeMutableRawPointer(display)) else { return nil }
        defer { wl_proxy_wrapper_destroy(wrapper) }
        wl_proxy_set_queue(OpaquePointer(wrapper), queue)
        guard let registry = wl_display_get_registry(OpaquePointer(wrapper)) else { return nil }
        defer { wl_registry_destroy(registry) }
        var listener = wl_registry_listener(global: { data, _, name, interface, _ in
            guard let data, let interface, String(cString: interface) == "wl_shm" else { return }
            Unmanaged<Found>.fromOpaque(data).takeUnretainedValue().name = name
        }, global_remove: { _, _, _ in })
        return withExtendedLifetime(found) { () -> OpaquePointer? in
            withUnsafePointer(to: &listener) { listener in
                wl_registry_add_listener(registry, listener, Unmanaged.passUnretained(found).toOpaque())
                guard wl_display_roundtrip_queue(display, queue) >= 0, let name = found.name else { return nil }
                return wl_registry_bind(registry, name, hee_wl_shm_interface(), 1).map(OpaquePointer.init)
            }
        }
    }

    func beginFrame() throws(SDLError) -> (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSizeInPixels(window.pointer, &w, &h)
        let width = max(Int(w), 1), height = max(Int(h), 1)
        if frame?.width != width || frame?.height != height {
            try renderer.setTarget(nil)
            frame = nil
            frame = try Texture(renderer: renderer, targetWidth: width, height: height)
        }
        try renderer.setTarget(frame)
        return (width, height)
    }

    func present() throws(SDLError) {
        // Before the window is shown its surface has no role yet: a buffer attached now
        // would be a protocol error. `windowShown` presents this frame.
        guard shown, let frame else { return }
        let buffer = try freeBuffer(width: frame.width, height: frame.height)
        try renderer.readPixels(into: buffer.pixels, pitch: buffer.stride)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
        wl_surface_commit(surface)
        buffer.busy = true
        wl_display_flush(display)
    }

    func windowShown() throws(SDLError) {
        shown = true
        try present()
    }

    /// A buffer of this size the compositor is not reading: a released one, a new one, or,
    /// when `maximumBuffers` are all busy, one released after a round trip.
    private func freeBuffer(width: Int, height: Int) throws(SDLError) -> WaylandShmBuffer {
        for attempt in 0..<3 {
            // Release events that arrived since the last frame.
            if wl_display_dispatch_queue_pending(display, queue) < 0 {
                throw SDLError("wl_display_dispatch_queue_pending", message: "the Wayland connection failed")
            }
            // Buffers of an old size go as soon as the compositor has let go of them.
            buffers.removeAll { !$0.busy && ($0.width != width || $0.height != height) }
            if let free = buffers.first(where: { !$0.busy && $0.width == width && $0.height == height }) {
                return free
            }
            if buffers.count < Self.maximumBuffers || attempt == 2 {
                break
            }
            if wl_display_roundtrip_queue(display, queue) < 0 {
                throw SDLError("wl_display_roundtrip_queue", message: "the Wayland connection failed")
            }
        }
        if buffers.count >= Self.maximumBuffers {
            // A compositor that holds on to every buffer: give up the oldest (it keeps its own
            // mapping of the memory) rather than grow without bound.
            buffers.removeFirst()
        }
        let buffer = try WaylandShmBuffer(shm: shm, width: width, height: height, listener: bufferListener)
        buffers.append(buffer)
        return buffer
    }
}
