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
