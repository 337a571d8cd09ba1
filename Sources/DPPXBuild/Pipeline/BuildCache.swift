import DPPXCore
import Foundation

/// `OUT/.dppx-cache.json`: what the last build knew about each master (size, modification
/// time, content hash) and the settings it used. It lets a no-op rebuild skip reading masters;
/// the content hash still decides whether a touched master is really changed.
struct BuildCache: Codable, Sendable {
    static let fileName = ".dppx-cache.json"

    struct Entry: Codable, Sendable {
        var bytes: Int
        var modified: Int64
        var hash: String
    }

    /// Identifies the settings (densities, formats, qualities, pipeline version) outputs were made with.
    var settings: String
    var sources: [String: Entry]

    init(settings: String, sources: [String: Entry] = [:]) {
        self.settings = settings
        self.sources = sources
    }

    /// The cached hash when size and modification time are unchanged.
    func knownHash(for source: SourceFile) -> String? {
        guard let entry = sources[source.relativePath], entry.bytes == source.byteCount,
              entry.modified == source.modified else { return nil }
        return entry.hash
    }

    static func load(from output: String) -> BuildCache? {
        guard let bytes = try? AtomicFile.read(output + "/" + fileName) else { return nil }
        return try? JSONDecoder().decode(BuildCache.self, from: Data(bytes))
    }

    func save(to output: String) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        try AtomicFile.writeIfChanged(Array(data), to: output + "/" + Self.fileName)
    }
}
