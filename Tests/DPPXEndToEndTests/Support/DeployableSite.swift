import DPPXTestSupport
import Foundation

/// What a deploy of a folder would ship broken: every URL of the site's own files that its pages
/// and stylesheets name (`src`, `srcset` candidates, `url()`), read with plain patterns of its own
/// (not dppx's parser), that is not a file under the folder. What every run of dppx must leave
/// empty.
enum DeployableSite {
    /// `page:URL` for each missing file, sorted; empty when every file named is there.
    static func missingFiles(under root: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: root)
        var missing: [String] = []
        while let item = walker?.nextObject() as? String {
            let lower = item.lowercased()
            guard lower.hasSuffix(".html") || lower.hasSuffix(".css"), !item.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  let text = try? String(contentsOfFile: root + "/" + item, encoding: .utf8) else { continue }
            let folder = (item as NSString).deletingLastPathComponent
            for url in urls(in: text) {
                guard !url.contains(":"), !url.hasPrefix("//"), !url.isEmpty else { continue }
                let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
                let decoded = path.removingPercentEncoding ?? path
                let full = decoded.hasPrefix("/") ? root + decoded : root + "/" + (folder.isEmpty ? "" : folder + "/") + decoded
                if !FileManager.default.fileExists(atPath: (full as NSString).standardizingPath) { missing.append("\(item):\(url)") }
            }
        }
        return missing.sorted()
    }

    /// The URLs in `src="..."`, each candidate of `srcset="..."` and `data-srcset`, and `url(...)`;
    /// the text of `<script>` elements is code, not markup, and is left out.
    static func urls(in page: String) -> [String] {
        let script = try! NSRegularExpression(pattern: #"<script\b[^>]*>[\s\S]*?</script>"#, options: [.caseInsensitive])
        let text = script.stringByReplacingMatches(in: page, range: NSRange(page.startIndex..., in: page), withTemplate: "<script>")
        var found: [String] = []
        let attribute = try! NSRegularExpression(pattern: #"\s(src|srcset|data-srcset)\s*=\s*"([^"]*)""#, options: [.caseInsensitive])
        let range = NSRange(text.startIndex..., in: text)
        for match in attribute.matches(in: text, range: range) {
            guard let nameRange = Range(match.range(at: 1), in: text), let valueRange = Range(match.range(at: 2), in: text) else { continue }
            let value = String(text[valueRange]).replacingOccurrences(of: "&amp;", with: "&")
            if text[nameRange].lowercased() == "src" {
                found.append(value.trimmingCharacters(in: .whitespaces))
            } else {
                for candidate in value.split(separator: ",") {
                    if let url = candidate.split(whereSeparator: \.isWhitespace).first { found.append(String(url)) }
                }
            }
        }
        let function = try! NSRegularExpression(pattern: #"url\(\s*["']?([^"')]*)["']?\s*\)"#, options: [.caseInsensitive])
        for match in function.matches(in: text, range: range) {
            if let valueRange = Range(match.range(at: 1), in: text) { found.append(String(text[valueRange])) }
        }
        return found
    }

    /// Every file under `root` (hidden ones too) with its modification time and size: equal
    /// before and after a run that wrote nothing.
    static func snapshot(of root: String) -> [String: String] {
        let walker = FileManager.default.enumerator(atPath: root)
        var files: [String: String] = [:]
        while let item = walker?.nextObject() as? String {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + item),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            files[item] = "\(modified) \(attributes[.size] as? Int ?? -1)"
        }
        return files
    }

    /// What changed between two snapshots: added, removed and rewritten files, sorted.
    static func changes(from before: [String: String], to after: [String: String]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }
}
