import Foundation

/// The `dppx` executable under test: `DPPX_BINARY` when set, else the one SwiftPM built next to
/// the test bundle (`swift test` builds it with everything else).
public enum DPPXExecutable {
    public static let path: String = {
        if let configured = ProcessInfo.processInfo.environment["DPPX_BINARY"], !configured.isEmpty { return configured }
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = (runner as NSString).deletingLastPathComponent
        // On some platforms the runner sits inside a bundle folder.
        while !folder.isEmpty && folder != "/" {
            let candidate = folder + "/dppx"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue { return candidate }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return "dppx"
    }()
}
