#if canImport(Glibc)
import Glibc
#endif
import CWaylandProtocols

/// One Wayland object (`wl_proxy`) on system mode's own connection: sends its requests by
/// opcode and hands its events, by opcode, to `onEvent`.
///
/// Requests go through `wl_proxy_marshal_array_flags` and events come through one dispatcher
/// (`wl_proxy_add_dispatcher`), so the generated glue needs only the interface tables
/// (`CWaylandProtocols`); the opcodes are the order of the requests and events in the
/// protocol descriptions. Events are dispatched on the main thread only (see
/// `WaylandConnection`), so `onEvent` runs there. The owner destroys the object (`destroy`);
/// `deinit` destroys it without a request if the owner did not.
final class WaylandObject {
    /// The `wl_proxy *` (also what the typed `wl_*` helpers of libwayland-client take).
    let proxy: OpaquePointer
    /// What the object is, for messages (`wl_seat`, `zwp_input_method_v2`).
    let interfaceName: String
    /// Called with each event's opcode and arguments (valid during the call only).
    var onEvent: ((UInt32, UnsafeMutablePointer<wl_argument>) -> Void)?
    private var alive = true

    /// Wraps `proxy` (just created) and starts taking its events.
    init(proxy: OpaquePointer) {
        self.proxy = proxy
        interfaceName = String(cString: wl_proxy_get_class(proxy))
        wl_proxy_add_dispatcher(proxy, waylandObjectDispatcher, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit {
        if alive { wl_proxy_destroy(proxy) }
    }

    /// The version the object was bound or created with.
    var version: UInt32 { wl_proxy_get_version(proxy) }

    /// Sends request `opcode` with `arguments`. A request that creates an object takes
    /// `creating` (its interface) and a placeholder argument where its `new_id` goes.
    /// - Returns: the new object, for a request that creates one.
    @discardableResult
    func request(_ opcode: UInt32, _ arguments: [WaylandArgument] = [], creating interface: UnsafePointer<wl_interface>? = nil,
                 version: UInt32? = nil) -> WaylandObject? {
        guard alive else { return nil }
        let created = marshal(opcode, arguments, interface: interface, version: version ?? self.version, flags: 0)
        return created.map { WaylandObject(proxy: $0) }
    }

    /// Sends the destructor request `opcode` (or none, for interfaces without one: `nil`) and
    /// destroys the proxy; later requests are ignored.
    func destroy(request opcode: UInt32?) {
        guard alive else { return }
        alive = false
        onEvent = nil
        if let opcode {
            _ = marshal(opcode, [], interface: nil, version: version, flags: UInt32(WL_MARSHAL_FLAG_DESTROY))
        } else {
            wl_proxy_destroy(proxy)
        }
    }

    private func marshal(_ opcode: UInt32, _ arguments: [WaylandArgument], interface: UnsafePointer<wl_interface>?,
                         version: UInt32, flags: UInt32) -> OpaquePointer? {
        // Strings live for the duration of the call: C copies of each.
        let strings = arguments.map { argument -> UnsafeMutablePointer<CChar>? in
            if case .string(let text) = argument { return strdup(text) }
            return nil
        }
        defer { strings.forEach { free($0) } }
        var values = zip(arguments, strings).map { argument, string -> wl_argument in
            var value = wl_argument(u: 0)
            switch argument {
            case .int(let i): value.i = i
            case .uint(let u): value.u = u
            case .fixed(let f): value.f = f
            case .string: value.s = UnsafePointer(string)
            case .object(let object): value.o = object?.proxy
            case .newID: value.o = nil
            case .fd(let fd): value.h = fd
            }
            return value
        }
        return values.withUnsafeMutableBufferPointer { buffer in
            wl_proxy_marshal_array_flags(proxy, opcode, interface, version, flags, buffer.baseAddress)
        }
    }
}

/// One argument of a request, in the protocol's types.
enum WaylandArgument {
    case int(Int32)
    case uint(UInt32)
    /// 24.8 fixed point.
    case fixed(Int32)
    case string(String)
    /// An object, or none where the protocol allows null.
    case object(WaylandObject?)
    /// Where a request's new object goes (it is created by `request(_:_:creating:)`).
    case newID
    /// A file descriptor, duplicated by libwayland when the request is sent.
    case fd(Int32)
}

/// Events of every `WaylandObject`: `implementation` is the object.
private func waylandObjectDispatcher(_ implementation: UnsafeRawPointer?, _ target: UnsafeMutableRawPointer?, _ opcode: UInt32,
                                     _ message: UnsafePointer<wl_message>?, _ arguments: UnsafeMutablePointer<wl_argument>?) -> Int32 {
    guard let implementation, let arguments else { return 0 }
    let object = Unmanaged<WaylandObject>.fromOpaque(implementation).takeUnretainedValue()
    object.onEvent?(opcode, arguments)
    return 0
}

/// Reading event arguments.
extension UnsafeMutablePointer where Pointee == wl_argument {
    func int(_ index: Int) -> Int32 { self[index].i }
    func uint(_ index: Int) -> UInt32 { self[index].u }
    /// A `fixed` argument as a Double.
    func fixed(_ index: Int) -> Double { Double(self[index].f) / 256 }
    func string(_ index: Int) -> String { self[index].s.map { String(cString: $0) } ?? "" }
    func fd(_ index: Int) -> Int32 { self[index].h }
    /// An `object` argument's proxy, if any.
    func object(_ index: Int) -> OpaquePointer? { self[index].o }
}
