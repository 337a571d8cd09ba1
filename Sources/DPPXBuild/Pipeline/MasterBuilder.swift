import DPPXCore
import DPPXImaging
import Foundation

/// Turns one master into its variant files: header, plan, one decode, a resize per density,
/// an encode per format, atomic writes.
struct MasterBuilder: Sendable {
    let options: BuildOptions

    struct Result: Sendable {
        var image: Manifest.Image
        var warnings: [BuildFailure]
        var filesWritten: Int
    }

    func build(_ source: SourceFile, sourceHash: String) throws(BuildFailure) -> Result {
        do {
            let master = try MasterOpener.open(source, maxPixels: options.maxPixels)
            let plan = ImagePlan(name: source.name, source: source.relativePath, masterSize: master.size,
                                 hasAlpha: master.hasAlpha, animated: master.frames > 1, settings: options.plan)
            var warnings = Self.warnings(for: plan)
            guard !plan.outputs.isEmpty else {
                throw BuildFailure(file: source.relativePath, reason: "has no density to write: it is a \(plan.masterDensity)x master and every density asked for (\(options.densities.map(\.description).joined(separator: ", "))) is above it; add a lower density or pass --upscale")
            }
            var files: [String: (bytes: Int, hash: String)] = [:]
            var written = 0
            if plan.densityIndependent {
                let bytes = try AtomicFile.read(source.absolutePath)
                let output = plan.outputs[0]
                if try AtomicFile.writeIfChanged(bytes, to: outputPath(output.path)) { written += 1 }
                files[output.path] = (bytes.count, ContentHash.sha256(bytes))
            } else {
                let decoded = try master.decode()
                for density in Array(Set(plan.outputs.map(\.density))).sorted() {
                    let outputs = plan.outputs.filter { $0.density == density }
                    let resized = try decoded.resized(to: outputs[0].size)
                    for output in outputs {
                        let bytes = try Encoder.encode(resized, as: output.format, settings: options.encode,
                                                       losslessSource: master.format == .png, file: source.relativePath)
                        if try AtomicFile.writeIfChanged(bytes, to: outputPath(output.path)) { written += 1 }
                        files[output.path] = (bytes.count, ContentHash.sha256(bytes))
                    }
                }
            }
            if master.frames > 1 {
                warnings.append(BuildFailure(file: source.relativePath, reason: "is animated (\(master.frames) frames); the animation is kept in every variant"))
            }
            return Result(image: plan.manifestImage(sourceHash: sourceHash, files: files),
                          warnings: warnings, filesWritten: written)
        } catch let error as ImagingError {
            throw BuildFailure(file: source.relativePath, reason: error.reason)
        } catch let error as FileError {
            throw BuildFailure(file: source.relativePath, reason: error.description)
        } catch let error as BuildFailure {
            throw error
        } catch {
            throw BuildFailure(file: source.relativePath, reason: String(describing: error))
        }
    }

    private func outputPath(_ relative: String) -> String { options.outputRoot + "/" + relative }

    static func warnings(for plan: ImagePlan) -> [BuildFailure] {
        var warnings: [BuildFailure] = []
        if !plan.skippedDensities.isEmpty {
            let list = plan.skippedDensities.map { "\($0)x" }.joined(separator: ", ")
            warnings.append(BuildFailure(file: plan.source, reason: "skipped \(list): the master is \(plan.masterDensity)x and dppx does not upscale (name it @Nx if it is denser, or pass --upscale)"))
        }
        for skipped in plan.skippedFormats {
            warnings.append(BuildFailure(file: plan.source, reason: "no \(skipped.format.rawValue) variants: \(skipped.reason)"))
        }
        return warnings
    }
}

/// Opens a master's header with messages that say what is wrong with the file.
enum MasterOpener {
    static func open(_ source: SourceFile, maxPixels: Int) throws(BuildFailure) -> MasterImage {
        if source.byteCount == 0 {
            throw BuildFailure(file: source.relativePath, reason: "is empty (0 bytes); replace it with the image")
        }
        do {
            return try MasterImage(path: source.absolutePath, maxPixels: maxPixels)
        } catch {
            let reason = error.reason
            if reason.contains("is not a known file format") {
                throw BuildFailure(file: source.relativePath, reason: "is not an image libvips can read (its extension says \(source.name.format.rawValue)); replace or remove it")
            }
            throw BuildFailure(file: source.relativePath, reason: reason)
        }
    }
}
