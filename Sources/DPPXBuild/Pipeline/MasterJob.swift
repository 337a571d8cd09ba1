import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation

/// One decoded master and what its outputs produced so far: made by `MasterBuilder.start`,
/// its outputs written by `MasterBuilder.encode` on any worker, several at a time, and its
/// manifest entry gathered by `MasterBuilder.finish`. `BuildQueue` weighs its tasks by the
/// memory they take (`heldBytes`, `memoryEstimate`).
///
/// The job does not keep the decoded master itself: each output's `EncoderInput` does, as
/// long as its encoder needs it. WebP inputs are taken from the master as the job is made,
/// so a master whose outputs are all WebP is freed before any encode starts.
final class MasterJob: @unchecked Sendable {
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
    /// Whether the master has an alpha band that is opaque everywhere, dropped on decode: its
    /// own bytes carry a band its re-encode would not.
    var dropsOpaqueAlpha: Bool { master.hasAlpha && !decodedHasAlpha }

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
    init(source: SourceFile, sourceHash: String, master: MasterImage, plan: ImagePlan, decoded: DecodedPixels,
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
        // The master's file bytes stay with the job too (an own-size output may keep them).
        var taken = master.bytes.count
        var peak = decoded.byteCount + taken
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
    func takeHeld() -> [String: [UInt8]] {
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

    /// What the outputs produced, or the first failure, once every output is recorded.
    func outcome() -> Swift.Result<(files: [String: (bytes: Int, hash: String)], searched: [String: Manifest.QualitySearchResult],
                                                lossless: Set<String>, masterBytes: Set<String>, written: Int), FileProblem> {
        lock.withLock {
            if let failure { return .failure(failure) }
            return .success((files, searched, lossless, masterBytes, written))
        }
    }
}
