import Foundation

/// The Python virtual environment that `scripts/install-deps --test` makes at `.build-venv/` in the
/// package folder, holding the independent implementations tests compare dppx with (PyPI packages
/// listed in that script's `python_packages`). `DPPX_TEST_VENV` names another one.
public enum TestVenv {
    /// Why a test that needs the environment cannot run: names the folder and the command that makes it.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The environment's folder.
    public static let folder: String = {
        if let configured = ProcessInfo.processInfo.environment["DPPX_TEST_VENV"], !configured.isEmpty { return configured }
        // Tests/Support/TestVenv.swift -> the package folder.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent(".build-venv").path
    }()

    /// The environment's python, checked to exist and to import `module`.
    public static func python(importing module: String) throws -> String {
        let python = folder + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Missing(description: "\(python) is missing: run scripts/install-deps --test to make the test environment")
        }
        let check = try ChildProcess.run(python, ["-c", "import \(module)"])
        guard check.status == 0 else {
            throw Missing(description: "\(python) cannot import \(module): add its PyPI package to python_packages in scripts/install-deps and run scripts/install-deps --test")
        }
        return python
    }
}
