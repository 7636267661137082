/// One system-mode keyboard per display (issue 28, class 7). Two on one seat both docked
/// (each reserving its height: 12 px were left for windows on a phone), both typed, and sway
/// gave the input method to the first only, so their text went by different ways in no common
/// order. A second `--system` on the same display asks the first to show itself and exits
/// with one line on stderr (status 0: the keyboard the user asked for is there).
///
/// The first listens on a UNIX socket named after the display in `$XDG_RUNTIME_DIR`; the
/// second connects, sends `request` and reads one answer line (`shown <pid>`). The socket and
/// its two lines are the whole protocol, so owning `sm.puri.OSK0` on the session bus later
/// (issue 31) can take its place without touching anything else.
public enum SingleInstance {
    /// What a second instance sends (one line).
    public static let request = "show"

    /// The first instance's answer (one line) from process `pid`.
    public static func answer(pid: Int32) -> String { "shown \(pid)" }

    /// The process id in an answer line, `nil` if it is not one.
    public static func pid(inAnswer line: String) -> Int32? {
        let words = line.split(separator: " ")
        guard words.count == 2, words[0] == "shown" else { return nil }
        return Int32(words[1])
    }

    /// The longest a socket path may be (`sockaddr_un.sun_path` holds 108 bytes with its NUL).
    public static let maximumPathBytes = 107

    /// The socket's path for the display system mode types into: the Wayland compositor
    /// (`WAYLAND_DISPLAY`) when `wayland`, else the X server (`DISPLAY`); `nil` without
    /// `XDG_RUNTIME_DIR` or a display (no rule then: the keyboard starts).
    public static func socketPath(environment: [String: String], wayland: Bool) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
              let display = environment[wayland ? "WAYLAND_DISPLAY" : "DISPLAY"], !display.isEmpty else { return nil }
        let kind = wayland ? "wayland" : "x11"
        var name = "hee-keyboard-system-\(kind)-" + String(display.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        let directory = runtime.hasSuffix("/") ? runtime : runtime + "/"
        if (directory + name + ".socket").utf8.count > maximumPathBytes {
            // A long WAYLAND_DISPLAY (an absolute path): its FNV-1a hash instead.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in display.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            name = "hee-keyboard-system-\(kind)-" + String(hash, radix: 16)
        }
        return directory + name + ".socket"
    }

    /// The line a second instance prints before it exits (`pid`: the first's, if it answered).
    public static func message(program: String, firstPID pid: Int32?) -> String {
        let who = pid.map { "(pid \($0)) " } ?? ""
        return "\(program): --system: a keyboard already runs on this display \(who)and was asked to show itself; this one exits"
    }
}
