import DPPXImaging
import Foundation
import Testing

/// libvips before 8.15 runs its vector code through liborc, whose 0.4.33 (Debian 12) corrupts
/// memory when reduce operations compile and free their programs on several threads at once:
/// dppx, which resizes several masters at once, keeps that code off.
@Suite("libvips's ORC vector code is off")
struct VectorCodeTests {
    @Test("once libvips has started, its vector code is off where it runs through liborc, unless DPPX_VIPS_VECTOR=1")
    func offWithORC() throws {
        try Vips.start()
        let asked = ProcessInfo.processInfo.environment["DPPX_VIPS_VECTOR"] == "1"
        #expect(Vips.usesORC == Vips.version.hasPrefix("8.") && (Int(Vips.version.split(separator: ".")[1]) ?? 99) < 15)
        if Vips.usesORC, !asked { #expect(!Vips.vectorCodeEnabled) }
    }
}
