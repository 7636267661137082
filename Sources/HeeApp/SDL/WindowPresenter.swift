import CSDL
import HeeRender

/// SDL's software renderer on the window: X11 (and every driver with a window framebuffer)
/// shows its frames through `SDL_RenderPresent`.
final class WindowPresenter: FramePresenter {
    let renderer: Renderer

    /// - Throws: `SDLError` from `SDL_CreateRenderer`.
    init(window: Window) throws(SDLError) {
        renderer = try Renderer(window: window.pointer, flags: SDL_RENDERER_SOFTWARE.rawValue)
    }

    func beginFrame() throws(SDLError) -> (width: Int, height: Int) { try renderer.outputSize() }

    func present() throws(SDLError) { renderer.present() }

    func windowShown() throws(SDLError) {}
}
