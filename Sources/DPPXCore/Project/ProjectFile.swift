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
public enum ProjectFile {
    /// The file name looked for from the working folder up.
    public static let fileName = "dppx.toml"

    /// Reads `text`; `folder` is the file's folder, which relative paths in it are resolved
    /// against (`.` keeps them as written).
    public static func settings(parsing text: String, folder: String = ".") throws(ProjectFileError) -> ProjectSettings {
        let document = try TOMLDocument(parsing: text)
        var settings = ProjectSettings()
        for table in document.tables {
            var reader = TableReader(table: table, folder: folder)
            switch (table.name, table.isArrayElement) {
            case ("", false):
                if let entry = table.entries.first {
                    throw ProjectFileError(line: entry.line, key: entry.key, problem: "is outside any table; put it under [build], [css], [html], [serve] or [rewrite]")
                }
            case ("build", false): try reader.readBuild(into: &settings)
            case ("css", false): try reader.readCSS(into: &settings)
            case ("html", false): try reader.readHTML(into: &settings)
            case ("serve", false): try reader.readServe(into: &settings)
            case ("rewrite", false): try reader.readRewrite(into: &settings)
            case ("rule", true): settings.rules.append(try reader.readRule())
            case ("rule", false):
                throw ProjectFileError(line: table.line, key: "rule", problem: "is written [[rule]], with double brackets: there can be many")
            default:
                throw ProjectFileError(line: table.line, key: table.name, problem: "is not a table dppx knows; use [build], [css], [html], [serve], [rewrite] or [[rule]]")
            }
        }
        return settings
    }
}

/// Reads one table's entries, each checked for its type and range.
private struct TableReader {
    let table: TOMLDocument.Table
    let folder: String

    func qualified(_ key: String) -> String { "\(table.name).\(key)" }

    func fail(_ entry: TOMLDocument.Entry, _ problem: String) -> ProjectFileError {
        ProjectFileError(line: entry.line, key: qualified(entry.key), problem: problem)
    }

