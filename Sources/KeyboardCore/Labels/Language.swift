/// The language of the host screen's labels.
public enum Language: String, Hashable, Sendable, CaseIterable {
    /// Japanese, as in the seeds.
    case ja
    /// English.
    case en

    /// The language the POSIX locale asks for: the first of `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` that is set and not empty (their standard precedence); Japanese when it starts
    /// with `ja`, English otherwise (including `C` and `POSIX`).
    public static func fromLocale(environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                return value.lowercased().hasPrefix("ja") ? .ja : .en
            }
        }
        return .en
    }
}
