import DPPXCore
import Testing

@Suite("Size plans")
struct SizePlanTests {
    let standard = [Density(1), Density(1.5), Density(2)]

    @Test("a 2x master gives half-size CSS and exact variant sizes")
    func evenMaster() {
        let plan = SizePlan(master: PixelSize(width: 800, height: 500), masterDensity: Density(2), densities: standard, allowUpscale: false)
        #expect(plan.cssSize == PixelSize(width: 400, height: 250))
        #expect(plan.variants.map(\.size) == [PixelSize(width: 400, height: 250), PixelSize(width: 600, height: 375), PixelSize(width: 800, height: 500)])
        #expect(plan.skipped.isEmpty)
    }

    @Test("odd sizes round half up, consistently: 301x201 @2x gives 151x101")
    func oddMaster() {
        let plan = SizePlan(master: PixelSize(width: 301, height: 201), masterDensity: Density(2), densities: standard, allowUpscale: false)
        #expect(plan.cssSize == PixelSize(width: 151, height: 101))
        #expect(plan.variants[0].size == plan.cssSize)
        #expect(plan.variants[1].size == PixelSize(width: 226, height: 151))
        #expect(plan.variants[2].size == PixelSize(width: 301, height: 201))
    }

    @Test("densities above the master's are skipped unless upscaling is allowed")
    func noUpscale() {
        let plan = SizePlan(master: PixelSize(width: 100, height: 80), masterDensity: Density(1), densities: standard, allowUpscale: false)
        #expect(plan.variants.map(\.density) == [Density(1)])
        #expect(plan.skipped == [Density(1.5), Density(2)])
        let upscaled = SizePlan(master: PixelSize(width: 100, height: 80), masterDensity: Density(1), densities: standard, allowUpscale: true)
        #expect(upscaled.variants.map(\.size) == [PixelSize(width: 100, height: 80), PixelSize(width: 150, height: 120), PixelSize(width: 200, height: 160)])
    }

    @Test("a 3x master: every variant is a third times its density")
    func threeX() {
        let plan = SizePlan(master: PixelSize(width: 360, height: 360), masterDensity: Density(3), densities: [Density(1), Density(2), Density(3)], allowUpscale: false)
        #expect(plan.variants.map(\.size.width) == [120, 240, 360])
    }

    @Test("tiny masters never reach zero pixels")
    func tiny() {
        let plan = SizePlan(master: PixelSize(width: 1, height: 1), masterDensity: Density(3), densities: standard, allowUpscale: false)
        #expect(plan.variants.allSatisfy { $0.size.width >= 1 && $0.size.height >= 1 })
    }

    @Test("each side is the exact scaled size rounded: aspect kept as well as pixels allow", arguments: [(3640, 2400), (3840, 2400), (4096, 4096), (999, 333), (17, 1001)])
    func aspect(width: Int, height: Int) {
        let plan = SizePlan(master: PixelSize(width: width, height: height), masterDensity: Density(2),
                            densities: [Density(1), Density(1.25), Density(1.5), Density(1.75), Density(2)], allowUpscale: false)
        for variant in plan.variants {
            let exactWidth = Double(width) * variant.density.value / 2, exactHeight = Double(height) * variant.density.value / 2
            #expect(abs(Double(variant.size.width) - exactWidth) <= 0.5)
            #expect(abs(Double(variant.size.height) - exactHeight) <= 0.5)
        }
    }
}
