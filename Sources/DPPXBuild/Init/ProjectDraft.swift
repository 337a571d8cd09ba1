import DPPXCore
import DPPXFiles
import Foundation

/// The `dppx.toml` that `dppx init` writes for a surveyed site, and why each setting is what
/// it is: the site's images built where its pages name them (in place), AVIF and WebP at
/// `quality = "auto"` offered in `<picture>`, its pages rewritten by every `dppx build`, and
/// measured where Chromium is found.
///
/// An adopted site is set up for the fewest bytes per page view, which plain `dppx build SRC
/// --out OUT` does not default to (its defaults are what Makefiles and scripts rely on):
/// docs/build.md, "Defaults of an init-ed project".
public struct ProjectDraft: Sendable {
    /// One decision, said as `dppx init` prints it: `images: site/img ...`.
    public struct Choice: Sendable, Equatable {
        public let topic: String
        public let reason: String
    }

    public let survey: SiteSurvey
    /// The Chromium executable found, nil when there is none: the pages are then not measured.
    public let browser: String?

    /// The formats written beside each master's own: AVIF first, the smallest.
    public static let formats: [ImageFormat] = [.avif, .webp]

    public init(survey: SiteSurvey, browser: String?) {
        self.survey = survey
        self.browser = browser
    }

    /// The image folder the site serves, relative to the project's folder.
    public var imagesOut: String { SiteSurvey.join(survey.siteRoot, survey.imageFolder) }
    /// Where the masters are: the served folder itself (in place), or the folder a generator
    /// copies them from.
    public var imagesSource: String { survey.masterFolder ?? imagesOut }
    /// The site's root, as the project file names it.
    public var siteRoot: String { SiteSurvey.join(survey.siteRoot) }

    /// Folders of the site's tooling (`node_modules`) inside the images' source, relative to it:
    /// each gets a `[[rule]]` that leaves it out of the build.
    public var excludedFolders: [String] {
        let source = imagesSource == "." ? "" : imagesSource
        return survey.toolingFolders.compactMap { SiteSurvey.relative(of: $0, under: source) }
    }

    /// `[rewrite] pages`: every page under the site's root, and the stylesheets' folders'.
    public var pagePatterns: [String] {
        var patterns = [SiteSurvey.join(survey.siteRoot, "**/*.html")]
        for sheet in survey.stylesheets {
            let folder = (sheet as NSString).deletingLastPathComponent
            let pattern = SiteSurvey.join(survey.siteRoot, folder, "*.css")
            if !patterns.contains(pattern) { patterns.append(pattern) }
        }
        return patterns
    }

    /// The command to run next, from the folder `dppx init` ran in.
    public var nextCommand: String {
        survey.folder == "." ? "dppx build" : "cd \(Self.shellQuoted(survey.folder)) && dppx build"
    }

    /// What was chosen, and why, in the order the file has it.
    public var choices: [Choice] {
        let pages = survey.pages.count
        let sheets = survey.stylesheets.count
        let images = survey.images.count
        let cssOnly = survey.stylesheetOnlyImages.count
        var choices: [Choice] = []
        let rootWhy = switch survey.rootEvidence {
        case .index: survey.siteRoot.isEmpty ? "this folder holds index.html" : "the shallowest folder with an index.html"
        case .commonFolder: "no index.html: the folder holding every page"
        }
        choices.append(Choice(topic: "pages", reason: "\(pages) page\(pages == 1 ? "" : "s") \(survey.siteRoot.isEmpty ? "in the site's folder" : "under \(siteRoot)/") (\(rootWhy))"
            + (sheets == 0 ? "" : sheets == 1 ? " and the stylesheet they load" : " and the \(sheets) stylesheets they load")
            + ", rewritten by each dppx build: [rewrite] pages = \(Self.array(pagePatterns))"))
        let named = (images == 1 ? "the image" : "the \(images) images") + " the pages name" + (cssOnly == 0 ? "" : " (\(cssOnly) only from stylesheets)")
        if let masters = survey.masterFolder {
            choices.append(Choice(topic: "images", reason: "\(imagesOut) holds \(named), copies of the files in \(masters) (the same bytes at the same paths): built from \(masters) into \(imagesOut)"))
        } else {
            choices.append(Choice(topic: "images", reason: "\(imagesOut) holds \(named), the site's own: built in place, each master keeping its name and bytes, the variants beside it"))
        }
        if let folder = excludedFolders.first {
            choices.append(Choice(topic: "note", reason: "\(SiteSurvey.join(imagesSource, folder))\(excludedFolders.count > 1 ? " and \(excludedFolders.count - 1) more" : "") left out of the build by a [[rule]]: tooling, not the site's images"))
        }
        if !survey.missingImages.isEmpty {
            let missing = survey.missingImages
            choices.append(Choice(topic: "note", reason: "\(missing.count) image\(missing.count == 1 ? "" : "s") named but not there (such as \(missing[0])): left out"))
        }
        choices.append(Choice(topic: "formats", reason: "AVIF and WebP beside every image, each kept only where smaller; quality = \"auto\" in every format: each file the smallest that reaches the same SSIMULACRA2 target"))
        if browser != nil {
            choices.append(Choice(topic: "picture", reason: "<picture> with an AVIF and a WebP <source>: a plain srcset offers one format only; each page is checked in Chromium before it is written, and one whose layout the wrappers change is left as it was"))
        } else {
            choices.append(Choice(topic: "picture", reason: "off: a <picture> wrapper can change what the page's CSS selectors match (.card > img), and without Chromium no rewritten page is checked; with Chromium installed, set picture = true and measure = true"))
        }
        if let browser {
            choices.append(Choice(topic: "measuring", reason: "Chromium found (\(browser)): each image gets the exact sizes of its boxes and each rewritten page is checked before it is written"))
        } else {
            choices.append(Choice(topic: "measuring", reason: "off: no Chromium on PATH; install it (apt install chromium) and set measure = true, for exact sizes and a check of each rewritten page"))
        }
        return choices
    }

