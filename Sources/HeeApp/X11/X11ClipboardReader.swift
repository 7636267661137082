#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CX11

/// Reads the X11 `CLIPBOARD` selection's text itself, with the ICCCM INCR protocol, for the
/// pastes SDL 2.26 cannot read.
///
/// SDL 2.26's `X11_GetClipboardText` asks the owner for `UTF8_STRING` and reads the answer
/// in one piece: when the owner answers a large text with INCR (incremental transfer: GTK
/// above about 256 KB, xclip from 1 MiB (1,048,576 bytes)), SDL returns an empty string and
/// leaves the transfer hanging. So a live Ctrl+V reads another client's clipboard here
/// (`Application.clipboardText`), not through SDL.
///
/// It uses an X connection of its own (the same display name as SDL's) and an unmapped
/// InputOnly window, so SDL's connection, its event queue and its own selection state are
/// left alone; both are gone when the reader is (one reader per paste). The transfer:
/// `ConvertSelection` to `UTF8_STRING` (to `STRING`, Latin-1, when the owner refuses), wait
/// for `SelectionNotify`, read the property; if its type is `INCR`, deleting it starts the
/// transfer and each chunk arrives as a new value of the property (read and delete it), until
/// a chunk of zero length. Waits block in `poll(2)` on the connection, never longer than the
/// deadline.
final class X11ClipboardReader {
    /// Why nothing could be read.
    enum Failure: Error, Equatable {
        /// The display could not be opened (named).
        case cannotConnect(String)
        /// The owner refused both `UTF8_STRING` and `STRING`.
        case refused
        /// The owner did not finish within the time limit; `bytes` had arrived.
        case timedOut(bytes: Int)
        /// The answer was neither text nor INCR (its type's name; empty when the owner wrote
        /// no property at all).
        case notText(String)
        /// More than `maximumBytes` arrived (an owner that never stops, or a paste far beyond
        /// what a text field or a `--record` line holds): nothing is pasted.
        case tooLarge(limit: Int)

        /// One line for stderr.
        var message: String {
            switch self {
            case .cannotConnect(let name): "cannot open X display \(name)"
            case .refused: "its owner offers no text (UTF8_STRING or STRING)"
            case .timedOut(let bytes): "its owner did not send it within the time limit (\(bytes) bytes arrived)"
            case .notText(let type) where type.isEmpty: "its owner said it answered but wrote no text"
            case .notText(let type): "its owner answered with type \(type), not text"
            case .tooLarge(let limit): "it holds more than \(limit / (1 << 20)) MiB of text"
            }
        }
    }

    /// The longest whole read, from the request to the last chunk, by default: 2 s.
    static let defaultTimeout: Duration = .seconds(2)
    /// The most bytes a paste may bring: 64 MiB, `InputRecord.Reader`'s line limit, so a
    /// recorded paste of plain text can be replayed.
    static let maximumBytes = 64 << 20

    private let display: OpaquePointer
    private let window: CX11.Window
    private let clipboard: Atom
    private let utf8String: Atom
    private let incr: Atom
    /// The property on our window the owner writes to.
    private let property: Atom

    /// Opens a connection to `displayName` and makes the reader's window.
    /// - Throws: `Failure.cannotConnect` when the display cannot be opened.
    init(displayName: String) throws(Failure) {
        guard let display = XOpenDisplay(displayName) else { throw .cannotConnect(displayName) }
        self.display = display
        var attributes = XSetWindowAttributes()
        attributes.event_mask = Int(HEE_X11_PROPERTY_CHANGE_MASK)
        window = XCreateWindow(display, XDefaultRootWindow(display), -10, -10, 1, 1, 0, 0 /* CopyFromParent */,
                               UInt32(InputOnly), nil /* CopyFromParent */, UInt(HEE_X11_CW_EVENT_MASK), &attributes)
        clipboard = XInternAtom(display, "CLIPBOARD", 0)
        utf8String = XInternAtom(display, "UTF8_STRING", 0)
        incr = XInternAtom(display, "INCR", 0)
        property = XInternAtom(display, "HEE_CLIPBOARD", 0)
    }

    deinit {
        XDestroyWindow(display, window)
        XCloseDisplay(display)
    }

