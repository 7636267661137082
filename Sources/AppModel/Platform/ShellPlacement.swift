/// Where Wayland system mode's layer surface goes (issue 31): on Phosh where Phosh looks for
/// its on-screen keyboard — squeekboard's layer, `top` (phoc stacks it above the home bar
/// and raises it over a focused lock screen or prompt only), namespace `osk` — elsewhere on
/// the `overlay` layer under the app's own id, above every window and panel.
public struct ShellPlacement: Hashable, Sendable {
    /// `zwlr_layer_shell_v1`'s layer: 2 `top`, 3 `overlay`.
    public let layer: UInt32
    /// The layer surface's namespace.
    public let namespace: String

    /// Phosh's keyboard's: layer `top`, namespace `osk`.
    public static let phosh = ShellPlacement(layer: 2, namespace: "osk")

    /// The placement for the desktop `environment` names; `appID`: the namespace elsewhere.
    public static func forDesktop(_ environment: [String: String], appID: String) -> ShellPlacement {
        isPhosh(environment) ? .phosh : ShellPlacement(layer: 3, namespace: appID)
    }

    /// Whether the session is Phosh's: `XDG_CURRENT_DESKTOP` (a colon-separated list) names
    /// `Phosh` (any case; Debian's session sets `Phosh:GNOME`).
    public static func isPhosh(_ environment: [String: String]) -> Bool {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains { $0.lowercased() == "phosh" }
    }
}
