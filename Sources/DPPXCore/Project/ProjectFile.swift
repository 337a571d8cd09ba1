/// `dppx.toml`: the project's settings, read once by every command, so `dppx build`, `dppx css`,
/// `dppx html` and `dppx serve --watch` with no arguments do the same thing the same way.
///
/// ```toml
/// [build]
/// source = "masters"
/// out = "public/img"
/// densities = [1, 1.5, 2]
/// [[rule]]
/// match = "photos/**"
/// density = 1
/// ```
///
/// Every key is checked: an unknown key, a wrong type or a value out of range is an error
/// naming the line, the key and what is allowed. Folder paths are relative to the file's folder.
/// The keys, and what each takes, are those of `SettingRegistry`.
public enum ProjectFile {
    /// The file name looked for from the working folder up.
    public static let fileName = "dppx.toml"

    /// Reads `text`; `folder` is the file's folder, which relative paths in it are resolved
    /// against (`.` keeps them as written); `confinement`, where they may lead.
    public static func settings(parsing text: String, folder: String = ".",
                                confinement: PathConfinement? = nil) throws(ProjectFileError) -> ProjectSettings {
        let document = try TOMLDocument(parsing: text)
        var settings = ProjectSettings()
        for table in document.tables {
            let reader = TableReader(table: table, folder: folder, confinement: confinement)
            switch (ProjectTable(rawValue: table.name), table.isArrayElement) {
            case (nil, false) where table.name.isEmpty:
                if let entry = table.entries.first {
                    throw ProjectFileError(line: entry.line, key: entry.key, problem: "is outside any table; put it under [build], [css], [html], [serve] or [rewrite]")
                }
            case (.rule, true): settings.rules.append(try reader.readRule())
            case (.rule, false):
                throw ProjectFileError(line: table.line, key: "rule", problem: "is written [[rule]], with double brackets: there can be many")
            case (let kind?, false): try reader.read(kind, into: &settings)
            default:
                throw ProjectFileError(line: table.line, key: table.name, problem: "is not a table dppx knows; use [build], [css], [html], [serve], [rewrite] or [[rule]]")
            }
        }
        return settings
    }
}

/// Reads one table's entries: each key is looked up in `SettingRegistry` and read by its
/// setting, checked for its type and range.
private struct TableReader {
    let table: TOMLDocument.Table
    let folder: String
    let confinement: PathConfinement?

    func entry(_ entry: TOMLDocument.Entry) -> SettingEntry {
        SettingEntry(entry: entry, table: table.name, folder: folder, confinement: confinement)
    }

    func unknown(_ entry: TOMLDocument.Entry, known: [String]) -> ProjectFileError {
        self.entry(entry).fail("is not a key of [\(table.name)]\(table.isArrayElement ? "]" : ""); known keys: \(known.joined(separator: ", "))")
    }

    /// Reads `[build]`, `[css]`, `[html]`, `[serve]` or `[rewrite]` into `settings`.
    func read(_ kind: ProjectTable, into settings: inout ProjectSettings) throws(ProjectFileError) {
        let known = SettingRegistry.all.filter { $0.table == kind }
        for entry in table.entries {
            if kind == .build, entry.key == "shard" {
                throw self.entry(entry).fail("is not a project setting: a shard belongs to one job of many, so pass it to each job's command, e.g. dppx build --shard 2/4 (or --shard auto/4 in a Kubernetes Indexed Job), and remove it from the file")
            }
            guard let setting = known.first(where: { $0.key == entry.key }) else { throw unknown(entry, known: known.filter(\.isReadFromFile).map(\.key)) }
            try setting.read(self.entry(entry), &settings)
        }
    }

    /// Reads a `[[rule]]`: its `match`, and the keys of the settings a rule may hold.
    func readRule() throws(ProjectFileError) -> ImageRule {
        var rule = ImageRule(match: [])
        let known = SettingRegistry.all.filter { $0.inRules || $0.table == .rule }
        for entry in table.entries {
            if entry.key == "match" {
                rule.match = try self.entry(entry).patterns()
                continue
            }
            guard let setting = known.first(where: { $0.key == entry.key }) else {
                throw unknown(entry, known: ["match"] + known.map(\.key))
            }
            try setting.readRule(self.entry(entry), &rule)
        }
        guard !rule.match.isEmpty else {
            throw ProjectFileError(line: table.line, key: "rule", problem: "needs a match: which masters it is about, e.g. match = \"photos/**\"")
        }
        return rule
    }
}
