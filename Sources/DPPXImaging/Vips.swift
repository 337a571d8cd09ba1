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
        if usesORC, !vectorCodeWanted { cvips_set_vector_enabled(0) }
        // dppx keeps no decoded image around between operations: the operation cache would
        // only hold memory.
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        return .success(())
    }()

    /// Whether libvips runs its vector code through liborc (before 8.15; Highway since).
    /// liborc 0.4.33 (Debian 12) corrupts memory when one thread frees the ORC programs of a
    /// vertical reduce (every resize) while another compiles its own, and dppx resizes several
    /// masters at once: the C target takes one lock around liborc's compile and free
    /// (`orc_lock.c`), and the vector code stays on only where libvips's calls land there.
    public static var usesORC: Bool { vips_version(0) == 8 && vips_version(1) < 15 }

    /// Whether libvips's calls to liborc's compile and free go through dppx's lock.
    public static var orcLockInstalled: Bool { cvips_orc_lock_installed() != 0 }

    /// ORC compiles and frees that went through the lock so far (for tests).
    public static var orcLockedCalls: Int { cvips_orc_locked_calls() }

    /// On where liborc is locked (the vector paths take about a fifth less CPU than the C ones:
    /// docs/performance.md, "libvips's vector code"); `DPPX_VIPS_VECTOR=0` turns it off,
    /// `DPPX_VIPS_VECTOR=1` keeps it on where the lock is not in place, at the crash's risk.
    private static var vectorCodeWanted: Bool {
        switch ProcessInfo.processInfo.environment["DPPX_VIPS_VECTOR"] {
        case "0": false
        case "1": true
        default: orcLockInstalled
        }
    }

    /// Whether libvips's vector code is on (after `start`).
    public static var vectorCodeEnabled: Bool { cvips_vector_enabled() != 0 }

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

    /// Takes and clears libvips's error text; the caller adds the file name. For tests' own
    /// libvips calls: dppx's reads it through `attributed`.
    public static func lastError() -> String { takeErrorText() }

    /// Runs libvips work so that, if it fails, its error text is its own.
    ///
    /// libvips has one error buffer for the whole process, appended to by every thread (its own
    /// workers included) and never tied to a call: two masters failing at once on two threads
    /// would each read both reasons, or one would read none. So libvips work runs in shared
    /// sections, any number at once, and work that fails runs once more alone, with no other
    /// libvips work running and the buffer cleared first: the text it leaves is its own. Failures
    /// are rare and cost one more attempt; successes cost a lock. Nested calls join the
    /// outermost, which alone runs again. `body` must be safe to run twice (it opens its files
    /// itself, or reads images that stay valid).
    static func attributed<T>(_ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        let outermost = cvips_shared_begin() == 1
        do {
            let value = try body()
            cvips_shared_end()
            return value
        } catch {
            cvips_shared_end()
            guard outermost, error.code == .libvips else { throw error }
        }
        cvips_alone_begin()
        defer { cvips_alone_end() }
        return try body()
    }

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