    /// The clipboard's text: `nil` when the selection has no owner. Text in `STRING` is
    /// Latin-1; bytes that are not UTF-8 become U+FFFD; it ends at a NUL byte, as SDL's C
    /// string does.
    /// - Parameter timeout: the longest time for the whole transfer.
    /// - Throws: `Failure` when the owner refuses, answers with something else or is too slow.
    /// - Complexity: O(n) in the text's bytes; one round trip per INCR chunk.
    func text(timeout: Duration = X11ClipboardReader.defaultTimeout) throws(Failure) -> String? {
        let deadline = SDL_GetTicks64() + UInt64(timeout.milliseconds)
        guard XGetSelectionOwner(display, clipboard) != 0 else { return nil }
        for target in [utf8String, HEE_XA_STRING] {
            XConvertSelection(display, clipboard, target, property, window, 0 /* CurrentTime */)
            XFlush(display)
            guard try waitForSelection(until: deadline) else { continue }
            let (type, first) = readProperty()
            var bytes = first
            var textType = type
            if type == incr {
                // Our delete (in readProperty) told the owner to send the first chunk.
                bytes = []
                textType = 0
                while true {
                    guard try waitForNewValue(until: deadline) else { throw .timedOut(bytes: bytes.count) }
                    let (chunkType, chunk) = readProperty()
                    if chunk.isEmpty { break }
                    textType = chunkType
                    bytes += chunk
                    if bytes.count > Self.maximumBytes { throw .tooLarge(limit: Self.maximumBytes) }
                }
                if bytes.isEmpty { return "" }
            }
            if bytes.count > Self.maximumBytes { throw .tooLarge(limit: Self.maximumBytes) }
            return try decode(bytes, type: textType)
        }
        throw .refused
    }

    /// Whether another X client owns the selection, asked on `sdlDisplay` (SDL's connection):
    /// false when nobody does, or when a window of SDL's own client does (its clipboard
    /// window, after the app's Ctrl+C: only SDL's event loop would answer a request to it).
    /// Windows are told apart by X resource id base. One round trip.
    static func hasOtherOwner(_ sdlDisplay: OpaquePointer) -> Bool {
        let owner = XGetSelectionOwner(sdlDisplay, XInternAtom(sdlDisplay, "CLIPBOARD", 0))
        guard owner != 0 else { return false }
        guard let xcb = XGetXCBConnection(sdlDisplay), let setup = xcb_get_setup(xcb) else { return true }
        return owner & ~UInt(setup.pointee.resource_id_mask) != UInt(setup.pointee.resource_id_base)
    }

    /// Waits for our `SelectionNotify`. Returns whether the owner wrote the property (false:
    /// it refused this target).
    private func waitForSelection(until deadline: UInt64) throws(Failure) -> Bool {
        while true {
            var event = XEvent()
            guard try nextEvent(&event, until: deadline) else { throw .timedOut(bytes: 0) }
            if event.type == SelectionNotify && event.xselection.requestor == window {
                return event.xselection.property != 0
            }
        }
    }

    /// Waits for the next INCR chunk (a new value of the property). Returns false at the
    /// deadline.
    private func waitForNewValue(until deadline: UInt64) throws(Failure) -> Bool {
        while true {
            var event = XEvent()
            guard try nextEvent(&event, until: deadline) else { return false }
            if event.type == PropertyNotify && event.xproperty.atom == property
                && event.xproperty.state == PropertyNewValue {
                return true
            }
        }
    }

    /// The next event of this connection, waiting in `poll(2)`. Returns false at the deadline.
    private func nextEvent(_ event: inout XEvent, until deadline: UInt64) throws(Failure) -> Bool {
        while XPending(display) == 0 {
            let now = SDL_GetTicks64()
            guard now < deadline else { return false }
            var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(deadline - now, 1000)))
        }
        XNextEvent(display, &event)
        return true
    }

    /// Reads the property whole (in 4 MiB requests) and deletes it. Returns its type (0: no
    /// property) and bytes (for `INCR`: its size field, unused).
    private func readProperty() -> (type: Atom, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        var offset = 0
        var type: Atom = 0
        while true {
            var format: Int32 = 0
            var items: UInt = 0
            var remaining: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let status = XGetWindowProperty(display, window, property, offset / 4, 1 << 20, 1 /* delete */,
                                            0 /* AnyPropertyType */, &type, &format, &items, &remaining, &data)
            guard status == Success else { return (0, bytes) }
            defer { if let data { XFree(data) } }
            // Format 32 items are C longs in Xlib's buffer (only INCR's size, never text).
            let count = format == 8 ? Int(items) : format == 16 ? Int(items) * 2 : Int(items) * MemoryLayout<Int>.size
            if let data, count > 0 { bytes += UnsafeBufferPointer(start: data, count: count) }
            offset += format == 8 ? Int(items) : format == 16 ? Int(items) * 2 : Int(items) * 4
            if remaining == 0 || type == 0 { return (type, bytes) }
        }
    }

    /// The text of `bytes` in the target `type`.
    private func decode(_ bytes: [UInt8], type: Atom) throws(Failure) -> String {
        let text = bytes.prefix { $0 != 0 }
        if type == HEE_XA_STRING {
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: text.map { Unicode.Scalar($0) })
            return String(scalars)
        }
        guard type == utf8String else {
            // None (0): the owner announced the answer without writing the property.
            guard type != 0, let name = XGetAtomName(display, type) else { throw .notText(type == 0 ? "" : "\(type)") }
            defer { XFree(name) }
            throw .notText(String(cString: name))
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Duration {
    /// Whole milliseconds (rounded down).
    fileprivate var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
