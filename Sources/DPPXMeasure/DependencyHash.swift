import DPPXCore
import DPPXFiles

/// The hash a page's measurements are kept under: of every file it loaded (by its bytes), the
/// size of every image it was given, and the viewport ladder. Recomputed from the layout file's
/// own list of dependencies, it says whether a page must be measured again without loading it.
///
/// A file is hashed as it is read, a chunk at a time (`BoundedFile.stream`), never held whole;
/// a file larger than `SiteResponder.largestFile` by that alone (the page was answered 404), and a
/// folder (where a file the page asked for was missing) by the names in it a page could be
/// answered.
///
/// FNV-1a, 64 bits, twice with different offsets (128 bits): a change detector, not a defence.
public enum DependencyHash {
    /// The hash of `dependencies` (root-relative paths) as `responder` answers them now.
    public static func of(_ dependencies: [String], responder: SiteResponder, ladder: ViewportLadder) -> String {
        var hash = Hasher128()
        hash.add(Array("dppx-layout \(LayoutFile.currentVersion) \(ladder)".utf8))
        for path in dependencies.sorted() {
            hash.add(Array(path.utf8))
            if path.hasSuffix("/") {
                hash.add(Array("folder".utf8))
                for name in responder.names(inFolder: path) { hash.add(name) }
                continue
            }
            switch responder.entry(path) {
            case .image(let size):
                hash.add(Array("size \(size.width)x\(size.height)".utf8))
            case .bytes(let bytes):
                hash.add(Array("bytes \(bytes.count)".utf8))
                hash.add(bytes)
            case .file(let full):
                // As `add` would hash the bytes read whole: the same hashes as before streaming.
                var file = hash
                let size = FileStatus.at(full)?.size ?? 0
                file.add(Array("bytes \(size)".utf8))
                let read = BoundedFile.stream(full, atMost: SiteResponder.largestFile) { file.add(bytes: $0) }
                if case .read(let count) = read, count == size {
                    file.mix(0xff)
                    hash = file
                } else {
                    hash.add(Array("missing".utf8))
                }
            case .tooLarge:
                hash.add(Array("too large".utf8))
            case .missing, .refused:
                hash.add(Array("missing".utf8))
            }
        }
        return hash.hex
    }

    private struct Hasher128 {
        var low: UInt64 = 0xcbf2_9ce4_8422_2325
        var high: UInt64 = 0x6c62_272e_07bb_0142

        /// Adds `bytes` and a separator, so ("ab", "c") and ("a", "bc") differ.
        mutating func add(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { add(bytes: $0) }
            mix(0xff)
        }

        /// Adds `bytes` with no separator: a file's chunks, one after another.
        mutating func add(bytes: UnsafeRawBufferPointer) {
            for byte in bytes { mix(byte) }
        }

        mutating func mix(_ byte: UInt8) {
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            high = (high ^ UInt64(byte ^ 0x5a)) &* 0x0000_0100_0000_01b3
        }

        var hex: String {
            [high, low].map { value in
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
        }
    }
}
