#if canImport(Glibc)
import Glibc
#endif
import AppModel
import KeyboardCore

/// The layout files on disk: the user's (`$XDG_CONFIG_HOME/hee-keyboard/layouts/NAME.json`,
/// beside settings.json) and the shipped ones (`layouts/` in the assets directory), listed by
/// name and read the way the settings file is (a regular file of at most 1 MiB, nothing else
/// opened for reading).
///
/// A layout file that cannot be used gets one line on stderr naming the file and the place
/// in it, and the run uses the built-in `en` (`LayoutDefinition.english`).
struct LayoutFiles {
    /// The user's layouts directory, or `nil` when there is none to look in (no usable
    /// `XDG_CONFIG_HOME` or `HOME`, or a replay: replays read no user files).
    let userDirectory: String?
    /// The shipped layouts directory.
    let shippedDirectory: String

    /// - Parameters:
    ///   - settingsPath: where settings.json is (`SettingsFile.path`); the user's layouts are
    ///     in `layouts/` beside it. `nil`: no user layouts.
    ///   - assetsDirectory: the assets directory (`AssetLocator`).
    init(settingsPath: String?, assetsDirectory: String) {
        userDirectory = settingsPath.map { AssetLocator.join(AssetLocator.parentDirectory(of: $0), "layouts") }
        shippedDirectory = AssetLocator.join(assetsDirectory, "layouts")
    }

    /// The layouts there are, by name.
    var catalog: LayoutCatalog {
        LayoutCatalog(userNames: userDirectory.map(Self.names(in:)) ?? [], shippedNames: Self.names(in: shippedDirectory))
    }

    /// The file of layout `name` from `source`, or `nil` for the built-in one.
    func path(of name: String, from source: LayoutCatalog.Source) -> String? {
        let directory: String? = switch source {
        case .user: userDirectory
        case .shipped: shippedDirectory
        case .builtIn: nil
        }
        return directory.map { AssetLocator.join($0, name + LayoutFile.fileExtension) }
    }

    /// The layout `choice` names, read from its file; the built-in `en` when it has none or
    /// the file cannot be used (one line on stderr: `layout file PATH: PLACE: REASON; using
    /// the built-in en`).
    func load(_ choice: LayoutCatalog.Choice) -> LayoutDefinition {
        guard let path = path(of: choice.name, from: choice.source) else { return .english }
        switch read(path, name: choice.name) {
        case .success(let definition):
            return definition
        case .failure(let problem):
            Console.error("\(Console.program): layout file \(path): \(problem.reason); using the built-in \(LayoutCatalog.defaultName)")
            return .english
        }
    }

    /// The layouts the globe key switches between (`names`, the `layouts` setting, in its
    /// order), with `chosen` (the layout this run starts with) standing for its own name. A
    /// name that is no layout, or whose file cannot be used, is left out with one line on
    /// stderr.
    func loadGlobeLayouts(_ names: [String], chosen: LayoutDefinition, catalog: LayoutCatalog) -> [LayoutDefinition] {
        names.compactMap { name in
            if name == chosen.name { return chosen }
            // The emoji keyboard (issue 34): its keys are made from the emoji data once shown.
            if name == EmojiPanel.layoutName { return EmojiPanel.placeholder }
            guard let source = catalog.source(of: name) else {
                Console.error("\(Console.program): warning: \"layouts\" names \(name), which is no layout (there are \(catalog.names.joined(separator: ", "))); the globe key leaves it out")
                return nil
            }
            guard let path = path(of: name, from: source) else { return .english }
            switch read(path, name: name) {
            case .success(let definition):
                return definition
            case .failure(let problem):
                Console.error("\(Console.program): layout file \(path): \(problem.reason); the globe key leaves it out")
                return nil
            }
        }
    }

    /// Why a layout file could not be used, in one line.
    struct Unusable: Error { var reason: String }

    /// The layout in the file at `path`, found by `name`.
    private func read(_ path: String, name: String) -> Result<LayoutDefinition, Unusable> {
        let problem: String
        switch RegularFileRead.read(path, limit: LayoutFile.sizeLimit) {
        case .contents(let bytes, _):
            do {
                return .success(try LayoutFile.read(bytes, name: name))
            } catch {
                problem = error.description
            }
        case .missing:
            problem = "no such file"  // removed since the directory was listed
        case .notRegular(let kind):
            problem = "\(kind.rawValue), not a regular file"
        case .tooLarge(let size, _):
            problem = "larger than 1 MiB (\(size) bytes)"
        case .unreadable(let error):
            problem = "cannot be read: \(error.reason)"
        }
        return .failure(Unusable(reason: problem))
    }

    /// The names of the layout files in `directory` (`NAME.json` with a valid name, anything
    /// but a directory); none when it cannot be read.
    static func names(in directory: String) -> Set<String> {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: Set<String> = []
        while let entry = readdir(stream) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard file.hasSuffix(LayoutFile.fileExtension) else { continue }
            let name = String(file.dropLast(LayoutFile.fileExtension.count))
            guard LayoutFile.isValidName(name) else { continue }
            var info = stat()
            if stat(AssetLocator.join(directory, file), &info) == 0, info.st_mode & S_IFMT == S_IFDIR { continue }
            names.insert(name)
        }
        return names
    }
}
