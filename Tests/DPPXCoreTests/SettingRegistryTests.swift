@testable import DPPXCore
import Foundation
import Testing

/// Each setting declared once (`SettingRegistry`): the project file's keys, rules, overlays and
/// bounds all follow from the declarations.
@Suite("The settings registry")
struct SettingRegistryTests {
    @Test("every key is unique in its table, and every key a rule may hold is named in the build's fingerprint or left out of it on purpose")
    func complete() {
        for table in ProjectTable.allCases {
            let keys = SettingRegistry.keys(of: table)
            #expect(Set(keys).count == keys.count, "a key twice in [\(table)]: \(keys)")
        }
        let names = SettingRegistry.all.compactMap(\.buildName)
        #expect(Set(names).count == names.count, "two settings under one name in a rule's encoding: \(names)")
        #expect(!names.contains("match"))
    }

    @Test("every setting declared in SettingRegistry.swift is listed in SettingRegistry.all (a missing one would be refused as an unknown key and left out of every help text)")
    func everyDeclarationListed() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/DPPXCore/Settings/SettingRegistry.swift")
        let source = try String(contentsOf: file, encoding: .utf8)
        let listStart = try #require(source.range(of: "static let all: [AnySetting] = ["))
        let list = source[listStart.upperBound...].prefix { $0 != "]" }
        let listed = Set(list.split(whereSeparator: { ", \n".contains($0) }).filter { $0.hasSuffix(".erased") }.map { String($0.dropLast(".erased".count)) })
        var declared: [String] = []
        var inRule = false
        for line in source.split(separator: "\n") {
            if line.contains("public enum Rule {") { inRule = true }
            guard let match = line.firstMatch(of: /static var (\w+): Setting</) else { continue }
            declared.append((inRule ? "Rule." : "") + match.1)
        }
        #expect(declared.count >= 50, "the declarations were not found: \(declared)")
        #expect(Set(declared) == listed, "declared, not in all: \(Set(declared).subtracting(listed).sorted()); in all, not declared: \(listed.subtracting(declared).sorted())")
        #expect(SettingRegistry.all.count == declared.count)
    }

    @Test("a setting is a property of ProjectSettings and of ImageRule by its name in the registry, kept by its setting")
    func properties() {
        var settings = ProjectSettings()
        settings.webpEffort = 6
        #expect(settings[SettingRegistry.webpEffort] == 6 && settings.webpEffort == 6)
        settings[SettingRegistry.port] = 3000
        #expect(settings.port == 3000 && settings != ProjectSettings())
        settings.webpEffort = nil
        settings.port = nil
        #expect(settings == ProjectSettings(), "saying nil is not saying")
        var rule = ImageRule(match: [PathGlob("**")], density: Density(1))
        rule.webpEffort = 5
        #expect(rule[SettingRegistry.Rule.density] == Density(1) && rule[SettingRegistry.webpEffort] == 5 && rule.cover == nil)
        // Same-named keys of two tables are two settings.
        settings.sizes = "50vw"
        #expect(settings.rewriteSizes == nil)
    }

    @Test("every declared setting is read from its table and overlaid by flags")
    func readAndOverlaid() throws {
        // A value of each key, set in the file: none may be dropped on the way to the settings.
        let file = try ProjectFile.settings(parsing: """
            [build]
            jxl-quality = 70
            max-frames = 20
            [css]
            placeholder = "blur"
            [html]
            placeholder = "color"
            """)
        #expect(file.jxlQuality == 70 && file.maxFrames == 20)
        #expect(file.placeholder == .blur && file.markupPlaceholder == .color)
        #expect(file.stylesheetOptions.placeholder == .blur)
        var flags = ProjectSettings()
        flags.markupPlaceholder = .blur
        flags.jxlQuality = 95
        let merged = file.overlaid(by: flags)
        #expect(merged.markupPlaceholder == .blur && merged.placeholder == .blur && merged.jxlQuality == 95 && merged.maxFrames == 20)
    }

    @Test("jxl-quality in a rule: read (a number or auto), range-checked, merged over earlier rules")
    func ruleJXLQuality() throws {
        let settings = try ProjectFile.settings(parsing: """
            [build]
            jxl-quality = 80
            [[rule]]
            match = "photos/**"
            jxl-quality = 60
            [[rule]]
            match = "photos/team/*"
            quality = 70
            """)
        #expect(settings.planSettings.rule(for: "photos/team/ann.jpg").jxlQuality == 60)
        #expect(settings.planSettings.rule(for: "photos/team/ann.jpg").jpegQuality == 70)
        #expect(settings.planSettings.rule(for: "logo.png").jxlQuality == nil)
        let auto = try ProjectFile.settings(parsing: "[build]\njxl-quality = \"auto\"\n[[rule]]\nmatch = \"a/**\"\njxl-quality = \"auto\"\n")
        #expect(auto.jxlQuality == .auto && auto.planSettings.rule(for: "a/b.png").jxlQuality == .auto)
        #expect {
            try ProjectFile.settings(parsing: "[[rule]]\nmatch = \"a/**\"\njxl-quality = 0\n")
        } throws: { error in
            String(describing: error).contains("rule.jxl-quality must be between 1 and 100, e.g. jxl-quality = 90; got 0")
        }
    }

    @Test("placeholder keys take what --placeholder takes, naming the table")
    func placeholderKeys() {
        for table in ["css", "html"] {
            #expect {
                try ProjectFile.settings(parsing: "[\(table)]\nplaceholder = \"thumbhash\"\n")
            } throws: { error in
                String(describing: error).contains("\(table).placeholder must be \"color\" or \"blur\", e.g. placeholder = \"color\"; got \"thumbhash\"")
            }
        }
    }

    @Test("a table's unknown key lists the table's keys from the registry; a rule's list starts with match")
    func knownKeys() {
        #expect {
            try ProjectFile.settings(parsing: "[css]\nfiles = \"a.css\"\n")
        } throws: { error in
            String(describing: error).contains("known keys: \(SettingRegistry.keys(of: .css).joined(separator: ", "))")
        }
        #expect {
            try ProjectFile.settings(parsing: "[[rule]]\nmatch = \"a\"\nqualty = 3\n")
        } throws: { error in
            let message = String(describing: error)
            return message.contains("known keys: match, formats, widths, quality,") && message.contains("jxl-quality") && message.contains("cover")
        }
    }

    @Test("defaults and bounds come from the declarations")
    func defaultsAndBounds() {
        #expect(SettingRegistry.jpegQuality.help.contains("(default: \(SettingRegistry.jpegQuality.fallback))"))
        #expect(SettingRegistry.densities.help.contains("(default: 1,1.5,2)"))
        #expect(SettingRegistry.qualityTargetHiDPI.help.contains("(default: 65, or 15 below --quality-target)"))
        #expect(SettingRegistry.jpegQuality.problem(with: .fixed(101))?.message(flags: true) == "--quality must be between 1 and 100, or auto, e.g. --quality 80; got 101")
        #expect(SettingRegistry.jpegQuality.problem(with: .auto) == nil)
        #expect(SettingRegistry.port.problem(with: 70000)?.message(flags: false) == "serve.port must be between 0 and 65535, e.g. port = 8080; got 70000")
        var settings = ProjectSettings()
        #expect(SettingRegistry.box.resolved(in: settings) == true)
        settings.box = false
        #expect(SettingRegistry.box.resolved(in: settings) == false)
        settings.jobs = 0
        #expect(settings.outOfBounds?.message(flags: true) == "--jobs must be between 1 and 256, e.g. --jobs 4; got 0")
    }
}
