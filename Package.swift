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
    ],
    targets: [
        // C libraries from Debian's -dev packages (see README, "Set-up").
        .systemLibrary(
            name: "CSDL",
            pkgConfig: "sdl2",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev", "libsdl2-mixer-dev", "libasound2-dev"])]
        ),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Xlib, for the X11-only parts of HeeApp (window class, X error handlers).
        .systemLibrary(name: "CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"])]),
        .systemLibrary(
            name: "CFontconfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]
        ),

        // Pure Swift: every rule of the seeds, no SDL.
        .target(name: "KeyboardCore"),
        // Snapshot of core state -> pixels.
        .target(name: "HeeRender", dependencies: ["KeyboardCore", "CSDL", "CCairo", "CFontconfig"]),
        // Window, event loop, audio, command line.
        .executableTarget(
            name: "HeeApp",
            dependencies: ["KeyboardCore", "HeeRender", "CSDL", "CX11"],
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
        .testTarget(
            name: "HeeRenderTests",
            dependencies: ["HeeRender", "KeyboardCore", "CSDL"],
            // Reference images, read from the source tree by path (see GoldenImageTests).
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
