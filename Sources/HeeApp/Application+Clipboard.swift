import CSDL
import CX11

/// The text a live Ctrl+V pastes: SDL's clipboard, or on X11, when SDL reads nothing, the
/// `CLIPBOARD` selection read by `X11ClipboardReader` (SDL 2.26 does not implement the INCR
/// transfers that large clipboards arrive in).
extension Application {
    /// The clipboard's text, or `nil` when there is none to read.
    ///
    /// SDL's answer when it has text (or when the driver is not X11). On X11 an empty answer
    /// is checked: when another client owns the selection, it is read again through a
    /// connection of our own (at most `X11ClipboardReader.defaultTimeout`, 2 s, during which
    /// the window does not redraw). If that fails too, one line on stderr (once per run) says
    /// why, and nothing is pasted.
    func clipboardText() -> String? {
        var text: String?
        if let raw = SDL_GetClipboardText() {
            text = String(cString: raw)
            SDL_free(raw)
        }
        guard text?.isEmpty ?? true, let display = x11Display, X11ClipboardReader.hasOwner(display),
              !X11ClipboardReader.isOwnedBy(display) else { return text }
        SDL_ClearError()
        do throws(X11ClipboardReader.Failure) {
            let name = String(cString: XDisplayString(display))
            return try X11ClipboardReader(displayName: name).text() ?? text
        } catch {
            if !clipboardWarned {
                clipboardWarned = true
                Console.error("\(Console.program): warning: the clipboard could not be read, nothing pasted: \(error.message)")
            }
            return text
        }
    }
}
