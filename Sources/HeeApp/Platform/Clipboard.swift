import CSDL
import CX11

/// Where a live Ctrl+V's text comes from: on X11, when another client owns the `CLIPBOARD`
/// selection, read by `X11ClipboardReader` (SDL 2.26 does not implement the INCR transfers
/// that large clipboards arrive in); otherwise SDL's clipboard.
///
/// Why SDL is not asked first: its failed read is worse than an empty string. It leaves the
/// owner's INCR transfer to SDL's window begun and never finished (the INCR property is
/// neither read nor deleted), and an owner that serves one requestor at a time (xclip 0.13)
/// then answers nobody, not even `xclip -o`, until it loses the selection.
final class Clipboard {
    /// SDL's Xlib `Display *` (SDL owns it) when SDL's video driver is X11; `nil` otherwise.
    private let x11Display: OpaquePointer?
    /// The reasons a paste could not be read that stderr has been told (one line per reason).
    private var warnings: Set<String> = []

    /// The clipboard as the app's window sees it; `x11Display`: SDL's X connection, if on X11.
    init(x11Display: OpaquePointer?) {
        self.x11Display = x11Display
    }

    /// The clipboard's text, or `nil` when there is none to read.
    ///
    /// On X11 with another client owning the selection: read through a connection of our own
    /// (at most `X11ClipboardReader.defaultTimeout`, 2 s, during which the window does not
    /// redraw); if that fails, one line on stderr (once per reason) says why, and nothing is
    /// pasted. When SDL's own window owns it (the app's Ctrl+C or Ctrl+X), when nobody does
    /// (SDL then reads the old cut buffer), and on Wayland: SDL's text.
    func text() -> String? {
        if let display = x11Display, X11ClipboardReader.hasOtherOwner(display) {
            do throws(X11ClipboardReader.Failure) {
                let name = String(cString: XDisplayString(display))
                return try X11ClipboardReader(displayName: name).text()
            } catch {
                if warnings.insert(error.message).inserted {
                    Console.error("\(Console.program): warning: the clipboard could not be read, nothing pasted: \(error.message)")
                }
                return nil
            }
        }
        guard let raw = SDL_GetClipboardText() else { return nil }
        defer { SDL_free(raw) }
        return String(cString: raw)
    }
}
