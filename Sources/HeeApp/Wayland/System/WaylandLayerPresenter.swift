import CSDL
import CWayland
import HeeRender

/// Presents frames on the docked keyboard's layer surface (`WaylandLayerSurface`) through
/// `wl_shm` buffers of system mode's own connection: SDL's software renderer draws into a
/// target texture of the surface's size in pixels (its size times the output's scale), which
/// is copied into a shared-memory buffer and attached, as `WaylandPresenter` does on SDL's
/// own surface. A buffer is reused once the compositor has released it (events read by
/// `WaylandConnection.dispatch()`); a frame that finds every buffer busy gets a new one.
///
/// The frame texture keeps its pixels from frame to frame (`keepsFrame`), so a frame draws
/// only what changed (`SceneRenderer.drawChanges`). A buffer is brought up to date by
/// copying what changed since the frame it holds (each buffer knows its frame's number;
/// the last `damageHistory` frames' changes are kept), and the compositor is told only this
/// frame's changes (`wl_surface.damage_buffer`).
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
    /// Whether `frame` holds the last frame drawn (false once it is made anew).
    private var frameKept = false
    /// The number of the last frame presented.
    private var frameNumber = 0
    /// The changes (pixels; `nil`: everything) of the last frames presented, newest last.
    private var recentDamage: [(frame: Int, rects: [PixelRect]?)] = []
    /// Whether a frame drawn since the last one presented was not presented.
    private var changedUnsent = false
    /// How many frames' changes are kept.
    static let damageHistory = 8

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
            frameKept = false
        }
        try renderer.setTarget(frame)
        return (width, height)
    }

    var keepsFrame: Bool { frameKept }

    func present() throws(SDLError) { try present(damage: nil) }

    func present(damage: [PixelRect]?) throws(SDLError) {
        frameKept = frame != nil
        // Before the first configure a buffer would be a protocol error. What changed
        // meanwhile goes with the next frame presented: all of it.
        guard shown, layer.isConfigured, layer.size.width > 0, let frame else {
            if damage?.isEmpty != true { changedUnsent = true }
            return
        }
        if let damage, damage.isEmpty, frameNumber > 0, !changedUnsent { return }
        let damage = changedUnsent ? nil : damage
        changedUnsent = false
        frameNumber += 1
        recentDamage.append((frameNumber, damage))
        if recentDamage.count > Self.damageHistory { recentDamage.removeFirst() }
        let buffer = try freeBuffer(width: frame.width, height: frame.height)
        if let missing = buffer.frame.flatMap(changes(since:)) {
            for r in missing {
                try renderer.readPixels(in: r, into: buffer.pixels + r.y * buffer.stride + r.x * 4, pitch: buffer.stride)
            }
        } else {
            try renderer.readPixels(into: buffer.pixels, pitch: buffer.stride)
        }
        LatencyProbe.mark("copied")
        buffer.frame = frameNumber
        layer.attach(buffer, damage: damage)
        buffer.busy = true
        connection.flush()
    }

    /// What changed after frame `held` up to the last one presented, or `nil` when that is
    /// not known (too old, or a frame changed everything).
    private func changes(since held: Int) -> [PixelRect]? {
        guard let first = recentDamage.first, first.frame <= held + 1 else { return nil }
        var rects: [PixelRect] = []
        for entry in recentDamage where entry.frame > held {
            guard let changed = entry.rects else { return nil }
            rects += changed
        }
        return rects
    }

    /// The layer surface is mapped again (auto-show): its next frame is sent whole.
    func surfaceRemapped() { changedUnsent = true }

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
