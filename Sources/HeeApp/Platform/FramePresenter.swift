import CSDL
import HeeRender

/// Where the app draws its frames and how they reach the screen.
///
/// Two kinds exist: `WindowPresenter`, SDL's software renderer on the window (X11 presents
/// it through a shared-memory image), and `WaylandPresenter`, the same software renderer
/// drawing into a frame texture that is copied into `wl_shm` buffers of our own (SDL 2.26 has
/// no window framebuffer on Wayland). Either way every pixel is drawn on the CPU by the same
/// code, so both look the same.
protocol FramePresenter: AnyObject {
    /// The renderer everything is drawn with.
    var renderer: Renderer { get }
    /// Prepares the next frame and makes it the renderer's target.
    /// - Returns: the frame's size in pixels (the window's size times the display's scale).
    /// - Throws: `SDLError` when the frame cannot be prepared.
    func beginFrame() throws(SDLError) -> (width: Int, height: Int)
    /// Puts what was drawn since `beginFrame` on the screen.
    /// - Throws: `SDLError` when the frame cannot be handed to the display server.
    func present() throws(SDLError)
    /// Tells the presenter the window has just been shown (mapped), so a frame drawn before
    /// can go on the screen now.
    /// - Throws: `SDLError` when the frame cannot be handed to the display server.
    func windowShown() throws(SDLError)
    /// Pixels per window coordinate when the presenter knows it better than SDL's window
    /// (Wayland system mode's layer surface: its output's scale; SDL's window is never
    /// shown), else `nil`.
    var pixelsPerWindowCoordinate: Double? { get }
    /// Whether the target `beginFrame` made current still holds the last frame drawn into
    /// it, so a frame may redraw only what changed (`SceneRenderer.drawChanges`).
    var keepsFrame: Bool { get }
    /// Puts the frame on the screen when only `damage` (pixels) changed since the last
    /// one (`nil`: all of it; empty: nothing, and nothing is sent).
    /// - Throws: `SDLError` when the frame cannot be handed to the display server.
    func present(damage: [PixelRect]?) throws(SDLError)
}

extension FramePresenter {
    var pixelsPerWindowCoordinate: Double? { nil }
    var keepsFrame: Bool { false }
    func present(damage: [PixelRect]?) throws(SDLError) { try present() }
}
