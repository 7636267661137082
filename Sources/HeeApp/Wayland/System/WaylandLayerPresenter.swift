import CSDL
import CWayland
import HeeRender

/// Presents frames on the docked keyboard's layer surface (`WaylandLayerSurface`) through
/// `wl_shm` buffers of system mode's own connection: SDL's software renderer draws into a
/// target texture of the surface's size in pixels (its size times the output's scale), which
/// is copied into a shared-memory buffer and attached, as `WaylandPresenter` does on SDL's
/// own surface. A buffer is reused once the compositor has released it (events read by
/// `WaylandConnection.dispatch()`); a frame that finds every buffer busy gets a new one.
final class WaylandLayerPresenter: FramePresenter {
    let renderer: Renderer
    /// How many buffers may exist at once (two in practice).
    static let maximumBuffers = 4

    private let layer: WaylandLayerSurface
    private let shm: OpaquePointer
    private let connection: WaylandConnection
    private let bufferListener: UnsafeMutablePointer<wl_buffer_listener>
    private var buffers: [WaylandShmBuffer] = []
    private var frame: Texture?
    private var shown = false

    /// - Throws: `SDLError` when the software renderer cannot be created.
    init(layer: WaylandLayerSurface, shm: OpaquePointer, connection: WaylandConnection) throws(SDLError) {
        self.layer = layer
        self.shm = shm
        self.connection = connection
        bufferListener = .allocate(capacity: 1)
        bufferListener.initialize(to: wl_buffer_listener(release: { data, _ in
            guard let data else { return }
            Unmanaged<WaylandShmBuffer>.fromOpaque(data).takeUnretainedValue().busy = false
        }))
        do {
            renderer = try Renderer(surface: try Surface(width: 1, height: 1))
        } catch {
            bufferListener.deallocate()
            throw error
        }
    }

    deinit {
        frame = nil
        buffers.removeAll()
        bufferListener.deallocate()
    }

    /// Pixels per window coordinate: the output's scale.
    var pixelsPerWindowCoordinate: Double? { Double(layer.scale) }

    func beginFrame() throws(SDLError) -> (width: Int, height: Int) {
        let width = max(layer.size.width, 1) * Int(layer.scale), height = max(layer.size.height, 1) * Int(layer.scale)
        if frame?.width != width || frame?.height != height {
            try renderer.setTarget(nil)
            frame = nil
            frame = try Texture(renderer: renderer, targetWidth: width, height: height)
        }
        try renderer.setTarget(frame)
        return (width, height)
    }

    func present() throws(SDLError) {
        // Before the first configure a buffer would be a protocol error.
        guard shown, layer.size.width > 0, let frame else { return }
        let buffer = try freeBuffer(width: frame.width, height: frame.height)
        try renderer.readPixels(into: buffer.pixels, pitch: buffer.stride)
        LatencyProbe.mark("copied")
        layer.attach(buffer)
        buffer.busy = true
        connection.flush()
    }

    func windowShown() throws(SDLError) {
        shown = true
        try present()
    }

    /// A buffer of this size the compositor is not reading.
    private func freeBuffer(width: Int, height: Int) throws(SDLError) -> WaylandShmBuffer {
        buffers.removeAll { !$0.busy && ($0.width != width || $0.height != height) }
        if let free = buffers.first(where: { !$0.busy && $0.width == width && $0.height == height }) { return free }
        if buffers.count >= Self.maximumBuffers {
            // Releases that arrived meanwhile are read on the next wake-up; rather than wait,
            // give up the oldest (the compositor keeps its own mapping).
            buffers.removeFirst()
        }
        let buffer = try WaylandShmBuffer(shm: shm, width: width, height: height, listener: bufferListener)
        buffers.append(buffer)
        return buffer
    }
}
