import KeyboardCore
/// The one line system mode prints on stderr where it cannot reach every application: on a
/// Wayland desktop XTEST keys reach X11 (XWayland) applications only, and without X11 they
/// reach none. Native Wayland would need the compositor's virtual-keyboard-unstable-v1 or
/// input-method-v2 protocol (not supported yet).
public enum SystemModeNotice {
    /// The line for SDL's video driver `videoDriver` in `environment`, or `nil` on a plain
    /// X11 desktop.
    public static func message(videoDriver: String, environment: [String: String]) -> String? {
        let protocols = "virtual-keyboard-unstable-v1 or input-method-v2"
        if videoDriver != "x11" {
            return "--system sends keys through X11 only and SDL's video driver is '\(videoDriver)': keys are not sent "
                + "(native Wayland applications would need the compositor's \(protocols) protocol, not supported yet)"
        }
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || environment["XDG_SESSION_TYPE"] == "wayland"
        guard wayland else { return nil }
        return "--system on Wayland: keys reach X11 (XWayland) applications only; native Wayland applications "
            + "would need the compositor's \(protocols) protocol, not supported yet"
    }
}
