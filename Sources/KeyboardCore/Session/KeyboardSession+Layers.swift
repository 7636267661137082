/// Layers (iOS's letters, numbers and symbols views): the layer keys act when touched, and a
/// press that began on one and slid onto a key of the new layer types it and brings the
/// layer it came from back.
extension KeyboardSession {
    /// What `key` does in the layout in use.
    func action(of key: KeyID) -> KeyAction { definition.action(of: key) }

    /// Whether `key` acts when touched (the へぇ button, shift, backspace, layer keys).
    func actsOnTouchDown(_ key: KeyID) -> Bool { action(of: key).actsOnTouchDown }

    /// The layer shown.
    public var layerName: String { layout.layerName }

    /// Shows the layer named `name` (already shown: nothing): lays it out for the window and
    /// reports the new layer and its layout.
    mutating func showLayer(_ name: String, _ effects: inout [KeyboardEffect]) {
        guard name != layout.layerName, definition.layer(named: name) != nil else { return }
        layout = KeyboardLayout(windowSize: layout.windowSize, mode: mode, definition: definition, layer: name,
                                desktopKeys: desktopKeys)
        effects.append(.layerChanged(name))
        effects.append(.layoutChanged)
    }

    /// A layer key touched by `pointer`: its layer is shown at once; if the pointer then
    /// slides onto a key that types and is lifted there, the layer shown before comes back.
    mutating func layerKeyTouched(_ name: String, by pointer: PointerID, _ effects: inout [KeyboardEffect]) {
        let before = layout.layerName
        showLayer(name, &effects)
        if before != name { layerReturns[pointer] = before }
    }

    /// After `pointer`'s key typed on release: the layer it slid from comes back.
    mutating func returnFromSlide(of pointer: PointerID, _ effects: inout [KeyboardEffect]) {
        guard let back = layerReturns.removeValue(forKey: pointer) else { return }
        showLayer(back, &effects)
    }
}
