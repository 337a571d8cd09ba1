import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation

/// Turns one master into its variant files in three steps, so a build can spread one
/// master's outputs over every core: `start` reads the header, plans and decodes once;
/// `encode` writes one output (resize, encode, atomic write) and may run on any thread, several
/// at a time for the same master; `finish` gathers the manifest entry once all are done.
struct MasterBuilder: Sendable {
    let options: BuildOptions
    /// Where every output is written: OUT, never through a link; in place (SRC is OUT), never
    /// over a file dppx did not write.
    let outputFolder: OutputFolder

    init(options: BuildOptions, outputFolder: OutputFolder? = nil) {
        self.options = options
        self.outputFolder = outputFolder ?? OutputFolder(root: options.outputRoot)
    }

    /// The only writer of the variant files.
    private var writer: VariantWriter { VariantWriter(folder: outputFolder) }

    /// Whether the variants go beside the masters.
    private var inPlace: Bool { outputFolder.owned != nil }

    struct Result: Sendable {
        var image: Manifest.Image
        var warnings: [FileProblem]
        var filesWritten: Int
        /// Extra-format files not written because they were not smaller than the file of the
        /// master's format they would replace.
        var notSmaller: [NotSmallerFile] = []
        /// Extra-format files not written because no quality reached their target.
        var underTarget: [UnderTargetFile] = []
        /// Own-size PNG files that are the master's bytes, alpha band opaque everywhere included
        /// (`BuildReport.recompressible`).
        var recompressible: [String] = []
    }

    /// What `start` leaves to do.
    enum Started: Sendable {
        /// Nothing more (a vector image copied as it is).
        case finished(Result)
        /// Decoded: encode `job.outputs` (any order, any threads), then `finish`.
        case decoded(MasterJob)
    }

    /// `bytes`: the master's file as read once (and hashed: `sourceHash`); everything is made from them.
    func start(_ source: SourceFile, bytes: [UInt8], sourceHash: String) throws(FileProblem) -> Started {
        try reportingAsFileProblem(source) { () throws -> Started in
            let master = try MasterOpener.open(source, bytes: bytes, limits: options.limits)
            let plan = ImagePlan(name: source.name, source: source.relativePath, masterSize: master.size,
                                 hasAlpha: master.hasAlpha, animated: master.frames > 1, settings: options.plan, inPlace: inPlace)
            var warnings = Self.warnings(for: plan)
            guard !plan.outputs.isEmpty else {
                throw FileProblem(file: source.relativePath, reason: "has no density to write: it is a \(plan.masterDensity)x master and every density asked for (\(options.densities.map(\.description).joined(separator: ", "))) is above it; add a lower density or pass --upscale")
            }
            if master.frames > 1 {
                warnings.append(FileProblem(file: source.relativePath, reason: "is animated (\(master.frames) frames); the animation is kept in every variant"))
            }
            if plan.densityIndependent {
                let output = plan.outputs[0]
                let written = plan.isMaster(output) ? false : try writer.write(bytes, to: output.path, of: source)
                let files = [output.path: (bytes: bytes.count, hash: ContentHash.sha256(bytes))]
                var image = plan.manifestImage(sourceHash: sourceHash, files: files)
                image.placeholder = .vector
                return .finished(Result(image: image,
                                        warnings: warnings, filesWritten: written ? 1 : 0))
            }
            let settings = options.encode.applying(plan.rule)
            let decoded = try master.decode()
            // From the decoded pixels, before the encoder inputs take them.
            let placeholder = try PlaceholderMaker.make(from: decoded, frames: master.frames, file: source.relativePath)
            return .decoded(try MasterJob(source: source, sourceHash: sourceHash, master: master, plan: plan, decoded: decoded,
                                    placeholder: placeholder, encode: settings, warnings: warnings))
        }
    }

    /// Writes `job.outputs[index]`. Failures are recorded in the job; true when this was the
    /// job's last output. `scoreThreads`: how many threads a quality search's next score may take.
    func encode(_ job: MasterJob, output index: Int, scoreThreads: () -> Int = { 1 }) -> Bool {
        let output = job.outputs[index]
        guard !job.hasFailed else {
            return job.record(.failure(FileProblem(file: job.source.relativePath, reason: "skipped")))
        }
        do throws(FileProblem) {
            let files = try reportingAsFileProblem(job.source) { () throws -> [(path: String, bytes: Int, hash: String, written: Bool)] in
                // Taken either way, so the master is released once every output is done with it.
                let input = job.takeInput(index)
                // In place, the output at the master's own name is the master, as it is.
                if job.plan.isMaster(output) { return [(output.path, job.source.byteCount, job.sourceHash, false)] }
                guard let input else {
                    throw FileProblem(file: job.source.relativePath, reason: "\(output.path) was handed out twice (a dppx bug; please report it)")
                }
                var bytes: [UInt8]
                var search: Manifest.QualitySearchResult?
                let own = masterBytes(job, output)
                if let own, output.format == .png, job.encodeSettings.recompressPNG != true {
                    // Lossless either way: without `recompress-png`, not worth a full-size encode.
                    bytes = own
                    job.recordMasterBytes(output.path)
                } else {
                    let encoded = try Encoder.encode(input, settings: job.encodeSettings, density: output.density,
                                                     scoreThreads: scoreThreads, file: job.source.relativePath)
                    bytes = encoded.bytes
                    search = encoded.choice
                    if let own, Self.keepsMasterBytes(own: own.count, encoded: bytes.count, format: output.format, search: search) {
                        bytes = own
                        search = nil
                        job.recordMasterBytes(output.path)
                    }
                }
                if let search { job.recordSearch(search, for: output.path) }
                if input.lossless { job.recordLossless(output.path) }
                // Extra formats (the JPEG's JPEG XL companion too) wait for `finish`, which
                // writes only those smaller than the master-format file they would replace.
                var files = [try writer.place(bytes, as: output.path, format: output.format, of: job)]
                if let companion = job.companions[index] {
                    let jxl = try Encoder.recompressJPEG(bytes, settings: job.encodeSettings, file: job.source.relativePath)
                    job.recordLossless(companion.path)
                    files.append(try writer.place(jxl, as: companion.path, format: companion.format, of: job))
                }
                return files
            }
            return job.record(.success(files))
        } catch {
            return job.record(.failure(error))
        }
    }

