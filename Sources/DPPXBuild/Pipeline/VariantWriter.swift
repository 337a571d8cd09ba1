import DPPXCore
import DPPXFiles
import DPPXImaging

/// The one writer of a master's variant files, and where it is decided when each is written:
/// a vector master's copy at once; a master-format output as soon as it is encoded, so its
/// bytes need not wait in memory; an extra-format output (the JPEG's JPEG XL companion too)
/// held in its `MasterJob` until `MasterBuilder.finish`, then written only if smaller than the
/// master-format file of its density (a WebP larger than its JPEG helps nobody: browsers would
/// fetch more, and OUT grow). Every write is atomic and skipped when OUT already holds the same
/// bytes (`OutputFolder`: never through a link; in place, never over a file dppx did not write).
struct VariantWriter: Sendable {
    let folder: OutputFolder

    /// An output as the manifest lists it, and whether this build wrote it.
    typealias File = (path: String, bytes: Int, hash: String, written: Bool)

    /// Writes `bytes` as `path`, one of `source`'s variants; true when the file changed.
    func write(_ bytes: [UInt8], to path: String, of source: SourceFile) throws(FileProblem) -> Bool {
        do {
            return try folder.writeIfChanged(bytes, to: path)
        } catch {
            throw FileProblem(file: source.relativePath, reason: error.description)
        }
    }

    /// An encoded output of `job`: written now in the master's format, held in the job in any
    /// other (for `writeHeld`, once every output is encoded).
    func place(_ bytes: [UInt8], as path: String, format: ImageFormat, of job: MasterJob) throws(FileProblem) -> File {
        if format != job.plan.primaryFormat {
            job.hold(bytes, for: path)
            return (path, bytes.count, ContentHash.sha256(bytes), false)
        }
        let written = try write(bytes, to: path, of: job.source)
        return (path, bytes.count, ContentHash.sha256(bytes), written)
    }

    /// What writing a job's held extra formats left.
    struct HeldOutcome {
        /// Every file the manifest lists: those left out are removed.
        var files: [String: (bytes: Int, hash: String)]
        /// How many files were written, the master-format ones included.
        var written: Int
        var notSmaller: [NotSmallerFile] = []
        var underTarget: [UnderTargetFile] = []
    }

    /// Writes the extra-format files `held` of `job` that are smaller than the master-format
    /// file of their density (`files`, encoded and written already), and reached their target
    /// where that file did; the others are left out, each with the reason.
    func writeHeld(_ held: [String: [UInt8]], of job: MasterJob, files: [String: (bytes: Int, hash: String)],
                   searched: [String: Manifest.QualitySearchResult], written: Int) throws(FileProblem) -> HeldOutcome {
        var outcome = HeldOutcome(files: files, written: written)
        let primary = job.plan.outputs.filter { $0.format == job.plan.primaryFormat }
        for output in job.plan.outputs where output.format != job.plan.primaryFormat {
            guard let bytes = held[output.path] else { continue }
            let replaced = primary.first { $0.density == output.density }
            if let replaced, outcome.files[replaced.path] != nil, let search = searched[output.path],
               !job.reachedTarget(output, searched), job.reachedTarget(replaced, searched) {
                outcome.files[output.path] = nil
                outcome.underTarget.append(UnderTargetFile(path: output.path, score: search.score,
                                                           target: search.target, replaces: replaced.path))
                continue
            }
            if let replaced, let replacedBytes = outcome.files[replaced.path]?.bytes, bytes.count >= replacedBytes {
                outcome.files[output.path] = nil
                outcome.notSmaller.append(NotSmallerFile(path: output.path, bytes: bytes.count, replaces: replaced.path, replacedBytes: replacedBytes))
                continue
            }
            if try write(bytes, to: output.path, of: job.source) { outcome.written += 1 }
        }
        return outcome
    }
}
