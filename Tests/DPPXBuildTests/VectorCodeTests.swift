import DPPXCore
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

/// libvips before 8.15 runs its vector code through liborc, whose 0.4.33 (Debian 12) corrupts
/// memory when reduce operations compile and free their programs on several threads at once.
/// dppx resizes several masters at once, so the C target puts liborc's compile and free under
/// one lock, and the vector code is on only where libvips's calls go through it.
@Suite("libvips's ORC vector code, behind one lock")
struct VectorCodeTests {
    @Test("on Linux with a libvips that uses liborc, libvips's compiles and frees go through the lock and the vector code is on; off without the lock unless DPPX_VIPS_VECTOR=1")
    func onBehindTheLock() throws {
        try Vips.start()
        #expect(Vips.usesORC == Vips.version.hasPrefix("8.") && (Int(Vips.version.split(separator: ".")[1]) ?? 99) < 15)
        let asked = ProcessInfo.processInfo.environment["DPPX_VIPS_VECTOR"]
        #if os(Linux)
        if Vips.usesORC { #expect(Vips.orcLockInstalled, "libvips reaches liborc without dppx's lock: is orc_program_compile exported from the binary?") }
        #endif
        if Vips.usesORC {
            let expected = asked == "1" || (asked != "0" && Vips.orcLockInstalled)
            #expect(Vips.vectorCodeEnabled == expected)
        }
    }

    @Test("a resize with the vector code on compiles and frees its ORC programs through the lock",
          .enabled(if: Vips.usesORC && ProcessInfo.processInfo.environment["DPPX_VIPS_VECTOR"] != "0"))
    func resizeGoesThroughTheLock() throws {
        try Vips.start()
        #if os(Linux)
        try #require(Vips.orcLockInstalled && Vips.vectorCodeEnabled)
        #endif
        let scratch = ScratchFolder("dppx-orc-lock")
        try TestImages.write(scratch("master.png"), width: 300, height: 200)
        let before = Vips.orcLockedCalls
        do {
            let master = try MasterImage(path: scratch("master.png"), limits: DecodeLimits(maxPixels: 1_000_000))
            let resized = try master.decode().resized(to: PixelSize(width: 131, height: 87))
            _ = try Encoder.encode(resized, as: .png, settings: EncodeSettings(), losslessSource: true, file: "master.png")
        }
        #expect(Vips.orcLockedCalls > before)
    }
}
