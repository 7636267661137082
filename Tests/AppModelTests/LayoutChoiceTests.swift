import AppModel
import KeyboardCore
import Testing

/// Choosing a layout (issue 20): `--layout NAME` for the run, the saved `"layout"`, a user's
/// own file winning over a shipped one, and what happens when a name names nothing.
@Suite("Layout choice")
struct LayoutChoiceTests {
    static let catalog = LayoutCatalog(userNames: ["mine", "de"], shippedNames: ["en", "de"])

    static func choice(flag: String?, saved: String?, in catalog: LayoutCatalog = catalog) throws -> LayoutCatalog.Choice {
        try catalog.choose(flag: flag, saved: saved)
    }

    /// The message of the usage error `body` throws, or `nil`.
    static func usageError(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? LaunchOptions.UsageError)?.message ?? "not a usage error: \(error)"
        }
    }

    @Test func theNamesAreTheUsersTheShippedAndEn() {
        #expect(Self.catalog.names == ["de", "en", "mine"])
        #expect(LayoutCatalog(userNames: [], shippedNames: []).names == ["en"])
        // Files whose names could not be chosen are not layouts.
        #expect(LayoutCatalog(userNames: ["a b", "x"], shippedNames: ["..", "de"]).names == ["de", "en", "x"])
    }

    @Test func aUsersFileWinsOverAShippedOneOfItsName() {
        #expect(Self.catalog.source(of: "de") == .user)
        #expect(Self.catalog.source(of: "mine") == .user)
        #expect(Self.catalog.source(of: "en") == .shipped)
        #expect(LayoutCatalog(userNames: ["en"], shippedNames: ["en"]).source(of: "en") == .user)
        // Without any file, en is the built-in one.
        #expect(LayoutCatalog(userNames: [], shippedNames: []).source(of: "en") == .builtIn)
        #expect(Self.catalog.source(of: "fr") == nil)
    }

    @Test func theFlagWinsOverTheSavedSettingAndNothingMeansEn() throws {
        #expect(try Self.choice(flag: "mine", saved: "de") == LayoutCatalog.Choice(name: "mine", source: .user))
        #expect(try Self.choice(flag: nil, saved: "de") == LayoutCatalog.Choice(name: "de", source: .user))
        #expect(try Self.choice(flag: nil, saved: nil) == LayoutCatalog.Choice(name: "en", source: .shipped))
        #expect(try Self.choice(flag: "en", saved: "nope") == LayoutCatalog.Choice(name: "en", source: .shipped))
    }

    /// Without a flag or a saved "layout", the first existing layout of the saved "layouts"
    /// (a new-user trial's ["mine"] started on en, which the list leaves out); the flag and
    /// the saved choice still win.
    @Test func nothingChosenMeansTheGlobeListsFirstLayout() throws {
        #expect(try Self.catalog.choose(flag: nil, saved: nil, globe: ["mine"]) == LayoutCatalog.Choice(name: "mine", source: .user))
        #expect(try Self.catalog.choose(flag: nil, saved: nil, globe: ["nope", "de"]) == LayoutCatalog.Choice(name: "de", source: .user))
        #expect(try Self.catalog.choose(flag: nil, saved: nil, globe: ["nope"]) == LayoutCatalog.Choice(name: "en", source: .shipped))
        #expect(try Self.catalog.choose(flag: nil, saved: "de", globe: ["mine"]).name == "de")
        #expect(try Self.catalog.choose(flag: "en", saved: nil, globe: ["mine"]).name == "en")
    }

    @Test func aFlagNamingNoLayoutIsAUsageErrorListingTheNames() {
        #expect(Self.usageError { try Self.choice(flag: "nope", saved: "de") } == "--layout nope: no such layout; there are de, en, mine")
    }

    @Test func aSavedNameNamingNoLayoutGivesEnWithOneWarning() throws {
        let choice = try Self.choice(flag: nil, saved: "fr")
        #expect(choice.name == "en" && choice.source == .shipped)
        #expect(choice.warning == #""layout" "fr" names no layout (there are de, en, mine); using en"#)
        let bare = try Self.choice(flag: nil, saved: "fr", in: LayoutCatalog(userNames: [], shippedNames: []))
        #expect(bare == LayoutCatalog.Choice(name: "en", source: .builtIn, warning: #""layout" "fr" names no layout (there are en); using en"#))
    }

    @Test func keyRowsAreTheTallestLayers() {
        #expect(KeyboardLayout.keyRows(of: .english, desktopKeys: false) == 4)
        #expect(KeyboardLayout.keyRows(of: .english, desktopKeys: true) == 5)
        var taller = LayoutDefinition.english
        taller.layers[1].rows.insert([.key("x")], at: 1)
        #expect(KeyboardLayout.keyRows(of: taller, desktopKeys: false) == 5)
    }

    // MARK: --layout and the saved setting

    @Test func theLayoutFlagIsParsedAndOverridesTheSavedOneForTheRun() throws {
        guard case .run(let options) = try LaunchOptions.parse(["--layout", "de"]) else {
            Issue.record("--layout de did not parse as a run")
            return
        }
        #expect(options.layout == "de")
        guard case .run(let inline) = try LaunchOptions.parse(["--layout=mine", "--layout", "de-CH"]) else { return }
        #expect(inline.layout == "de-CH")  // the last one wins, as for every value flag
        var saved = Settings()
        saved.layout = "fr"
        // The configuration carries the layout actually found; the flag does not touch the
        // saved settings.
        let configuration = options.configuration(settings: saved, environment: [:], layout: "de")
        #expect(configuration.layout == "de" && saved.layout == "fr")
        #expect(LaunchOptions().configuration(settings: Settings(), environment: [:]).layout == "en")
        // System mode's default window is as tall as the layout's rows need.
        var system = LaunchOptions()
        system.system = true
        #expect(system.configuration(settings: Settings(), environment: [:], keyRows: 5).windowSize
            == KeyboardLayout.defaultSystemWindowSize(keyRows: 5))
        // A saved size at en's minimum is raised to what five rows need (48 pt more).
        var small = Settings()
        small.windowWidth = 320
        small.windowHeight = 592
        #expect(LaunchOptions().configuration(settings: small, environment: [:], keyRows: 5).windowSize
            == KeyboardLayout.minimumWindowSize(for: .hostScreen, keyRows: 5))
        #expect(KeyboardLayout.minimumWindowSize(for: .hostScreen, keyRows: 5) == Size(width: 320, height: 640))
        #expect(LaunchOptions().configuration(settings: small, environment: [:]).windowSize == Size(width: 320, height: 592))
    }

    @Test("--layout needs a layout name", arguments: [
        (["--layout"], "--layout needs a value"),
        (["--layout", "../en"], "--layout expects a layout name (1-64 letters, digits, '-' and '_'), not '../en'"),
        (["--layout", ""], "--layout expects a layout name (1-64 letters, digits, '-' and '_'), not ''"),
        (["--layout=en.json"], "--layout expects a layout name (1-64 letters, digits, '-' and '_'), not 'en.json'"),
    ])
    func badLayoutFlag(arguments: [String], message: String) {
        #expect(Self.usageError { try LaunchOptions.parse(arguments) } == message)
    }

    @Test func theUsageNamesTheFlag() {
        #expect(LaunchOptions.usage.contains("[--layout NAME]"))
        #expect(LaunchOptions.usage.contains("--layout NAME  keyboard layout for this run"))
    }

    @Test func theSavedLayoutLoadsAndSaves() throws {
        let settings = try Settings.decode(Array(#"{"layout": "de"}"#.utf8))
        #expect(settings.layout == "de")
        #expect(try Settings.decode(Array("{}".utf8)).layout == nil)
        #expect(Settings.keys.contains("layout"))
        // Written only when set.
        #expect(!Settings().members.contains { $0.0 == "layout" })
        #expect(settings.members.contains { $0.0 == "layout" && $0.1 == .string("de") })
        #expect(try Settings.decode(settings.encoded) == settings)
    }

    @Test func aSavedLayoutThatIsNoNameIsCorrectedToEn() throws {
        for (json, written, problem) in [
            (#"{"layout": 3, "volume": 20}"#, "3", "has the wrong type (a layout name)"),
            (#"{"layout": "../de", "volume": 20}"#, #""../de""#, "is not a layout name (1-64 letters, digits, '-' and '_')"),
        ] {
            let (settings, corrections) = try SettingsDocument(parsing: Array(json.utf8)).correctedSettings
            #expect(settings.layout == nil && settings.volume == 20, "\(json)")
            #expect(corrections == [Settings.Correction(field: "layout", written: written, problem: problem, used: "en")])
        }
        #expect(try SettingsDocument(parsing: Array(#"{"layout": null}"#.utf8)).correctedSettings.corrections.isEmpty)
    }

    @Test func aSaveKeepsTheSavedLayout() throws {
        var document = try SettingsDocument(parsing: Array(#"{"layout": "de", "volume": 50}"#.utf8))
        let loaded = try document.settings()
        var changed = loaded
        changed.volume = 40
        document.update(from: loaded, to: changed)
        #expect(String(decoding: document.encoded, as: UTF8.self) == "{\n  \"layout\" : \"de\",\n  \"volume\" : 40\n}\n")
    }

    @Test func theTraceSettingsLineNamesTheLayout() {
        let configuration = RunConfiguration(mute: false, volume: 100, limit: nil, windowSize: Size(width: 480, height: 800),
                                             language: .en, scale: 1, layout: "de")
        #expect(TraceEvent.settings(configuration).json(at: 0).serialized.contains(#""language":"en","layout":"de","size""#))
    }
}
