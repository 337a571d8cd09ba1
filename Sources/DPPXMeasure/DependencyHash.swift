import DPPXCore

/// The hash a page's measurements are kept under: of every file it loaded (by its bytes), the
/// size of every image it was given, and the viewport ladder. Recomputed from the layout file's
/// own list of dependencies, it says whether a page must be measured again without loading it.
///
/// FNV-1a, 64 bits, twice with different offsets (128 bits): a change detector, not a defence.
public enum DependencyHash {
    /// The hash of `dependencies` (root-relative paths) as `responder` answers them now.
    public static func of(_ dependencies: [String], responder: SiteResponder, ladder: ViewportLadder) -> String {
        var hash = Hasher128()
        hash.add(Array("dppx-layout \(LayoutFile.currentVersion) \(ladder)".utf8))
        for path in dependencies.sorted() {
            hash.add(Array(path.utf8))
            if let size = responder.imageSizes[path] {
                hash.add(Array("size \(size.width)x\(size.height)".utf8))
            } else if let bytes = responder.read(path) {
                hash.add(Array("bytes \(bytes.count)".utf8))
                hash.add(bytes)
            } else {
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
            for byte in bytes + [0xff] {
                low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                high = (high ^ UInt64(byte ^ 0x5a)) &* 0x0000_0100_0000_01b3
            }
        }

        var hex: String {
            [high, low].map { value in
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
        }
    }
}
