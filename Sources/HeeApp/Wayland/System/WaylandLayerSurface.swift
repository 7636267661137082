import AppModel
import CWayland
import CWaylandProtocols
import HeeRender

/// The docked keyboard: a `zwlr_layer_shell_v1` surface on the overlay layer (on Phosh the
/// `top` layer, namespace `osk`: `ShellPlacement`), anchored to the
/// bottom, left and right edges of its output (so as wide as the output), `height` window
/// coordinates tall, never given the keyboard focus (`keyboard_interactivity` none), with an
/// exclusive zone of its height so windows are laid out above it (none when it floats), asked
/// for with the role's first buffer.
///
/// Tracks the scale of the outputs the surface is on (`wl_surface.enter`), so frames are
/// drawn at the output's scale (`wl_surface.set_buffer_scale`).
final class WaylandLayerSurface {
    /// The `wl_surface`.
    let surface: WaylandObject
    private let layerShell: WaylandObject
    /// The layer-shell role; `nil` while unmapped.
    private var layerSurface: WaylandObject?
    /// Whether the role's first configure came (a buffer may be attached).
    private(set) var isConfigured = false
    /// Whether the role's exclusive zone was asked for: with its first buffer, never before
    /// (sway 1.7 lays the other windows out around a role's zone from its first commit on,
    /// buffer or not, so a keyboard that starts hidden would shrink them for a moment).
    private var isZoneSet = false
    private let height: Int
    private let placement: ShellPlacement
    private var outputs: [(object: WaylandObject, scale: Int32)] = []
    private var entered: Set<OpaquePointer> = []
    /// The size the compositor gave (window coordinates); zero before the first configure.
    private(set) var size = (width: 0, height: 0)
    /// Pixels per window coordinate: the highest scale of the outputs the surface is on
    /// (before it is on one: the highest of all outputs).
    private(set) var scale: Int32 = 1
    /// Called after a configure changed the size, or an output change changed the scale.
    var onChange: (() -> Void)?
    /// Called when the compositor closed the surface (its output went away).
    var onClosed: (() -> Void)?
    /// The exclusive zone asked for (window coordinates).
    let exclusiveZone: Int32

    /// Makes the surface and asks for `height` along the bottom edge; `floating`: no
    /// exclusive zone. The first configure arrives with the next round trip.
    init?(connection: WaylandConnection, compositor: WaylandObject, layerShell: WaylandObject, height: Int, floating: Bool,
          placement: ShellPlacement) {
        self.placement = placement
        guard let surface = compositor.request(0, [.newID], creating: hee_wl_surface()) else { return nil }  // create_surface
        self.surface = surface
        self.layerShell = layerShell
        self.height = height
        exclusiveZone = floating ? 0 : Int32(height)
        for global in connection.globals where global.interface == "wl_output" {
            guard let output = connection.bind(global, hee_wl_output(), version: 2) else { continue }
            let index = outputs.count
            outputs.append((output, 1))
            output.onEvent = { [unowned self] opcode, args in
                if opcode == 3 { outputs[index].scale = max(args.int(0), 1) }      // scale(factor)
                if opcode == 2 { updateScale() }                                    // done
            }
        }
        surface.onEvent = { [unowned self] opcode, args in
            guard let output = args.object(0) else { return }
            if opcode == 0 { entered.insert(output) } else if opcode == 1 { entered.remove(output) }
            updateScale()
        }
        guard makeRole() else { return nil }
    }

    /// Gives the surface its layer-shell role (anew after `unmap()`) and asks for a configure.
    private func makeRole() -> Bool {
        guard let layerSurface = layerShell.request(0, [.newID, .object(surface), .object(nil), .uint(placement.layer),
                                                        .string(placement.namespace)],
                                                    creating: hee_zwlr_layer_surface_v1()) else { return false }
        self.layerSurface = layerSurface
        layerSurface.onEvent = { [unowned self] opcode, args in
            switch opcode {
            case 0:  // configure(serial, width, height)
                layerSurface.request(6, [.uint(args.uint(0))])  // ack_configure
                let new = (width: Int(args.uint(1)), height: Int(args.uint(2)))
                let first = !isConfigured
                isConfigured = true
                if new != size || first {
                    size = new
                    onChange?()
                }
            case 1:  // closed
                onClosed?()
            default:
                break
            }
        }
        layerSurface.request(0, [.uint(0), .uint(UInt32(height))])            // set_size (0: the output's width)
        layerSurface.request(1, [.uint(2 | 4 | 8)])                           // set_anchor(bottom | left | right)
        isZoneSet = false                                                     // exclusive zone 0 until a buffer
        layerSurface.request(4, [.uint(0)])                                   // set_keyboard_interactivity(none)
        surface.request(6)                                                    // commit: asks for a configure
        return true
    }

    /// Whether the surface is on the screen (or about to be: its role asked for a configure).
    var isMapped: Bool { layerSurface != nil }

    /// Takes the keyboard off the screen (auto-show, issue 30): the layer-shell role goes and
    /// the surface's buffer with it, so the compositor gives its exclusive zone back to the
    /// other windows and nothing is drawn. The `wl_surface` stays (the seat's input names it).
    func unmap() {
        guard let layerSurface else { return }
        layerSurface.destroy(request: 7)
        self.layerSurface = nil
        isConfigured = false
        wl_surface_attach(surface.proxy, nil, 0, 0)
        surface.request(6)                                                   // commit: no buffer
    }

    /// Puts the keyboard back (after `unmap()`): a new role, whose first configure calls
    /// `onChange`, after which a frame may be attached.
    func map() {
        guard layerSurface == nil else { return }
        _ = makeRole()
    }

    deinit {
        layerSurface?.destroy(request: 7)
        surface.destroy(request: 0)
        for output in outputs { output.object.destroy(request: output.object.version >= 3 ? 3 : nil) }
    }

    /// Asks for another height (the keyboard's `--size`), keeping the exclusive zone equal to it.
    func setHeight(_ height: Int) {
        layerSurface?.request(0, [.uint(0), .uint(UInt32(height))])
        surface.request(6)
    }

    private func updateScale() {
        let on = outputs.filter { entered.contains($0.object.proxy) }
        let new = (on.isEmpty ? outputs : on).map(\.scale).max() ?? 1
        guard new != scale else { return }
        scale = new
        onChange?()
    }

    /// Shows `buffer` (drawn at `scale`) on the surface; `damage`: the pixels that changed
    /// since the buffer shown before (`nil`: all).
    func attach(_ buffer: WaylandShmBuffer, damage: [PixelRect]? = nil) {
        if surface.version >= 3 { surface.request(8, [.int(scale)]) }       // set_buffer_scale
        if !isZoneSet, let layerSurface {
            layerSurface.request(2, [.int(exclusiveZone)])                    // set_exclusive_zone, with the buffer
            isZoneSet = true
        }
        wl_surface_attach(surface.proxy, buffer.buffer, 0, 0)
        let all = PixelRect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))
        if surface.version >= 4 {
            for r in damage ?? [all] {                                      // damage_buffer (pixels)
                surface.request(9, [.int(Int32(r.x)), .int(Int32(r.y)), .int(Int32(r.width)), .int(Int32(r.height))])
            }
        } else {
            surface.request(2, [.int(0), .int(0), .int(Int32.max), .int(Int32.max)])  // damage (surface coordinates)
        }
        surface.request(6)                                                   // commit
    }
}