    /// The project file's text.
    public var text: String {
        var lines: [String] = [
            "# dppx.toml, written by dppx init: every key is explained in docs/project-file.md, and a flag",
            "# overrides it for one run.",
            "",
            "[build]",
        ]
        if let masters = survey.masterFolder {
            lines.append("# The site generator copies the images from \(masters) into \(imagesOut).")
        } else {
            lines.append("# In place: each master keeps its name and bytes, its variants are written beside it.")
        }
        lines += [
            "\(SettingRegistry.source.key) = \(Self.string(imagesSource))",
            "\(SettingRegistry.output.key) = \(Self.string(imagesOut))",
            "# Extra encodings, each kept only where smaller than the JPEG or PNG file.",
            "\(SettingRegistry.formats.key) = \(Self.array(Self.formats.map(\.rawValue)))",
            "# Every format at auto: the smallest file that reaches the quality target.",
            "\(SettingRegistry.jpegQuality.key) = \"\(EncoderQuality.auto)\"",
            "\(SettingRegistry.webpQuality.key) = \"\(EncoderQuality.auto)\"",
            "\(SettingRegistry.avifQuality.key) = \"\(EncoderQuality.auto)\"",
            "",
            "[rewrite]",
            "# Rewritten after each dppx build: srcset, sizes and <picture> added, every other byte kept.",
            "\(SettingRegistry.rewritePages.key) = \(Self.array(pagePatterns))",
            "\(SettingRegistry.rewriteRoot.key) = \(Self.string(siteRoot))",
        ]
        if browser != nil {
            lines += ["# AVIF and WebP reach a page only in a <picture>; each rewritten page is checked in Chromium.",
                      "\(SettingRegistry.rewritePicture.key) = true"]
        } else {
            lines += ["# A <picture> can change what the page's CSS selectors match: only checked pages get one.",
                      "\(SettingRegistry.rewritePicture.key) = false"]
        }
        if let browser {
            lines.append("# Chromium found at \(browser): the pages are measured for exact sizes.")
            lines.append("\(SettingRegistry.rewriteMeasure.key) = true")
        } else {
            lines.append("# No Chromium was found: install it (apt install chromium) and set true for exact sizes.")
            lines.append("\(SettingRegistry.rewriteMeasure.key) = false")
        }
        for folder in excludedFolders {
            lines += ["", "# Tooling, not the site's images.", "[[rule]]", "match = \(Self.string("/" + folder + "/**"))", "exclude = true"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `text` as the folder's `dppx.toml`; never over one that is there.
    public func write() throws(InitError) -> String {
        let path = SiteSurvey.join(survey.folder, ProjectFile.fileName)
        if FileStatus.at(path) != nil { throw .exists(path) }
        do { try AtomicFile.write(Array(text.utf8), to: path) } catch { throw .file(error) }
        return path
    }

    /// A TOML basic string.
    public static func string(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    static func array(_ items: [String]) -> String {
        "[" + items.map(string).joined(separator: ", ") + "]"
    }

    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789/._-".unicodeScalars.contains($0) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
