import DPPXImaging
import Foundation

extension MasterImage {
    /// Reads `path`, then opens it as the build does from the bytes it read
    /// (`init(path:bytes:limits:)`): tests that want one master without a build.
    public convenience init(path: String, limits: DecodeLimits) throws {
        try self.init(path: path, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), limits: limits)
    }
}
