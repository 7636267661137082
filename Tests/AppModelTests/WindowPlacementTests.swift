import AppModel
import KeyboardCore
import Testing

/// Window sizes that no longer fit (issue 10, "Window"; issue 11, item 5) and the normal size
/// kept through a maximize.
@Suite("Window placement")
struct WindowPlacementTests {
    static let screen = Rect(x: 0, y: 0, width: 1280, height: 1024)
    static let minimum = Size(width: 320, height: 592)

    // MARK: Launch size

    @Test func aSizeThatFitsIsKept() {
        let result = WindowPlacement.launchSize(requested: Size(width: 480, height: 800), minimum: Self.minimum,
                                                usable: Self.screen)
        #expect(result.size == Size(width: 480, height: 800))
        #expect(!result.clamped)
    }

    @Test func aSizeLargerThanTheScreenIsClampedToItsUsableBounds() {
        let result = WindowPlacement.launchSize(requested: Size(width: 1600, height: 1400), minimum: Self.minimum,
                                                usable: Self.screen)
        #expect(result.size == Size(width: 1280, height: 1024))
        #expect(result.clamped)
        let panel = Rect(x: 0, y: 0, width: 1280, height: 990)  // a 34-pixel panel
        #expect(WindowPlacement.launchSize(requested: Size(width: 600, height: 1000), minimum: Self.minimum,
                                           usable: panel).size == Size(width: 600, height: 990))
    }

    @Test func theMinimumWinsOverASmallDisplay() {
        // GDK_SCALE=2: the minimum 320x592 points is 640x1184 pixels, taller than the screen.
        let result = WindowPlacement.launchSize(requested: Size(width: 16400, height: 1600),
                                                minimum: Size(width: 640, height: 1184), usable: Self.screen)
        #expect(result.size == Size(width: 1280, height: 1184))
        #expect(result.clamped)
    }

    @Test func withoutADisplayOnlySDLsLimitApplies() {
        // The offscreen driver: {"windowWidth":8200} at scale 2 is 16400 pixels, more than
        // SDL_CreateWindow takes.
        let result = WindowPlacement.launchSize(requested: Size(width: 16400, height: 1600), minimum: Self.minimum,
                                                usable: nil)
        #expect(result.size == Size(width: 16384, height: 1600))
        #expect(result.clamped)
        let big = WindowPlacement.launchSize(requested: Size(width: 3840, height: 6400), minimum: Self.minimum, usable: nil)
        #expect(big.size == Size(width: 3840, height: 6400) && !big.clamped)
    }

    // MARK: Frame

    static let openbox = WindowPlacement.Frame(top: 20, left: 1, bottom: 5, right: 1)

    @Test func aFramedWindowInsideTheScreenStays() {
        #expect(WindowPlacement.fitFrame(client: Rect(x: 401, y: 132, width: 480, height: 800), frame: Self.openbox,
                                         usable: Self.screen, minimum: Self.minimum) == nil)
    }

    @Test func aScreenSizedWindowShrinksByItsFrameAndMovesIn() throws {
        let fitted = try #require(WindowPlacement.fitFrame(client: Rect(x: 0, y: 0, width: 1280, height: 1024),
                                                           frame: Self.openbox, usable: Self.screen, minimum: Self.minimum))
        #expect(fitted == Rect(x: 1, y: 20, width: 1278, height: 999))
    }

    @Test func aWindowPartlyOffScreenMovesBackWithoutShrinking() throws {
        let fitted = try #require(WindowPlacement.fitFrame(client: Rect(x: 1000, y: -50, width: 480, height: 800),
                                                           frame: Self.openbox, usable: Self.screen, minimum: Self.minimum))
        #expect(fitted == Rect(x: 799, y: 20, width: 480, height: 800))
    }

    @Test func aFrameTallerThanTheScreenKeepsItsTitleBarOnScreen() throws {
        let fitted = try #require(WindowPlacement.fitFrame(client: Rect(x: 0, y: 0, width: 640, height: 1184),
                                                           frame: Self.openbox, usable: Self.screen,
                                                           minimum: Size(width: 640, height: 1184)))
        #expect(fitted.y == 20 && fitted.height == 1184)
    }

    // MARK: Normal size and maximize

    @Test func resizesAreTheNormalSizeUntilMaximized() {
        var memory = WindowStateMemory(normalSize: Size(width: 480, height: 800), maximized: false)
        memory.resized(to: Size(width: 500, height: 820), at: .seconds(1))
        #expect(memory.normalSize == Size(width: 500, height: 820))
        // openbox: "maximized" first, then the screen-sized resize.
        memory.maximized(at: .seconds(3))
        memory.resized(to: Size(width: 1280, height: 1005), at: .milliseconds(3001))
        #expect(memory.isMaximized && memory.normalSize == Size(width: 500, height: 820))
        memory.restored()
        memory.resized(to: Size(width: 500, height: 820), at: .seconds(5))
        #expect(!memory.isMaximized && memory.normalSize == Size(width: 500, height: 820))
    }

    @Test func aResizeJustBeforeMaximizedWasTheMaximize() {
        var memory = WindowStateMemory(normalSize: Size(width: 480, height: 800), maximized: false)
        memory.resized(to: Size(width: 1280, height: 1005), at: .milliseconds(2000))
        memory.maximized(at: .milliseconds(2000 + 250))
        #expect(memory.normalSize == Size(width: 480, height: 800))
    }

    @Test func aResizeLongBeforeMaximizedIsKept() {
        var memory = WindowStateMemory(normalSize: Size(width: 480, height: 800), maximized: false)
        memory.resized(to: Size(width: 600, height: 900), at: .milliseconds(2000))
        memory.maximized(at: .milliseconds(2000 + 251))
        #expect(memory.normalSize == Size(width: 600, height: 900))
    }

    @Test func openingMaximizedKeepsTheSavedNormalSize() {
        var memory = WindowStateMemory(normalSize: Size(width: 480, height: 800), maximized: true)
        memory.resized(to: Size(width: 1280, height: 1005), at: .zero)
        #expect(memory.isMaximized && memory.normalSize == Size(width: 480, height: 800))
    }

    // MARK: Settings

    @Test func maximizedIsSavedOnlyWhenTrueAndLoads() throws {
        var settings = Settings()
        #expect(!String(decoding: settings.encoded, as: UTF8.self).contains("maximized"))
        settings.maximized = true
        #expect(String(decoding: settings.encoded, as: UTF8.self).contains("\"maximized\" : true"))
        #expect(try Settings.decode(settings.encoded) == settings)
        #expect(try Settings.decode(Array(#"{"maximized": false}"#.utf8)).maximized == false)
        #expect(throws: Settings.LoadError.self) { try Settings.decode(Array(#"{"maximized": 1}"#.utf8)) }
    }

    @Test func sizeFromTheCommandLineOpensUnmaximized() throws {
        var settings = Settings()
        settings.maximized = true
        guard case .run(let plain) = try LaunchOptions.parse([]),
              case .run(let sized) = try LaunchOptions.parse(["--size", "600x900"]) else {
            Issue.record("not a run command")
            return
        }
        #expect(plain.configuration(settings: settings, environment: [:]).maximized)
        #expect(!sized.configuration(settings: settings, environment: [:]).maximized)
    }
}
