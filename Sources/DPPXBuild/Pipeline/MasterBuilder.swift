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
    }

    /// What `start` leaves to do.
    enum Started: Sendable {
        /// Nothing more (a vector image copied as it is).
        case finished(Result)
        /// Decoded: encode `job.outputs` (any order, any threads), then `finish`.
        case decoded(Job)
    }

    /// One decoded master and what its outputs produced so far.
    ///
    /// The job does not keep the decoded master itself: each output's `EncoderInput` does, as
    /// long as its encoder needs it. WebP inputs are taken from the master as the job is made,
    /// so a master whose outputs are all WebP is freed before any encode starts.
    final class Job: @unchecked Sendable {
        let source: SourceFile
        let sourceHash: String
        let master: MasterImage
        let plan: ImagePlan
        /// Largest first, so the last tasks of a build are its small ones. A JPEG XL that
        /// recompresses a JPEG output is not among them: it is its JPEG's companion.
        let outputs: [ImagePlan.Output]
        /// By index in `outputs`: the JPEG XL written from that JPEG output's bytes, in the
        /// same task (it needs them, and nothing else of the master).
        let companions: [Int: ImagePlan.Output]
        let warnings: [FileProblem]
        /// Made from the decoded master as the job starts; recorded in the manifest entry.
        let placeholder: ImagePlaceholder
        /// What the job holds until its last output is written: the decoded master while any
        /// input still reads from it, and the inputs taken from it.
        let heldBytes: Int
        /// The most it held at once, while the inputs were taken from the master.
        let peakBytes: Int

        /// Per output: its input no longer refers to the master (its resize has run).
        private let detached: [Bool]
        /// Whether the decoded pixels have alpha (an opaque alpha band is dropped on decode).
        private let decodedHasAlpha: Bool

        private let lock = NSLock()
        /// Released one by one as the outputs are encoded.
        private var inputs: [EncoderInput?]
        private var remaining: Int
        private var files: [String: (bytes: Int, hash: String)] = [:]
        /// What `auto` qualities chose, by path.
        private var searched: [String: Manifest.QualitySearchResult] = [:]
        /// JPEG XL outputs written losslessly, which the manifest says of them.
        private var lossless: Set<String> = []
        /// Outputs that are the master's own bytes (`keepsMasterBytes`), which the manifest says.
        private var masterBytes: Set<String> = []
        /// Extra-format outputs encoded but not yet written: each is written only if smaller
        /// than the master-format file of its density, known once every output is encoded.
        private var held: [String: [UInt8]] = [:]
        private var written = 0
        private var failure: FileProblem?
        /// The build's encoder settings with this master's rule applied.
        let encodeSettings: EncodeSettings

        /// Takes every output's encoder input from `decoded`.
        init(source: SourceFile, sourceHash: String, master: MasterImage, plan: ImagePlan, decoded: DecodedImage,
             placeholder: ImagePlaceholder, encode settings: EncodeSettings, warnings: [FileProblem]) throws(ImagingError) {
            self.placeholder = placeholder
            self.encodeSettings = settings
            self.source = source
            self.sourceHash = sourceHash
            self.master = master
            self.plan = plan
            let recompressed = plan.outputs.filter { Self.recompressesJPEG($0, plan: plan) }
            self.outputs = plan.outputs.filter { !Self.recompressesJPEG($0, plan: plan) }
                .sorted { $0.size.width * $0.size.height > $1.size.width * $1.size.height }
            var companions: [Int: ImagePlan.Output] = [:]
            for jxl in recompressed {
                if let index = outputs.firstIndex(where: { $0.format == .jpeg && $0.density == jxl.density && $0.size == jxl.size }) {
                    companions[index] = jxl
                }
            }
            self.companions = companions
            self.warnings = warnings
            self.remaining = outputs.count
            self.decodedHasAlpha = decoded.hasAlpha
            let inputs = try decoded.encoderInputs(for: outputs.map { ($0.size, $0.format) }, settings: settings,
                                                   losslessSource: master.format == .png, file: source.relativePath)
            // They were taken smallest first (the last of `outputs` first): a resize's
            // full-size copy is freed once taken, and the inputs already taken stay small
            // while the larger resizes run.
            var taken = 0
            var peak = decoded.byteCount
            for (output, input) in zip(outputs, inputs).reversed() {
                let resize = input.ownBytes > 0 && output.size != master.size
                    ? output.size.width * output.size.height * (decoded.hasAlpha ? 4 : 3)
                        + Self.resizeBuffers(width: master.size.width, alpha: decoded.hasAlpha) : 0
                peak = max(peak, decoded.byteCount + taken + resize + input.ownBytes)
                taken += input.ownBytes
            }
            self.inputs = inputs
            self.detached = inputs.map { !$0.holdsImage }
            self.heldBytes = taken + (inputs.contains { $0.holdsImage } ? decoded.byteCount : 0)
            self.peakBytes = peak
        }

        /// Whether `output` is the lossless recompression of the JPEG output of its density: a
        /// JPEG XL variant of a master whose own variants are JPEG (the same pixels, fewer bytes).
        static func recompressesJPEG(_ output: ImagePlan.Output, plan: ImagePlan) -> Bool {
            output.format == .jxl && plan.primaryFormat == .jpeg
        }

        /// The encoder input of `outputs[index]`, handed out once.
        func takeInput(_ index: Int) -> EncoderInput? {
            lock.withLock {
                defer { inputs[index] = nil }
                return inputs[index]
            }
        }

        /// About how much memory writing `outputs[index]` takes beyond what the job holds: a
        /// resized copy where the encoder needs one in memory (libvips's WebP and AVIF savers),
        /// the encoder's own buffers (measured: libwebp 1 to 5 bytes a pixel beyond its input,
        /// depending on how detailed the image is; libaom through libheif 20 to 28 bytes a
        /// pixel at effort 2), the encoded bytes.
        func memoryEstimate(ofOutput index: Int) -> Int {
            let output = outputs[index]
            let pixels = output.size.width * output.size.height * master.frames
            // Only the encoder's own buffers: the input is held by the job already.
            if detached[index] { return pixels * 4 }
            let bands = decodedHasAlpha ? 4 : 3
            let resizedCopy = output.size == master.size ? 0 : pixels * bands
            let resize = output.size == master.size ? 0 : Self.resizeBuffers(width: master.size.width, alpha: decodedHasAlpha)
            // A quality search holds the resized pixels, each attempt's decoded file and the
            // score's rows (about 2.4 KB a column for all six scales, it streams them; twice
            // that while a core is idle and the score takes two threads).
            let search = encodeSettings.quality(for: output.format) == .auto ? pixels * 2 * bands + output.size.width * 5120 : 0
            // libjxl's recompression of the JPEG written (measured: about 19 bytes a pixel).
            let companion = companions[index] == nil ? 0 : pixels * 20
            switch output.format {
            // A WebP search also holds its sharp YUV input (1.5 bytes a pixel) through its
            // steps: the encoder's share below covers it, for no step holds the encoder's
            // buffers and a decoded attempt at once. Converting it takes strips of 288 rows
            // (about 3.6 KB a column), freed before the first step.
            case .webp: return search + resize + resizedCopy + pixels * 4 + pixels / 2
            // A searched AVIF may be 4:4:4 (below 2x, and at 2x where 4:2:0 falls short), whose
            // encode takes half as much again (measured on a 3840x2400 variant at effort 2: 189 MB
            // in 4:2:0, 281 MB in 4:4:4).
            case .avif, .heic: return search + resize + resizedCopy + pixels * (search > 0 ? 42 : 28)
            // libvips's JPEG XL saver copies the image whole; libjxl 0.7 then works in float
            // (measured, lossless at effort 7: 100 bytes a pixel on one thread, more on two).
            case .jxl: return search + resize + resizedCopy + pixels * 150
            case .png, .jpeg: return search + resize + pixels + companion
            case .gif, .tiff, .svg: return resize + pixels * bands
            }
        }

        /// libvips's buffers while it resizes a master `width` pixels wide (measured: about 500
        /// lines of it, in float when alpha is premultiplied: 31 MB for a 3840-pixel RGBA).
        static func resizeBuffers(width: Int, alpha: Bool) -> Int {
            width * 512 * (alpha ? 16 : 4)
        }

        /// Whether an output already failed: the others need not be encoded.
        var hasFailed: Bool { lock.withLock { failure != nil } }

        /// Whether the search for `output` (if any) found a file reaching its target.
        func reachedTarget(_ output: ImagePlan.Output, _ searched: [String: Manifest.QualitySearchResult]) -> Bool {
            guard let search = searched[output.path] else { return true }
            return search.reachesTarget
        }

        /// Records what an `auto` quality chose for the output at `path`.
        func recordSearch(_ search: Manifest.QualitySearchResult, for path: String) {
            lock.withLock { searched[path] = search }
        }

        /// Records that the output at `path` was written losslessly.
        func recordLossless(_ path: String) {
            lock.withLock { _ = lossless.insert(path) }
        }

        /// Records that the output at `path` is the master's own bytes.
        func recordMasterBytes(_ path: String) {
            lock.withLock { _ = masterBytes.insert(path) }
        }

        /// Keeps `bytes` of an extra-format output until `finish` knows whether it is smaller.
        func hold(_ bytes: [UInt8], for path: String) {
            lock.withLock { held[path] = bytes }
        }

        /// The held extra-format outputs, handed out once.
        fileprivate func takeHeld() -> [String: [UInt8]] {
            lock.withLock {
                defer { held = [:] }
                return held
            }
        }

        /// Records one output and its companion; true when it was the last.
        func record(_ outcome: Swift.Result<[(path: String, bytes: Int, hash: String, written: Bool)], FileProblem>) -> Bool {
            lock.withLock {
                switch outcome {
                case .success(let done):
                    for file in done {
                        files[file.path] = (file.bytes, file.hash)
                        if file.written { self.written += 1 }
                    }
                case .failure(let error):
                    if failure == nil { failure = error }
                }
                remaining -= 1
                return remaining == 0
            }
        }

        fileprivate func outcome() -> Swift.Result<(files: [String: (bytes: Int, hash: String)], searched: [String: Manifest.QualitySearchResult],
                                                    lossless: Set<String>, masterBytes: Set<String>, written: Int), FileProblem> {
            lock.withLock {
                if let failure { return .failure(failure) }
                return .success((files, searched, lossless, masterBytes, written))
            }
        }
    }


    func start(_ source: SourceFile, sourceHash: String) throws(FileProblem) -> Started {
        try reportingAsFileProblem(source) { () throws -> Started in
            let master = try MasterOpener.open(source, limits: options.limits)
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
                let bytes = try AtomicFile.read(source.absolutePath)
                let output = plan.outputs[0]
                let written = plan.isMaster(output) ? false : try outputFolder.writeIfChanged(bytes, to: output.path)
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
            return .decoded(try Job(source: source, sourceHash: sourceHash, master: master, plan: plan, decoded: decoded,
                                    placeholder: placeholder, encode: settings, warnings: warnings))
        }
    }

    /// Writes `job.outputs[index]`. Failures are recorded in the job; true when this was the
    /// job's last output. `scoreThreads`: how many threads a quality search's next score may take.
    func encode(_ job: Job, output index: Int, scoreThreads: () -> Int = { 1 }) -> Bool {
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
                var bytes: [UInt8]
                var search: Manifest.QualitySearchResult?
                if let input {
                    let encoded = try Encoder.encode(input, settings: job.encodeSettings, density: output.density,
                                                     scoreThreads: scoreThreads, file: job.source.relativePath)
                    bytes = encoded.bytes
                    search = encoded.choice
                } else {
                    throw FileProblem(file: job.source.relativePath, reason: "\(output.path) was handed out twice (a dppx bug; please report it)")
                }
                if let own = try masterBytes(job, output),
                   Self.keepsMasterBytes(own: own.count, encoded: bytes.count, format: output.format, search: search) {
                    bytes = own
                    search = nil
                    job.recordMasterBytes(output.path)
                }
                if let search { job.recordSearch(search, for: output.path) }
                if input?.lossless == true { job.recordLossless(output.path) }
                // Extra formats (the JPEG's JPEG XL companion too) wait for `finish`, which
                // writes only those smaller than the master-format file they would replace.
                var files: [(path: String, bytes: Int, hash: String, written: Bool)] = []
                if output.format != job.plan.primaryFormat {
                    job.hold(bytes, for: output.path)
                    files.append((output.path, bytes.count, ContentHash.sha256(bytes), false))
                } else {
                    let written = try outputFolder.writeIfChanged(bytes, to: output.path)
                    files.append((output.path, bytes.count, ContentHash.sha256(bytes), written))
                }
                if let companion = job.companions[index] {
                    let jxl = try Encoder.recompressJPEG(bytes, settings: job.encodeSettings, file: job.source.relativePath)
                    job.hold(jxl, for: companion.path)
                    job.recordLossless(companion.path)
                    files.append((companion.path, jxl.count, ContentHash.sha256(jxl), false))
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
    /// (a WebP larger than its JPEG helps nobody: browsers would fetch more, and OUT grow).
    func finish(_ job: Job) throws(FileProblem) -> Result {
        let held = job.takeHeld()
        switch job.outcome() {
        case .failure(let failure):
            throw failure
        case .success(let done):
            var files = done.files
            var written = done.written
            var notSmaller: [NotSmallerFile] = []
            var underTarget: [UnderTargetFile] = []
            let primary = job.plan.outputs.filter { $0.format == job.plan.primaryFormat }
            for output in job.plan.outputs where output.format != job.plan.primaryFormat {
                guard let bytes = held[output.path] else { continue }
                let replaced = primary.first { $0.density == output.density }
                if let replaced, files[replaced.path] != nil, let search = done.searched[output.path],
                   !job.reachedTarget(output, done.searched), job.reachedTarget(replaced, done.searched) {
                    files[output.path] = nil
                    underTarget.append(UnderTargetFile(path: output.path, score: search.score,
                                                       target: search.target, replaces: replaced.path))
                    continue
                }
                if let replaced, let replacedBytes = files[replaced.path]?.bytes, bytes.count >= replacedBytes {
                    files[output.path] = nil
                    notSmaller.append(NotSmallerFile(path: output.path, bytes: bytes.count, replaces: replaced.path, replacedBytes: replacedBytes))
                    continue
                }
                let wrote = try reportingAsFileProblem(job.source) { try outputFolder.writeIfChanged(bytes, to: output.path) }
                if wrote { written += 1 }
            }
            var image = job.plan.manifestImage(sourceHash: job.sourceHash, files: files, searched: done.searched,
                                                   lossless: done.lossless, masterBytes: done.masterBytes)
            image.variants.removeAll { files[$0.path] == nil }
            image.placeholder = job.placeholder
            return Result(image: image, warnings: job.warnings, filesWritten: written, notSmaller: notSmaller,
                          underTarget: underTarget)
        }
    }

    /// The master's own bytes with its metadata removed by a lossless edit, for an output in
    /// its format at its own size whose pixels need no conversion (a JPEG may keep its ICC
    /// profile, a PNG has none; a rotated master is re-encoded upright): what
    /// `keepsMasterBytes` weighs against the re-encode. Nil for other outputs, and for a file
    /// the edit does not take (an APNG, an arithmetic-coded JPEG).
    private func masterBytes(_ job: Job, _ output: ImagePlan.Output) throws -> [UInt8]? {
        let master = job.master
        guard output.format == master.format, output.size == master.size else { return nil }
        switch master.format {
        case .jpeg where master.isShownAsDecoded:
            return JPEGSegments.strippingMetadata(try AtomicFile.read(job.source.absolutePath))
        case .png where master.isDisplayReady:
            return PNGChunks.strippingMetadata(try AtomicFile.read(job.source.absolutePath))
        default:
            return nil
        }
    }

    /// Whether an own-size output is the master's own bytes (`own` of them) rather than its
    /// re-encode (`encoded`): a master already sized for the web must not be made worse. A PNG
    /// is lossless either way: the smaller is kept (the master's on a tie). A JPEG re-encode is a
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
