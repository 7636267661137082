import KeyboardCore

/// The layouts there are, by name, and which one a run uses: the user's own files
/// (`$XDG_CONFIG_HOME/hee-keyboard/layouts/NAME.json`), the shipped ones (`layouts/` in the
/// assets directory) and the built-in `en`. A user's file wins over a shipped one of its
/// name; a shipped `en.json` over the built-in copy.
public struct LayoutCatalog: Hashable, Sendable {
    /// Where a layout comes from.
    public enum Source: Hashable, Sendable {
        /// The user's layouts directory.
        case user
        /// The layouts installed with the app.
        case shipped
        /// `LayoutDefinition.english`, compiled in.
        case builtIn
    }

    /// The name of the layout used when none is chosen, and when a layout file is bad.
    public static let defaultName = "en"

    /// Names of the user's layout files (their names without `.json`).
    public var userNames: Set<String>
    /// Names of the shipped layout files.
    public var shippedNames: Set<String>

    /// A catalog of these layout files' names (invalid names are left out: `isValidName`).
    public init(userNames: Set<String>, shippedNames: Set<String>) {
        self.userNames = userNames.filter(LayoutFile.isValidName)
        self.shippedNames = shippedNames.filter(LayoutFile.isValidName)
    }

    /// Every layout name there is, sorted: the user's, the shipped ones and `en`.
    public var names: [String] {
        userNames.union(shippedNames).union([Self.defaultName]).sorted()
    }

    /// Where layout `name` comes from, or `nil` when there is none of that name.
    public func source(of name: String) -> Source? {
        if userNames.contains(name) { return .user }
        if shippedNames.contains(name) { return .shipped }
        return name == Self.defaultName ? .builtIn : nil
    }

    /// The layout this run uses and where it comes from.
    public struct Choice: Hashable, Sendable {
        /// The layout's name.
        public var name: String
        /// Where its definition comes from.
        public var source: Source
        /// Set when the saved setting named a layout there is none of: why `en` is used
        /// instead, in one line (`"layout" "fr" names no layout (there are de, en); using en`).
        public var warning: String?

        /// Layout `name` from `source`; `warning` when it is not the one asked for.
        public init(name: String, source: Source, warning: String? = nil) {
            self.name = name
            self.source = source
            self.warning = warning
        }
    }

    /// The layout to use: `--layout`'s if given (`flag`), else the saved setting's (`saved`),
    /// else the first of the globe key's layouts (`globe`, the saved `"layouts"`) that exists,
    /// else `en`.
    /// - Throws: `LaunchOptions.UsageError` when `flag` names no layout there is (the message
    ///   lists the names that exist); a saved name that exists nowhere is not an error: `en`
    ///   with a `warning`.
    public func choose(flag: String?, saved: String?, globe: [String] = []) throws(LaunchOptions.UsageError) -> Choice {
        if let flag {
            guard let source = source(of: flag) else {
                throw LaunchOptions.UsageError(message: "--layout \(flag): no such layout; there are \(names.joined(separator: ", "))")
            }
            return Choice(name: flag, source: source)
        }
        if let saved {
            if let source = source(of: saved) { return Choice(name: saved, source: source) }
            return Choice(name: Self.defaultName, source: source(of: Self.defaultName)!,
                          warning: "\"layout\" \"\(saved)\" names no layout (there are \(names.joined(separator: ", "))); using \(Self.defaultName)")
        }
        // A list of layouts without `en` (["mine"]) starts on its first, not on a layout the
        // user left out.
        if let first = globe.first(where: { source(of: $0) != nil }) { return Choice(name: first, source: source(of: first)!) }
        return Choice(name: Self.defaultName, source: source(of: Self.defaultName)!)
    }
}
