#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CWayland
import AppModel
import KeyboardCore

/// Keeps OpenGL out of our Wayland window.
///
/// SDL 2.26 gives every Wayland window an EGL surface unless it is created for Vulkan
/// (`Wayland_CreateWindow` forces `SDL_WINDOW_OPENGL`; libsdl-org/SDL#7875, fixed in SDL
/// 2.30). Loading EGL loads Mesa and LLVM: about 50 MB resident and 60–90 ms of start-up
/// for a surface we never draw on with OpenGL (`WaylandPresenter` presents through wl_shm).
/// Created with `SDL_WINDOW_VULKAN`, the window is a bare `wl_surface`; SDL then only asks
/// the Vulkan loader whether it offers the Wayland surface extensions, and
/// `libHeeVulkanStub.so` answers that (see its `vulkan_stub.c`). If the stub is missing the
/// window is made the ordinary way: it works, with Mesa loaded.
enum WaylandBareWindow {
    /// The stub's file name, beside the binary in the build tree and in
    /// `<prefix>/lib/hee-keyboard/` when installed.
    static let stubFileName = "libHeeVulkanStub.so"

    /// Where the stub is looked for, in order.
    static func stubCandidates(executablePath: String) -> [String] {
        let bin = AssetLocator.parentDirectory(of: executablePath)
        let prefix = AssetLocator.parentDirectory(of: bin)
        return [AssetLocator.join(bin, stubFileName),
                AssetLocator.join(AssetLocator.join(prefix, "lib/hee-keyboard"), stubFileName)]
    }

    /// Whether the running SDL needs the workaround (2.26 to 2.29).
    static var sdlForcesOpenGL: Bool {
        var version = SDL_version()
        SDL_GetVersion(&version)
        return version.major == 2 && version.minor < 30
    }

    /// Loads the stub as SDL's Vulkan library, so the next `SDL_CreateWindow` with
    /// `SDL_WINDOW_VULKAN` makes a bare surface. Returns whether it did; the caller
    /// balances a `true` with `unload()` after destroying the window.
    static func load() -> Bool {
        guard sdlForcesOpenGL,
              let stub = stubCandidates(executablePath: FileSystem.executablePath).first(where: { access($0, R_OK) == 0 })
        else { return false }
        if hee_sdl_vulkan_load_library(stub) == 0 { return true }
        SDL_ClearError()
        return false
    }

    /// Releases what `load()` loaded (after the window is destroyed).
    static func unload() { hee_sdl_vulkan_unload_library() }
}
