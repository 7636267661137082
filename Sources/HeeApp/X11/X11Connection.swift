#if canImport(Glibc)
import Glibc
#endif
import CSDL
import CX11

/// SDL's connection to the X server, borrowed by system mode's X11 layer (SDL opened it and
/// closes it): the Xlib `Display`, the XCB connection under it, the root window and the
/// atoms the layer uses.
///
/// Requests about other clients' windows go through XCB with their errors checked one by
/// one: such a window can vanish at any moment, and an error must not reach Xlib's error
/// handler (which would end the app).
final class X11Connection {
    /// The Xlib `Display *`.
    let display: OpaquePointer
    /// The `xcb_connection_t *` under it.
    let xcb: OpaquePointer
    /// The default screen's root window.
    let root: xcb_window_t
    private var atoms: [String: xcb_atom_t] = [:]

    /// The connection behind `handles` (an SDL window's X display).
    init?(_ handles: X11WindowHandles) {
        guard let xcb = XGetXCBConnection(handles.display) else { return nil }
        display = handles.display
        self.xcb = xcb
        root = xcb_window_t(truncatingIfNeeded: XDefaultRootWindow(display))
    }

    /// Sends buffered requests to the server.
    func flush() { XFlush(display) }

    /// The atom named `name` (interned once, then cached).
    func atom(_ name: String) -> xcb_atom_t {
        if let known = atoms[name] { return known }
        let cookie = xcb_intern_atom(xcb, 0, UInt16(name.utf8.count), name)
        var atom: xcb_atom_t = 0
        if let reply = xcb_intern_atom_reply(xcb, cookie, nil) {
            atom = reply.pointee.atom
            free(reply)
        }
        atoms[name] = atom
        return atom
    }

    /// Interns several atoms with one round trip.
    func prefetch(_ names: [String]) {
        let missing = names.filter { atoms[$0] == nil }
        let cookies = missing.map { xcb_intern_atom(xcb, 0, UInt16($0.utf8.count), $0) }
        for (name, cookie) in zip(missing, cookies) {
            guard let reply = xcb_intern_atom_reply(xcb, cookie, nil) else { continue }
            atoms[name] = reply.pointee.atom
            free(reply)
        }
    }

    /// A property of `window`: its type and raw bytes, or `nil` when the window is gone or
    /// has no such property.
    func property(_ name: String, of window: xcb_window_t, maxBytes: Int = 4096) -> (type: xcb_atom_t, bytes: [UInt8])? {
        let cookie = xcb_get_property(xcb, 0, window, atom(name), 0 /* AnyPropertyType */, 0, UInt32(maxBytes / 4))
        guard let reply = xcb_get_property_reply(xcb, cookie, nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.type != 0 else { return nil }
        let length = Int(xcb_get_property_value_length(reply))
        let bytes = length > 0 ? Array(UnsafeRawBufferPointer(start: xcb_get_property_value(reply), count: length)) : []
        return (reply.pointee.type, bytes)
    }

    /// The window's parent, or `nil` when it is the root or gone.
    func parent(of window: xcb_window_t) -> xcb_window_t? {
        guard let reply = xcb_query_tree_reply(xcb, xcb_query_tree(xcb, window), nil) else { return nil }
        defer { free(reply) }
        let parent = reply.pointee.parent
        return parent == 0 ? nil : parent
    }

    /// Adds `mask` to the events this client selects on `window` (keeping SDL's). Returns
    /// whether the window still exists.
    @discardableResult
    func selectEvents(_ mask: UInt32, on window: xcb_window_t, replacing: Bool = false) -> Bool {
        var value = mask
        if !replacing {
            guard let attributes = xcb_get_window_attributes_reply(xcb, xcb_get_window_attributes(xcb, window), nil) else {
                return false
            }
            value |= attributes.pointee.your_event_mask
            free(attributes)
        }
        let cookie = xcb_change_window_attributes_checked(xcb, window, XCB_CW_EVENT_MASK.rawValue, &value)
        if let error = xcb_request_check(xcb, cookie) {
            free(error)
            return false
        }
        return true
    }
}
