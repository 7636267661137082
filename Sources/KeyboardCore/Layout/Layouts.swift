/// The keys shown: the layout in use (`definition`) among those the globe key switches between
/// (`choices`), and its shown layer laid out for the window (`layout`).
///
/// A part of `KeyboardSession`. It answers what a key does (`action(of:)`) and lays the keys out
/// again when a layer key shows another layer, the globe key another layout, or the window
/// changes size; the others are given the layout to hit-test and draw.
public struct Layouts: Hashable, Sendable {
    /// Host screen with its text field, or system mode (its keyboard has a return key and a
    /// target line).
    public let mode: KeyboardMode
    /// Whether the desktop row (esc tab ctrl alt ← ↓ ↑ →) is shown under the へぇ button.
    public let desktopKeys: Bool
    /// The phone dock (system mode on Phosh, issue 31): see `KeyboardLayout`.
    public let phoneDock: Bool
    /// The layouts the globe key switches between, in its order (the user's `layouts`
    /// setting); empty or one: no globe key.
    public let choices: [LayoutDefinition]
    /// The layout in use: its layers, keys, widths and alternates.
    public private(set) var definition: LayoutDefinition { didSet { if definition != oldValue { revision &+= 1 } } }
    /// `definition`'s shown layer laid out for the window (points).
    public private(set) var layout: KeyboardLayout { didSet { if layout != oldValue { revision &+= 1 } } }
    /// Counts changes of what is drawn: the layout in use, its layer, its geometry.
    public private(set) var revision = 0

    /// The keys for a window of `windowSize` points in `mode`: `definition`'s first layer, the
    /// desktop row if `desktopKeys`. When `layouts` holds another layout than `definition`,
    /// every layout without a globe key gets one beside its layer key
    /// (`LayoutDefinition.withGlobeKey()`), and `definition` is the one of its name among them.
    /// `phoneDock`: laid out as the phone dock (system mode on Phosh, `KeyboardLayout`).
    public init(windowSize: Size, mode: KeyboardMode, definition: LayoutDefinition, desktopKeys: Bool,
                layouts: [LayoutDefinition], phoneDock: Bool = false) {
        self.mode = mode
        self.desktopKeys = desktopKeys
        self.phoneDock = phoneDock
        var definition = definition
        if layouts.contains(where: { $0.name != definition.name }) {
            choices = layouts.map { $0.withGlobeKey() }
            definition = choices.first { $0.name == definition.name } ?? definition.withGlobeKey()
        } else {
            choices = []
        }
        self.definition = definition
        layout = KeyboardLayout(windowSize: windowSize, mode: mode, definition: definition, desktopKeys: desktopKeys,
                                phoneDock: phoneDock)
    }

    /// The layer shown.
    public var layerName: String { layout.layerName }

    /// What `key` does in the layout in use.
    public func action(of key: KeyID) -> KeyAction { definition.action(of: key) }

    /// Whether `key` acts when touched (the へぇ button, shift, backspace, layer keys).
    public func actsOnTouchDown(_ key: KeyID) -> Bool { action(of: key).actsOnTouchDown }

    /// Whether `key` shows a layer.
    public func isLayerKey(_ key: KeyID) -> Bool {
        if case .showLayer = action(of: key) { true } else { false }
    }

    /// Shows the layer named `name` (already shown, or no such layer: nothing): lays it out for
    /// the window and reports the new layer and its layout.
    public mutating func showLayer(_ name: String) -> [KeyboardEffect] {
        guard name != layout.layerName, definition.layer(named: name) != nil else { return [] }
        layout = KeyboardLayout(windowSize: layout.windowSize, mode: mode, definition: definition, layer: name,
                                desktopKeys: desktopKeys, phoneDock: phoneDock)
        return [.layerChanged(name), .layoutChanged]
    }

    /// The window is now `size` points: the layer shown is laid out for it. Returns whether the
    /// layout changed.
    public mutating func resize(to size: Size) -> Bool {
        let next = KeyboardLayout(windowSize: size, mode: mode, definition: definition, layer: layout.layerName,
                                  desktopKeys: desktopKeys, phoneDock: phoneDock)
        guard next != layout else { return false }
        layout = next
        return true
    }

    /// The layout the globe key shows next: the one after the layout in use among `choices`
    /// (the first when it is not among them); `nil` without choices, or when it is the one in
    /// use.
    public var nextChoice: LayoutDefinition? {
        guard !choices.isEmpty else { return nil }
        let next = choices.firstIndex { $0.name == definition.name }.map { (choices.index(after: $0)) % choices.count } ?? 0
        return choices[next] == definition ? nil : choices[next]
    }

    /// Shows `next` (the emoji keyboard's keys once more, issue 34) at the layer shown if it
    /// has one named `layer`, else the one shown if it has that one, else its first.
    public mutating func replaceDefinition(with next: LayoutDefinition, layer: String? = nil) {
        definition = next
        let name = [layer, layout.layerName].compactMap { $0 }.first { next.layer(named: $0) != nil }
            ?? next.firstLayer.name
        layout = KeyboardLayout(windowSize: layout.windowSize, mode: mode, definition: next, layer: name,
                                desktopKeys: desktopKeys)
    }

    /// Shows `next` (one of `choices`) at its first layer.
    public mutating func switchLayout(to next: LayoutDefinition) {
        definition = next
        layout = KeyboardLayout(windowSize: layout.windowSize, mode: mode, definition: definition, desktopKeys: desktopKeys,
                                phoneDock: phoneDock)
    }
}
