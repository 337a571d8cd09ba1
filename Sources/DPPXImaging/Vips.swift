import CVips
import Foundation

/// The process-wide libvips runtime: started once, before the first image is touched.
public enum Vips {
    private static let started: Result<Void, ImagingError> = {
        cvips_return_large_buffers_promptly()
        guard cvips_init("dppx") == 0 else {
            return .failure(ImagingError(file: nil, reason: "libvips could not start: \(takeErrorText())"))
        }
        cvips_warnings_into_errors()
        // dppx keeps no decoded image around between operations: the operation cache would
        // only hold memory.
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        return .success(())
    }()

    /// Starts libvips if it is not running yet. Safe to call from any thread, any number of times.
    public static func start() throws(ImagingError) {
        try started.get()
    }

    /// Worker threads libvips uses inside one operation. A build running `jobs` images at once
    /// sets this to cores / jobs so that the two levels of parallelism do not oversubscribe.
    public static var threadsPerOperation: Int {
        get { Int(vips_concurrency_get()) }
        set { vips_concurrency_set(Int32(max(1, newValue))) }
    }

    /// The libvips version, for `--version` and bug reports.
    public static var version: String {
        "\(vips_version(0)).\(vips_version(1)).\(vips_version(2))"
    }

    /// Takes and clears libvips's error text. libvips keeps one buffer for the whole process,
    /// so concurrent failures can share a message; the caller adds the file name.
    public static func lastError() -> String { takeErrorText() }

    /// What `takeErrorText` says when libvips failed without a word.
    static let unknownError = "unknown libvips error"

    static func takeErrorText() -> String {
        guard let raw = cvips_error_take() else { return unknownError }
        defer { g_free(raw) }
        let text = String(cString: raw)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        var seen = Set<String>()
        let unique = text.filter { seen.insert($0).inserted }
        return unique.isEmpty ? unknownError : unique.joined(separator: "; ")
    }
}
