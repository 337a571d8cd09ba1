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

    @Test("odd sizes: the box rounds half up (301x201 @2x gives 151x101), a variant is the box times its density rounded up")
    func oddMaster() {
        let plan = SizePlan(master: PixelSize(width: 301, height: 201), masterDensity: Density(2), densities: standard, allowUpscale: false)
        #expect(plan.cssSize == PixelSize(width: 151, height: 101))
        #expect(plan.variants[0].size == plan.cssSize)
        #expect(plan.variants[1].size == PixelSize(width: 227, height: 152), "226.5 x 151.5, up: never a density below 1.5")
        #expect(plan.variants[2].size == PixelSize(width: 301, height: 201))
    }

    @Test("below the master's density, a variant's pixels over its density are never less than the box", arguments: [
        (301, 201, 2.0), (999, 333, 3.0), (1001, 667, 2.625), (17, 11, 2.0), (4001, 2999, 1.75),
    ] as [(Int, Int, Double)])
    func neverBelowNominal(width: Int, height: Int, masterDensity: Double) {
        let densities = [Density(1), Density(1.25), Density(1.5), Density(2), Density(2.625), Density(3)]
        let plan = SizePlan(master: PixelSize(width: width, height: height), masterDensity: Density(masterDensity), densities: densities, allowUpscale: false)
        for variant in plan.variants where variant.density < Density(masterDensity) {
            #expect(variant.size.width * 1000 >= plan.cssSize.width * variant.density.milli, "\(variant)")
            #expect(variant.size.height * 1000 >= plan.cssSize.height * variant.density.milli, "\(variant)")
            #expect(variant.size.width <= width && variant.size.height <= height)
        }
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

    @Test("each side is the box times the density rounded up: never below it, less than a pixel above; aspect kept as well as pixels allow",
          arguments: [(3640, 2400), (3840, 2400), (4096, 4096), (999, 333), (17, 1001)])
    func aspect(width: Int, height: Int) {
        let plan = SizePlan(master: PixelSize(width: width, height: height), masterDensity: Density(2),
                            densities: [Density(1), Density(1.25), Density(1.5), Density(1.75), Density(2)], allowUpscale: false)
        for variant in plan.variants where variant.density < Density(2) {
            let boxWidth = Double(plan.cssSize.width) * variant.density.value, boxHeight = Double(plan.cssSize.height) * variant.density.value
            #expect(Double(variant.size.width) >= boxWidth && Double(variant.size.width) < boxWidth + 1)
            #expect(Double(variant.size.height) >= boxHeight && Double(variant.size.height) < boxHeight + 1)
            // The box is the master halved and rounded (half a pixel off at most, times the density),
            // then rounded up: close to the master's own proportion.
            let slack = 0.5 * variant.density.value + 1
            #expect(abs(Double(variant.size.width) - Double(width) * variant.density.value / 2) < slack)
            #expect(abs(Double(variant.size.height) - Double(height) * variant.density.value / 2) < slack)
        }
        #expect(plan.variants.last?.size == PixelSize(width: width, height: height))
    }
}
