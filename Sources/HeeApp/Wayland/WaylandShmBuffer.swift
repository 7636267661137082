#if canImport(Glibc)
import Glibc
#endif
import CWayland
import HeeRender

/// One `wl_buffer` in shared memory (`wl_shm`, XRGB8888) that a frame is copied into and the
/// compositor reads from. Destroys the buffer and unmaps its memory in `deinit`.
final class WaylandShmBuffer {
    /// The `wl_buffer *`, attached to the window's surface to show the frame.
    let buffer: OpaquePointer
    /// The first pixel; rows are `stride` bytes apart.
    let pixels: UnsafeMutableRawPointer
    /// Size in pixels.
    let width: Int
    let height: Int
    /// Bytes from one row to the next.
    let stride: Int
    private let byteCount: Int
    /// Whether the compositor may still read it: set when attached, cleared by
    /// `wl_buffer.release`.
    var busy = false
    /// The number of the frame it holds (see `WaylandLayerPresenter`), `nil` before the first.
    var frame: Int?

    /// A `width` × `height` buffer from `shm` (a `wl_shm`), whose release events go to
    /// `listener` with the buffer object as data.
    /// - Throws: `SDLError` when the shared memory cannot be created or mapped.
    init(shm: OpaquePointer, width: Int, height: Int, listener: UnsafePointer<wl_buffer_listener>) throws(SDLError) {
        self.width = width
        self.height = height
        stride = width * 4
        byteCount = stride * height
        let fd = hee_shm_file_create(byteCount)
        guard fd >= 0 else {
            throw SDLError("memfd_create", message: "cannot create \(byteCount) bytes of shared memory: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw SDLError("mmap", message: "cannot map the frame buffer: \(String(cString: strerror(errno)))")
        }
        pixels = mapped
        let pool = wl_shm_create_pool(shm, fd, Int32(byteCount))
        buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                           WL_SHM_FORMAT_XRGB8888.rawValue)
        // The buffer keeps the pool's memory; the pool object itself is no longer needed.
        wl_shm_pool_destroy(pool)
        wl_buffer_add_listener(buffer, listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        wl_buffer_destroy(buffer)
        munmap(pixels, byteCount)
    }
}