    func unknown(_ entry: TOMLDocument.Entry, known: [String]) -> ProjectFileError {
        fail(entry, "is not a key of [\(table.name)]\(table.isArrayElement ? "]" : ""); known keys: \(known.joined(separator: ", "))")
    }

    func string(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> String {
        guard case .string(let text) = entry.value else { throw fail(entry, "must be a string in quotes, e.g. \(entry.key) = \"...\"; got \(entry.value.kind)") }
        return text
    }

    func path(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> String {
        let text = try string(entry)
        guard !text.isEmpty else { throw fail(entry, "must name a file or folder; got an empty string") }
        if text.hasPrefix("/") || folder == "." || folder.isEmpty { return text }
        return (folder.hasSuffix("/") ? folder : folder + "/") + text
    }

    func bool(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> Bool {
        guard case .bool(let value) = entry.value else { throw fail(entry, "must be true or false; got \(entry.value.kind)") }
        return value
    }

    func integer(_ entry: TOMLDocument.Entry, _ range: ClosedRange<Int>, example: Int) throws(ProjectFileError) -> Int {
        guard case .integer(let value) = entry.value else {
            throw fail(entry, "must be a whole number, e.g. \(entry.key) = \(example); got \(entry.value.kind)")
        }
        guard range.contains(value) else {
            let allowed = range.upperBound == Int.max ? "a positive number" : "between \(range.lowerBound) and \(range.upperBound)"
            throw fail(entry, "must be \(allowed), e.g. \(entry.key) = \(example); got \(value)")
        }
        return value
    }

    /// An encoder quality: a whole number from 1 to 100, or "auto".
    func quality(_ entry: TOMLDocument.Entry, example: Int) throws(ProjectFileError) -> EncoderQuality {
        if case .string(let text) = entry.value {
            guard text.lowercased() == "auto" else { throw fail(entry, "must be a number from 1 to 100 or \"auto\", e.g. \(entry.key) = \(example) or \(entry.key) = \"auto\"; got \"\(text)\"") }
            return .auto
        }
        guard case .integer = entry.value else {
            throw fail(entry, "must be a number from 1 to 100 or \"auto\", e.g. \(entry.key) = \(example) or \(entry.key) = \"auto\"; got \(entry.value.kind)")
        }
        return .fixed(try integer(entry, 1...100, example: example))
    }

    /// A SSIMULACRA2 score from 0 to 100 (`quality-target`).
    func score(_ entry: TOMLDocument.Entry, example: Int) throws(ProjectFileError) -> Double {
        let value: Double
        switch entry.value {
        case .integer(let number): value = Double(number)
        case .float(let number): value = number
        default: throw fail(entry, "must be a score between 0 and 100, e.g. \(entry.key) = \(example); got \(entry.value.kind)")
        }
        guard QualityTargets.range.contains(value) else {
            throw fail(entry, "must be a score between 0 and 100, e.g. \(entry.key) = \(example); got \(describe(entry.value))")
        }
        return value
    }

    /// Reads the quality keys `[build]` and `[[rule]]` share; true when `entry` was one.
    func encoderQuality(_ entry: TOMLDocument.Entry, into settings: inout ProjectSettings) throws(ProjectFileError) -> Bool {
        if let bound = ProjectSettings.qualityBounds.first(where: { $0.flag == entry.key }) {
            settings[keyPath: bound.path] = try quality(entry, example: bound.example)
            return true
        }
        if let bound = ProjectSettings.targetBounds.first(where: { $0.flag == entry.key }) {
            settings[keyPath: bound.path] = try score(entry, example: bound.example)
            return true
        }
        return false
    }

    static var qualityKeys: [String] { ProjectSettings.qualityBounds.map(\.flag) + ProjectSettings.targetBounds.map(\.flag) }

    func density(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> Density {
        let density: Density?
        switch entry.value {
        case .integer(let value): density = Density(parsing: String(value))
        case .float(let value): density = Density(parsing: String(value))
        case .string(let text): density = Density(parsing: text)
        default: density = nil
        }
        guard let density else { throw fail(entry, "must be a density between 0 and 10, e.g. \(entry.key) = 2 or \"1.5x\"; got \(describe(entry.value))") }
        return density
    }

    func densities(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> [Density] {
        let text: String
        switch entry.value {
        case .string(let list): text = list
        case .array(let items):
            var parts: [String] = []
            for item in items {
                switch item {
                case .integer(let value): parts.append(String(value))
                case .float(let value): parts.append(String(value))
                case .string(let value): parts.append(value)
                default: throw fail(entry, "must list densities between 0 and 10, e.g. \(entry.key) = [1, 1.5, 2]; got \(item.kind) in the list")
                }
            }
            text = parts.joined(separator: ",")
        default: throw fail(entry, "must list densities, e.g. \(entry.key) = [1, 1.5, 2]; got \(entry.value.kind)")
        }
        do { return try Density.parseList(text) } catch { throw fail(entry, error.description) }
    }

    func widths(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> WidthRequest {
        let text: String
        switch entry.value {
        case .string(let word): text = word
        case .array(let items):
            var parts: [String] = []
            for item in items {
                guard case .integer(let value) = item else { throw fail(entry, "must list widths in pixels, e.g. \(entry.key) = [480, 960, 1440], or be \"auto\"; got \(item.kind) in the list") }
                parts.append(String(value))
            }
            text = parts.joined(separator: ",")
        default: throw fail(entry, "must list widths in pixels, e.g. \(entry.key) = [480, 960, 1440], or be \"auto\"; got \(entry.value.kind)")
        }
        do { return try WidthRequest(parsing: text) } catch { throw fail(entry, error.description) }
    }

    func formats(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> [ImageFormat] {
        var names: [String] = []
        switch entry.value {
        case .string(let list): names = [list]
        case .array(let items):
            for item in items {
                guard case .string(let name) = item else { throw fail(entry, "must list formats in quotes, e.g. formats = [\"webp\", \"avif\"]; got \(item.kind)") }
                names.append(name)
            }
            if names.isEmpty { return [] }
        default: throw fail(entry, "must list formats, e.g. formats = [\"webp\", \"avif\"]; got \(entry.value.kind)")
        }
        do { return try ImageFormat.parseList(names.joined(separator: ",")) } catch { throw fail(entry, error.description) }
    }

    /// One pattern in quotes or a list of them.
    func patterns(_ entry: TOMLDocument.Entry) throws(ProjectFileError) -> [PathGlob] {
        switch entry.value {
        case .string(let pattern): return [PathGlob(pattern)]
        case .array(let items):
            var patterns: [PathGlob] = []
            for item in items {
                guard case .string(let pattern) = item else { throw fail(entry, "must be patterns in quotes, e.g. match = [\"photos/**\", \"*.png\"]; got \(item.kind)") }
                patterns.append(PathGlob(pattern))
            }
            return patterns
        default: throw fail(entry, "must be a pattern in quotes, e.g. match = \"photos/**\"; got \(entry.value.kind)")
        }
    }

    func describe(_ value: TOMLDocument.Value) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        case .float(let number): String(number)
        default: value.kind
        }
    }

    /// Reads the number keys every table may hold, from `ProjectSettings.numberBounds`; true when `entry` was one.
    func number(_ entry: TOMLDocument.Entry, into settings: inout ProjectSettings) throws(ProjectFileError) -> Bool {
        guard let bound = ProjectSettings.numberBounds.first(where: { $0.key == qualified(entry.key) }) else { return false }
        settings[keyPath: bound.path] = try integer(entry, bound.range, example: bound.example)
        return true
    }

    mutating func readBuild(into settings: inout ProjectSettings) throws(ProjectFileError) {
        let known = ["source", "out", "densities", "source-density", "formats", "upscale", "widths", "templates", "fail-on"]
            + Self.qualityKeys + ProjectSettings.numberBounds.filter { $0.key.hasPrefix("build.") }.map { String($0.key.dropFirst(6)) }
        for entry in table.entries {
            switch entry.key {
            case "source": settings.source = try path(entry)
            case "out": settings.output = try path(entry)
            case "densities": settings.densities = try densities(entry)
            case "source-density": settings.sourceDensity = try density(entry)
            case "formats": settings.formats = try formats(entry)
            case "upscale": settings.upscale = try bool(entry)
            case "widths": settings.widths = try widths(entry)
            case "templates": settings.templates = try path(entry)
            case "fail-on":
                guard let level = FailOn(parsing: try string(entry)) else {
                    throw fail(entry, "must be \(FailOn.choices), e.g. fail-on = \"error\"; got \(describe(entry.value))")
                }
                settings.failOn = level
            case "shard":
                throw fail(entry, "is not a project setting: a shard belongs to one job of many, so pass it to each job's command, e.g. dppx build --shard 2/4 (or --shard auto/4 in a Kubernetes Indexed Job), and remove it from the file")
            default:
                if try encoderQuality(entry, into: &settings) { continue }
                if try !number(entry, into: &settings) { throw unknown(entry, known: known) }
            }
        }
    }

    mutating func readCSS(into settings: inout ProjectSettings) throws(ProjectFileError) {
        for entry in table.entries {
            switch entry.key {
            case "file": settings.stylesheet = try path(entry)
            case "prefix":
                let prefix = try string(entry)
                if let problem = StylesheetOptions.classPrefixProblem(prefix, spelled: { "prefix = \"\($0)\"" }) { throw fail(entry, problem) }
                settings.classPrefix = prefix
            case "strip": settings.stripPath = try string(entry)
            case "box": settings.box = try bool(entry)
            case "legacy": settings.legacy = try bool(entry)
            case "base-url": settings.baseURL = try string(entry)
            case "match": settings.cssMatch = try patterns(entry)
            default: throw unknown(entry, known: ["file", "prefix", "strip", "box", "legacy", "base-url", "match"])
            }
        }
    }

    mutating func readHTML(into settings: inout ProjectSettings) throws(ProjectFileError) {
        for entry in table.entries {
            switch entry.key {
            case "base-url": settings.markupBaseURL = try string(entry)
            case "sizes":
                let sizes = try string(entry)
                if let problem = MarkupSizes.problem(sizes, spelled: { "sizes = \"\($0)\"" }) { throw fail(entry, problem) }
                settings.sizes = sizes
            case "dimensions": settings.dimensions = try bool(entry)
            default: throw unknown(entry, known: ["base-url", "sizes", "dimensions"])
            }
        }
    }

    mutating func readServe(into settings: inout ProjectSettings) throws(ProjectFileError) {
        for entry in table.entries {
            switch entry.key {
            case "root": settings.serveRoot = try path(entry)
            case "host": settings.host = try string(entry)
            case "cache-control": settings.cacheControl = try string(entry)
            default: if try !number(entry, into: &settings) { throw unknown(entry, known: ["root", "host", "port", "cache-control", "idle-timeout"]) }
            }
        }
    }

    mutating func readRewrite(into settings: inout ProjectSettings) throws(ProjectFileError) {
        for entry in table.entries {
            switch entry.key {
            case "pages":
                let patterns: [String]
                switch entry.value {
                case .string(let text): patterns = [text]
                case .array(let values):
                    patterns = try values.map { value throws(ProjectFileError) -> String in
                        guard case .string(let text) = value, !text.isEmpty else { throw fail(entry, "must list page patterns in quotes, e.g. pages = [\"site/**/*.html\", \"site/css/*.css\"]; got \(describe(value))") }
                        return text
                    }
                default: throw fail(entry, "must list page patterns in quotes, e.g. pages = [\"site/**/*.html\"]; got \(entry.value.kind)")
                }
                settings.rewritePages = patterns.map { $0.hasPrefix("/") || folder == "." || folder.isEmpty ? $0 : (folder.hasSuffix("/") ? folder : folder + "/") + $0 }
            case "root": settings.rewriteRoot = try path(entry)
            case "base-url": settings.rewriteBaseURL = try string(entry)
            case "sizes":
                let sizes = try string(entry)
                if let problem = MarkupSizes.problem(sizes, spelled: { "sizes = \"\($0)\"" }) { throw fail(entry, problem) }
                settings.rewriteSizes = sizes
            case "dimensions": settings.rewriteDimensions = try bool(entry)
            case "picture": settings.rewritePicture = try bool(entry)
            case "placeholder":
                guard case .string(let text) = entry.value, let style = PlaceholderStyle(rawValue: text) else {
                    throw fail(entry, "must be \(PlaceholderStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), e.g. placeholder = \"color\"; got \(describe(entry.value))")
                }
                settings.rewritePlaceholder = style
            default: throw unknown(entry, known: ["pages", "root", "base-url", "sizes", "dimensions", "picture", "placeholder"])
            }
        }
    }

    func readRule() throws(ProjectFileError) -> ImageRule {
        var rule = ImageRule(match: [])
        for entry in table.entries {
            switch entry.key {
            case "match": rule.match = try patterns(entry)
            case "density": rule.density = try density(entry)
            case "width": rule.width = try integer(entry, 1...WidthRequest.maximumWidth, example: 300)
            case "widths": rule.widths = try widths(entry)
            case "sizes":
                let sizes = try string(entry)
                if let problem = MarkupSizes.problem(sizes, spelled: { "sizes = \"\($0)\"" }) { throw fail(entry, problem) }
                rule.sizes = sizes
            case "formats": rule.formats = try formats(entry)
            case "exclude": rule.exclude = try bool(entry)
            case "css": rule.css = try bool(entry)
            case "cover":
                guard let box = CoverBox(parsing: try string(entry)) else { throw fail(entry, "must be \(CoverBox.expected); got \(describe(entry.value))") }
                rule.cover = box
            default:
                var qualities = ProjectSettings()
                guard try encoderQuality(entry, into: &qualities) else {
                    throw unknown(entry, known: ["match", "density", "width", "widths", "sizes", "formats"] + Self.qualityKeys + ["exclude", "css", "cover"])
                }
                if let value = qualities.jpegQuality { rule.jpegQuality = value }
                if let value = qualities.webpQuality { rule.webpQuality = value }
                if let value = qualities.avifQuality { rule.avifQuality = value }
                if let value = qualities.qualityTarget { rule.qualityTarget = value }
                if let value = qualities.qualityTargetHiDPI { rule.qualityTargetHiDPI = value }
            }
        }
        guard !rule.match.isEmpty else {
            throw ProjectFileError(line: table.line, key: "rule", problem: "needs a match: which masters it is about, e.g. match = \"photos/**\"")
        }
        return rule
    }
}
