import KeyboardCore

/// Everything one frame shows, captured from a `KeyboardSession` at one instant. The
/// renderer draws a `Scene` and nothing else, so a frame is a pure function of it.
public struct Scene: Hashable, Sendable {
    public var layout: KeyboardLayout
    /// How far the keyboard has slid down, in points (0: fully shown).
    public var keyboardOffset: Double
    /// The cap's press fraction: 0 at rest ... 1 pressed (10 pt lower, highlight colour).
    public var capPress: Double
    /// The counter's two characters (seed 000's `%2d`).
    public var counterText: String
    public var shiftState: ShiftState
    /// The desktop row's Ctrl and Alt states (drawn as shift's: grey off, white on, white
    /// with a bar locked).
    public var ctrlState: ShiftState
    public var altState: ShiftState
    /// Whether letters type upper case now (shift on, caps lock, or shift held): the keys'
    /// labels and callouts show that case.
    public var lettersUpperCase: Bool
    public var pressedKeys: Set<KeyID>
    public var pressedHostControl: HostControl?
    public var text: String
    /// Caret offset in `Character`s, and as a UTF-8 offset into `text`.
    public var caret: Int
    public var caretUTF8: Int
    /// The selection's other end (equal to `caret` when nothing is selected), Characters.
    public var anchor: Int
    public var isTextFieldFocused: Bool
    /// Whether the caret is drawn in this frame (it blinks).
    public var isCaretVisible: Bool
    /// The input method's composition, drawn at the caret, underlined.
    public var composition: Document.Composition?
    /// The host screen's words (Japanese or English).
    public var strings: HostScreenText
    /// The 「状態」 and 「サイズ」 rows' values.
    public var statusText: String
    public var sizeText: String
    /// Playback volume 0...100 (the volume row).
    public var volume: Int
    /// Whether the counter reached the show's limit (its label reads 「満へぇ」).
    public var isCounterFull: Bool
    /// System mode: the line above the keys that says where they go.
    public var targetLine: String
    /// The layout in use (what each key does and its label).
    public var definition: LayoutDefinition
    /// The return key's label, in the scene's language.
    public var returnLabel: String
    /// Whether the space bar is iOS's trackpad now (the keys' labels fade).
    public var isTrackpadActive: Bool
    /// The alternates bubble, while one is open.
    public var bubble: AlternatesBubble?
    /// Whether the layout has a kana pad (issue 22), and whether it composes.
    public var hasKanaPad: Bool
    public var isComposing: Bool
    /// The kana pad's composition (system mode shows it in its line above the keys; the host
    /// screen in the field, as `composition`).
    public var kanaComposition: String?
    /// The flick key held and its guide (the kana around it, the selected one highlighted).
    public var flickGuide: HeldFlick?
    /// The kana pad's candidate bar.
    public var candidateBar: CandidateBar

    /// A flick key held: which, and what its guide shows.
    public struct HeldFlick: Hashable, Sendable {
        public var key: KeyID
        public var guide: FlickGuide
    }

    /// The scene of `session` at `time`, labelled in `language`.
    public init(session: KeyboardSession, at time: Duration, language: Language = .ja) {
        layout = session.layout
        keyboardOffset = session.keyboardOffset(at: time)
        capPress = session.capPress(at: time)
        counterText = session.hee.model.counterText
        shiftState = session.modifiers.shift.state
        ctrlState = session.modifiers.ctrl.state
        altState = session.modifiers.alt.state
        lettersUpperCase = session.modifiers.shift.typesUpperCase
        pressedKeys = session.pressedKeys
        pressedHostControl = session.pressedHostControl
        text = session.document.textField.text
        caret = session.document.textField.caret
        caretUTF8 = session.document.textField.caretUTF8
        anchor = session.document.textField.anchor
        isTextFieldFocused = session.hostScreen.isTextFieldFocused
        isCaretVisible = session.isCaretVisible(at: time)
        // The kana pad's composition is drawn where an input method's is.
        composition = session.kanaCompositionText.map { Document.Composition(text: $0, cursor: $0.count) }
            ?? session.document.composition
        strings = HostScreenText.of(language)
        statusText = strings.status(session.hostScreen.monitor.keyboardStatus)
        sizeText = session.hostScreen.monitor.sizeText
        volume = session.hee.volume
        isCounterFull = session.hee.model.isFull
        let systemText = SystemModeText.of(language)
        targetLine = systemText.targetLine(session.document.keyTarget, field: session.autoShow.context)
        returnLabel = systemText.returnKey
        definition = session.definition
        isTrackpadActive = session.pointers.trackpad != nil
        bubble = session.pointers.bubble
        hasKanaPad = session.definition.hasKanaPad
        isComposing = session.isComposing
        kanaComposition = session.kanaCompositionText
        flickGuide = session.flickGuide.map { HeldFlick(key: $0.key, guide: $0.guide) }
        candidateBar = session.kana.candidateBar
    }

    /// How each key of the layer shown looks (labels fade in trackpad mode).
    public var faces: [KeyID: KeyFace] {
        var faces: [KeyID: KeyFace] = [:]
        for key in layout.orderedKeys {
            let face = KeyFace.of(key, definition: definition, shift: shiftState, upperCase: lettersUpperCase,
                                  modifiers: (ctrlState, altState), returnLabel: returnLabel, kanaPad: hasKanaPad,
                                  composing: isComposing)
            faces[key] = isTrackpadActive ? face.faded : face
        }
        return faces
    }

    /// Whether any part of the keyboard is inside the window.
    public var isKeyboardVisible: Bool { keyboardOffset < layout.keyboardFrame.height }
}
