import KeyboardCore
/// The one line system mode prints on stderr where it cannot reach every application: on a
/// Wayland desktop whose compositor lacks the protocols of native system mode (GNOME's
/// mutter, KDE's KWin), XTEST keys reach X11 (XWayland) applications only, and without X11
/// they reach none.
public enum SystemModeNotice {
    /// The protocols native Wayland system mode needs.
    public static let waylandProtocols = "zwlr_layer_shell_v1 and zwp_virtual_keyboard_manager_v1"

    /// The line for SDL's video driver `videoDriver` in `environment`, or `nil` on a plain
    /// X11 desktop. `waylandReason`: why native Wayland system mode was not used (e.g. "the
    /// compositor lacks zwlr_layer_shell_v1"), when it was tried.
    public static func message(videoDriver: String, environment: [String: String], waylandReason: String? = nil) -> String? {
        let why = waylandReason ?? "native Wayland applications need the compositor's \(waylandProtocols)"
        if videoDriver != "x11" {
            return "--system sends keys through X11 only and SDL's video driver is '\(videoDriver)': keys are not sent (\(why))"
        }
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || environment["XDG_SESSION_TYPE"] == "wayland"
        guard wayland else { return nil }
        return "--system on Wayland: keys reach X11 (XWayland) applications only (\(why))"
    }
}
