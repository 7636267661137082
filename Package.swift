// swift-tools-version:6.0
import PackageDescription

/// `HEE_SANITIZE` set (`make sanitize` sets it): a sanitizer build, with the Swift runtime
/// linked dynamically. `-static-stdlib` links it with `--exclude-libs ALL`, which hides the
/// sanitizer's allocator from the shared libraries (SDL, fontconfig): their first `free` of
/// memory the runtime allocated (`getcwd`) stops ASan and TSan.
let sanitizerBuild = !(Context.environment["HEE_SANITIZE"] ?? "").isEmpty

let package = Package(
    name: "HeeKeyboard",
    products: [
        .executable(name: "HeeApp", targets: ["HeeApp"]),
        .library(name: "KeyboardCore", targets: ["KeyboardCore"]),
        .library(name: "AppModel", targets: ["AppModel"]),
        // Loaded by HeeApp on Wayland only, so SDL 2.26 makes its window without OpenGL.
        .library(name: "HeeVulkanStub", type: .dynamic, targets: ["HeeVulkanStub"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages (see README, "Set-up").
        .systemLibrary(
            name: "CSDL",
            pkgConfig: "sdl2",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev", "libsdl2-mixer-dev", "libasound2-dev"])]
        ),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Xlib for the X11-only parts of HeeApp (window class, X error handlers) and system
        // mode's X11 layer: XTEST, XKB, xkbcommon-x11, XInput 1 (and SDL_syswm's bridge).
        .systemLibrary(
            name: "CX11",
            pkgConfig: "xkbcommon-x11",
            providers: [.apt(["libx11-dev", "libx11-xcb-dev", "libxtst-dev", "libxi-dev", "libxkbcommon-x11-dev"])]
        ),
        // libfontconfig-dev. No pkg-config: fontconfig.pc requires freetype2, which would link
        // libfreetype into the binaries although nothing of ours calls it (dpkg-shlibdeps
        // warned; SwiftPM puts an `--as-needed` flag after the libraries, where it does
        // nothing). The module map links libfontconfig, and its header needs no include path.
        .systemLibrary(name: "CFontconfig"),
        // Wayland beside SDL (libwayland-dev): the window's wl_surface, wl_shm buffers.
        .target(
            name: "CWayland",
            cSettings: [.define("_FORTIFY_SOURCE", to: "2", .when(configuration: .release))],
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        // libHeeVulkanStub.so (see its vulkan_stub.c): plain C. Linked without Swift's start-up
        // object and with the runtime static (nothing of it is used, so nothing of it is linked
        // in), it needs no libswiftCore.so and no run path into the toolchain.
        .target(
            name: "HeeVulkanStub",
            cSettings: [.define("_FORTIFY_SOURCE", to: "2", .when(configuration: .release))],
            linkerSettings: [.unsafeFlags(["-nostartfiles", "-static-stdlib", "-no-toolchain-stdlib-rpath",
                                           "-Xlinker", "-z", "-Xlinker", "now"])]
        ),

        // Pure Swift: the keyboard alone — every rule of the seeds, layouts, text editing. No
        // SDL, no files, no clock.
        .target(name: "KeyboardCore"),
        // Pure Swift: what the app decides that is not the keyboard — command line, settings
        // document, JSON, record/replay format, trace events, platform policies.
        .target(name: "AppModel", dependencies: ["KeyboardCore"]),
        // Snapshot of core state -> pixels.
        .target(name: "HeeRender", dependencies: ["KeyboardCore", "AppModel", "CSDL", "CCairo", "CFontconfig"]),
        // Window, event loop, audio, command line.
        .executableTarget(
            name: "HeeApp",
            dependencies: ["KeyboardCore", "AppModel", "HeeRender", "CSDL", "CX11", "CWayland"],
            // The Swift runtime linked in: no dynamic symbol binding of libswiftCore at start,
            // and only the pages used become resident (see README, "Performance"). Not in
            // sanitizer builds (see `sanitizerBuild`).
            linkerSettings: sanitizerBuild ? [] : [.unsafeFlags(["-static-stdlib"])]
        ),
        // Writes the app icon PNGs for `make install`.
        .executableTarget(name: "HeeIcon", dependencies: ["HeeRender"]),
        // Frame-cost benchmark for `make bench`.
        .executableTarget(name: "HeeBench", dependencies: ["HeeRender", "KeyboardCore", "CSDL"]),

        .testTarget(name: "KeyboardCoreTests", dependencies: ["KeyboardCore"]),
        .testTarget(name: "AppModelTests", dependencies: ["AppModel", "KeyboardCore"]),
        .testTarget(
            name: "HeeRenderTests",
            dependencies: ["HeeRender", "KeyboardCore", "CSDL"],
            // Reference images, read from the source tree by path (see GoldenImageTests).
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