    /// The manifest entry once every output of `job` is encoded: the extra-format files
    /// smaller than the master-format file of their density are written, the others left out
    /// (`VariantWriter.writeHeld`).
    func finish(_ job: MasterJob) throws(FileProblem) -> Result {
        let held = job.takeHeld()
        switch job.outcome() {
        case .failure(let failure):
            throw failure
        case .success(let done):
            let extras = try writer.writeHeld(held, of: job, files: done.files, searched: done.searched, written: done.written)
            let files = extras.files
            var image = job.plan.manifestImage(sourceHash: job.sourceHash, files: files, searched: done.searched,
                                                   lossless: done.lossless, masterBytes: done.masterBytes)
            image.variants.removeAll { files[$0.path] == nil }
            image.placeholder = job.placeholder
            // Kept as the master's bytes though a re-encode would drop an alpha band that is
            // opaque everywhere: what `recompress-png` would shrink.
            let recompressible = job.encodeSettings.recompressPNG == true || !job.dropsOpaqueAlpha ? []
                : job.outputs.filter { $0.format == .png && done.masterBytes.contains($0.path) }.map(\.path)
            return Result(image: image, warnings: job.warnings, filesWritten: extras.written, notSmaller: extras.notSmaller,
                          underTarget: extras.underTarget, recompressible: recompressible)
        }
    }

    /// The master's own bytes with its metadata removed by a lossless edit, for an output in
    /// its format at its own size whose pixels need no conversion (a JPEG may keep its ICC
    /// profile, a PNG has none; a rotated master is re-encoded upright): what
    /// `keepsMasterBytes` weighs against the re-encode. Nil for other outputs, and for a file
    /// the edit does not take (an APNG, an arithmetic-coded JPEG).
    private func masterBytes(_ job: MasterJob, _ output: ImagePlan.Output) -> [UInt8]? {
        let master = job.master
        guard output.format == master.format, output.size == master.size else { return nil }
        switch master.format {
        case .jpeg where master.isShownAsDecoded:
            return JPEGSegments.strippingMetadata(master.bytes)
        case .png where master.isDisplayReady:
            return PNGChunks.strippingMetadata(master.bytes)
        default:
            return nil
        }
    }

    /// Whether an own-size output is the master's own bytes (`own` of them) rather than its
    /// re-encode (`encoded`): a master already sized for the web must not be made worse. A PNG
    /// is lossless either way: the smaller is kept (the master's on a tie); it is re-encoded only
    /// under `recompress-png`, the master's bytes kept without an encode otherwise. A JPEG re-encode is a
    /// second generation of artefacts, worth it only at least 10 % smaller, and under `auto`
    /// (`search`) only at its target.
    static func keepsMasterBytes(own: Int, encoded: Int, format: ImageFormat, search: Manifest.QualitySearchResult?) -> Bool {
        if format == .png { return own <= encoded }
        if let search, !search.reachesTarget { return true }
        return encoded * 10 > own * 9
    }

    /// Runs `body`, turning imaging and file errors into a failure that names the master.
    private func reportingAsFileProblem<T>(_ source: SourceFile, _ body: () throws -> T) throws(FileProblem) -> T {
        do {
            return try body()
        } catch let error as ImagingError {
            throw FileProblem(file: source.relativePath, reason: error.reason)
        } catch let error as FileError {
            throw FileProblem(file: source.relativePath, reason: error.description)
        } catch let error as FileProblem {
            throw error
        } catch {
            throw FileProblem(file: source.relativePath, reason: String(describing: error))
        }
    }

    static func warnings(for plan: ImagePlan) -> [FileProblem] {
        var warnings: [FileProblem] = []
        // Skipped densities are not a problem: only a master whose density was stated has any (one
        // that states nothing keeps its own size), and the build's summary says in one line what
        // such masters were not upscaled to (BuildReport.notUpscaledNote).
        if !plan.skippedWidths.isEmpty {
            let list = plan.skippedWidths.map { "\($0)w" }.joined(separator: ", ")
            warnings.append(FileProblem(file: plan.source, reason: "skipped \(list): the master is \(plan.cssSize.width) px wide and dppx does not upscale; its own width is the widest file"))
        }
        for skipped in plan.skippedFormats {
            warnings.append(FileProblem(file: plan.source, reason: "no \(skipped.format.rawValue) variants: \(skipped.reason)"))
        }
        return warnings
    }
}
