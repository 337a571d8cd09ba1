import DPPXCore
import DPPXFiles
import Foundation

extension URLBase {
    /// The URL base for a file written to `destination` (nil: stdout) that refers to variants in
    /// `imageRoot`: `baseURL` when given, else the relative path from the destination's folder
    /// to `imageRoot` (empty on stdout: URLs are relative to `imageRoot` itself).
    public static func forOutput(at destination: String?, imageRoot: String, baseURL: String? = nil,
                                 currentDirectory: String = WorkingFolder.path) -> URLBase {
        if let baseURL { return .absolute(baseURL) }
        guard let destination else { return .relative("") }
        func absolute(_ path: String) -> String {
            RelativePath.normalize(path.hasPrefix("/") ? path : currentDirectory + "/" + path)
        }
        let folder = (absolute(destination) as NSString).deletingLastPathComponent
        return .relative(RelativePath.from(folder, to: absolute(imageRoot)))
    }
}
