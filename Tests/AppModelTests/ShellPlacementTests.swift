import AppModel
import Testing

/// Where Wayland system mode's layer surface goes (issue 31): Phosh's keyboard's place on Phosh.
@Suite("Shell placement")
struct ShellPlacementTests {
    @Test func phoshGetsTheTopLayerAndTheOskNamespace() {
        for desktop in ["Phosh:GNOME", "phosh", "GNOME:Phosh"] {
            #expect(ShellPlacement.forDesktop(["XDG_CURRENT_DESKTOP": desktop], appID: "hee") == .phosh, "\(desktop)")
        }
        #expect(ShellPlacement.phosh.layer == 2 && ShellPlacement.phosh.namespace == "osk")
    }

    @Test func elsewhereTheOverlayLayerUnderTheAppsID() {
        for environment in [[:], ["XDG_CURRENT_DESKTOP": "sway"], ["XDG_CURRENT_DESKTOP": "PhoshLike:GNOME"]] {
            let placement = ShellPlacement.forDesktop(environment, appID: "hee-keyboard")
            #expect(placement.layer == 3 && placement.namespace == "hee-keyboard", "\(environment)")
        }
    }
}

/// System mode on Phosh is the phone dock: its own size, no desktop row by default (issue 31).
@Suite("Phone dock configuration")
struct PhoneDockConfigurationTests {
    static func configuration(_ arguments: [String], environment: [String: String]) throws -> RunConfiguration {
        guard case .run(let options) = try LaunchOptions.parse(arguments) else {
            Issue.record("\(arguments) is not a run")
            return try #require(nil as RunConfiguration?)
        }
        return options.configuration(settings: Settings(), environment: environment)
    }

    static let phosh = ["XDG_CURRENT_DESKTOP": "Phosh:GNOME"]

    @Test func onPhoshSystemModeIsThePhoneDock() throws {
        let docked = try Self.configuration(["--system"], environment: Self.phosh)
        #expect(docked.phoneDock && !docked.desktopKeys)
        #expect(docked.windowSize.height == 232)
        let desktop = try Self.configuration(["--system", "--desktop-keys"], environment: Self.phosh)
        #expect(desktop.phoneDock && desktop.desktopKeys, "the flag still adds the desktop row")
    }

    @Test func elsewhereAndOnTheHostScreenNoDock() throws {
        let sway = try Self.configuration(["--system"], environment: ["XDG_CURRENT_DESKTOP": "sway"])
        #expect(!sway.phoneDock && sway.desktopKeys)
        #expect(try !Self.configuration([], environment: Self.phosh).phoneDock)
    }
}
