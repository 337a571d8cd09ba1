import DPPXCore
import Testing

/// Thousands of damaged, cut and random files of every container format: no reader crashes,
/// loops or walks backwards, and what uses them (density insertion, metadata stripping,
/// counting) answers or refuses.
@Suite struct ByteFormatFuzzTests {
    typealias F = ByteFixtures

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let exif = ExifDensity(pixelSize: PixelSize(width: 301, height: 201), cssSize: PixelSize(width: 151, height: 101))!
    static let samples: [[UInt8]] = [
        F.jpeg, F.png, F.webp, F.animatedWebP(frames: 3), F.tiff(pages: 3),
        TIFFWriter.bytes([.init(tag: 1, value: .rational(numerator: 1, denominator: 2)), .init(tag: 2, value: .directory([.init(tag: 3, value: .short(4))]))], order: .littleEndian),
        F.gif(frames: 3), exif.tiff,
    ]

    /// Runs every reader and every user of them over `bytes`, checking that walks move forward.
    static func exercise(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            _ = ImageFormat(signature: raw)
            if var segments = JPEGSegmentReader(raw) {
                var last = 1
                while let segment = try? segments.next() {
                    #expect(segment.start > last && segment.end >= segment.start, "\(bytes)")
                    last = segment.start
                }
            }
            _ = JPEGSegmentReader.scanCount(in: raw, stoppingAfter: 1000)
            _ = JPEGSegmentReader.frameMarker(in: raw)
            if var chunks = PNGChunkReader(raw) {
                var last = 7
                while let chunk = try? chunks.next() {
                    #expect(chunk.start > last && chunk.end > chunk.start, "\(bytes)")
                    last = chunk.start
                }
            }
            if var chunks = RIFFChunkReader(raw) {
                var last = 11
                while let chunk = chunks.next() {
                    #expect(chunk.start > last && chunk.end > chunk.start, "\(bytes)")
                    last = chunk.start
                }
            }
            _ = RIFFChunkReader.webpFrameCount(in: raw)
            if let tiff = TIFFReader(raw) {
                for directory in tiff.directoryChain() {
                    for entry in tiff.entries(of: directory) {
                        _ = tiff.integer(entry)
                        _ = tiff.rational(entry)
                        _ = tiff.directory(pointedToBy: entry).map(tiff.entries(of:))
                    }
                }
            }
            _ = GIFBlocks.frameCount(in: raw)
        }
        for format in [ImageFormat.jpeg, .png] {
            if let insertion = try? DensityInsertion(inserting: exif, into: format, head: bytes) {
                #expect(insertion.resumeOffset <= bytes.count)
                #expect(insertion.prefix.starts(with: bytes[..<insertion.resumeOffset]))
            }
        }
        _ = PNGChunks.strippingMetadata(bytes)
        if let stripped = WebPChunks.strippingMetadata(bytes) {
            #expect(WebPChunks.names(stripped) != nil, "what is stripped is still a well-formed WebP")
        }
    }

    @Test func everyCutOfEveryFormat() {
        for sample in Self.samples {
            for length in 0...sample.count { Self.exercise(Array(sample.prefix(length))) }
        }
    }

    @Test func damagedFilesNeverCrashTheReaders() {
        var generator = Generator(state: 29)
        let hostile: [UInt8] = [0x00, 0x01, 0x02, 0x0C, 0x7F, 0x80, 0xD8, 0xD9, 0xDA, 0xE1, 0xFF, 0xFE, 0x2C, 0x21, 43, 42, 8]
        for _ in 0..<3000 {
            var bytes = Self.samples[generator.next(Self.samples.count)]
            for _ in 0..<(1 + generator.next(6)) {
                let index = generator.next(bytes.count)
                switch generator.next(4) {
                case 0: bytes[index] = hostile[generator.next(hostile.count)]
                case 1: bytes[index] = UInt8(generator.next(256))
                case 2: bytes.insert(contentsOf: (0..<generator.next(9)).map { _ in UInt8(generator.next(256)) }, at: index)
                default: bytes.removeSubrange(index..<min(bytes.count, index + generator.next(9)))
                }
                if bytes.isEmpty { break }
            }
            Self.exercise(bytes)
        }
    }

    @Test func randomBytesAfterEachSignature() {
        var generator = Generator(state: 5)
        let signatures: [[UInt8]] = [[0xFF, 0xD8, 0xFF], PNGChunkReader.signature, Array("RIFF\u{10}\0\0\0WEBP".utf8),
                                     Array("II*\0".utf8), Array("MM\0*".utf8), Array("II+\0\u{8}\0\0\0".utf8), Array("GIF89a".utf8)]
        for _ in 0..<3000 {
            let signature = signatures[generator.next(signatures.count)]
            Self.exercise(signature + (0..<generator.next(80)).map { _ in UInt8(generator.next(256)) })
        }
    }
}
