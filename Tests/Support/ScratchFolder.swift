import Foundation

/// A fresh temporary folder per test, removed when the value is released.
public final class ScratchFolder: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "dppx") {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/\(label)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/relative`.
    public func callAsFunction(_ relative: String) -> String { path + "/" + relative }

    /// Every regular file under the folder, relative, sorted; hidden files included when asked.
    public func files(includingHidden: Bool = false) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
        var result: [String] = []
        while let item = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: self(item), isDirectory: &isDirectory)
            let hidden = item.split(separator: "/").contains { $0.hasPrefix(".") }
            if !isDirectory.boolValue && (includingHidden || !hidden) { result.append(item) }
        }
        return result.sorted()
    }

    /// Modification times of every file, to prove a run rewrote nothing.
    public func modificationTimes() -> [String: Date] {
        var times: [String: Date] = [:]
        for file in files(includingHidden: true) {
            times[file] = (try? FileManager.default.attributesOfItem(atPath: self(file)))?[.modificationDate] as? Date
        }
        return times
    }
}
