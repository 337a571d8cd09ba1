import Foundation

/// SSIMULACRA2 written plainly, for checking dppx's streaming version (CVips's ssimulacra2.c)
/// where PyPI's `ssimulacra2` cannot: under 256 px a side. It takes the scales as libjxl's
/// `ComputeSSIMULACRA2` loops over them (the published algorithm): the image is scored when both
/// sides are 8 or more, and each scale is halved into the next while both its sides still are,
/// so the last scale may be 4 to 7 px (PyPI's checks the size after halving, and stops a scale
/// sooner). The blur is the one dppx and PyPI share (11 taps of sigma 1.5, zero beyond the
/// left and right edges, mirrored at the top and bottom), the weights and the mapping to the
/// 100-point scale libjxl's. Whole planes in Double: slow, and clear.
enum ReferenceScore {
    /// A plane of `width` x `height` values, row by row.
    struct Plane {
        var width: Int, height: Int
        var values: [Double]

        subscript(x: Int, y: Int) -> Double { values[y * width + x] }
    }

    /// The score of `distorted` against `reference` (8-bit RGB, 3 bytes a pixel), and how many
    /// scales were scored.
    static func score(reference: [UInt8], distorted: [UInt8], width: Int, height: Int) -> (score: Double, scales: Int) {
        var one = linear(reference, width: width, height: height)
        var two = linear(distorted, width: width, height: height)
        var terms: [[[Double]]] = []  // per scale: per channel, the six pooled values
        for scale in 0..<6 {
            if one[0].width < 8 || one[0].height < 8 { break }
            if scale > 0 {
                one = one.map(halved)
                two = two.map(halved)
            }
            let xyb1 = xyb(one), xyb2 = xyb(two)
            terms.append((0..<3).map { channel in pooled(xyb1[channel], xyb2[channel]) })
        }
        var sum = 0.0, index = 0
        for channel in 0..<3 {
            for scale in terms.indices {
                for norm in 0..<2 {
                    for map in 0..<3 {
                        sum += weights[index] * abs(terms[scale][channel][map * 2 + norm])
                        index += 1
                    }
                }
            }
        }
        sum *= 0.9562382616834844
        sum = 2.326765642916932 * sum - 0.020884521182843837 * sum * sum + 6.248496625763138e-05 * sum * sum * sum
        return (sum > 0 ? 100 - 10 * pow(sum, 0.6276336467831387) : 100, terms.count)
    }

    /// Linear R, G, B planes of 8-bit sRGB pixels.
    static func linear(_ pixels: [UInt8], width: Int, height: Int) -> [Plane] {
        (0..<3).map { band in
            Plane(width: width, height: height, values: (0..<(width * height)).map { index in
                let value = Double(pixels[index * 3 + band]) / 255
                return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
            })
        }
    }

    /// 2x2 means; an odd last row or column averages what it has.
    static func halved(_ plane: Plane) -> Plane {
        let width = (plane.width + 1) / 2, height = (plane.height + 1) / 2
        var values: [Double] = []
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0, count = 0.0
                for dy in 0...1 where 2 * y + dy < plane.height {
                    for dx in 0...1 where 2 * x + dx < plane.width {
                        sum += plane[2 * x + dx, 2 * y + dy]
                        count += 1
                    }
                }
                values.append(sum / count)
            }
        }
        return Plane(width: width, height: height, values: values)
    }

    /// Linear RGB to the positive XYB the metric compares.
    static func xyb(_ rgb: [Plane]) -> [Plane] {
        let bias = 0.0037930732552754493, biasRoot = cbrt(bias)
        let opsin = [[0.30, 0.622, 0.078], [0.23, 0.692, 0.078],
                     [0.24342268924547819, 0.20476744424496821, 0.55180986650955360]]
        var planes = [Plane](repeating: Plane(width: rgb[0].width, height: rgb[0].height, values: []), count: 3)
        for index in rgb[0].values.indices {
            let mixed = opsin.map { row in
                cbrt(max(0, row[0] * rgb[0].values[index] + row[1] * rgb[1].values[index] + row[2] * rgb[2].values[index] + bias)) - biasRoot
            }
            let x = 0.5 * (mixed[0] - mixed[1]), y = 0.5 * (mixed[0] + mixed[1])
            planes[0].values.append(x * 14 + 0.42)
            planes[1].values.append(y + 0.01)
            planes[2].values.append(mixed[2] - y + 0.55)
        }
        return planes
    }

    static let taps: [Double] = {
        let raw = (-5...5).map { exp(-0.5 * Double($0 * $0) / (1.5 * 1.5)) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }()

    /// The Gaussian blur: zero beyond the left and right edges, mirrored (repeatedly, for a
    /// plane shorter than the blur) at the top and bottom.
    static func blurred(_ plane: Plane) -> Plane {
        var across = plane
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                var sum = 0.0
                for k in -5...5 where x + k >= 0 && x + k < plane.width { sum += taps[k + 5] * plane[x + k, y] }
                across.values[y * plane.width + x] = sum
            }
        }
        var down = across
        let period = 2 * plane.height
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                var sum = 0.0
                for k in -5...5 {
                    var row = ((y + k) % period + period) % period
                    if row >= plane.height { row = period - 1 - row }
                    sum += taps[k + 5] * across[x, row]
                }
                down.values[y * plane.width + x] = sum
            }
        }
        return down
    }

    /// One channel of one scale: the SSIM map, the artifacts and the detail lost, each by its
    /// mean and its 4-norm, in that order.
    static func pooled(_ one: Plane, _ two: Plane) -> [Double] {
        func product(_ a: Plane, _ b: Plane) -> Plane {
            Plane(width: a.width, height: a.height, values: zip(a.values, b.values).map { $0 * $1 })
        }
        let mu1 = blurred(one), mu2 = blurred(two)
        let s11 = blurred(product(one, one)), s22 = blurred(product(two, two)), s12 = blurred(product(one, two))
        var sums = [Double](repeating: 0, count: 6)
        for i in one.values.indices {
            let m1 = mu1.values[i], m2 = mu2.values[i]
            let numM = 1 - (m1 - m2) * (m1 - m2)
            let numS = 2 * (s12.values[i] - m1 * m2) + 0.0009
            let denomS = (s11.values[i] - m1 * m1) + (s22.values[i] - m2 * m2) + 0.0009
            let ssim = max(0, 1 - numM * numS / denomS)
            let edge = (1 + abs(two.values[i] - m2)) / (1 + abs(one.values[i] - m1)) - 1
            for (map, value) in [ssim, max(0, edge), max(0, -edge)].enumerated() {
                sums[map * 2] += value
                sums[map * 2 + 1] += pow(value, 4)
            }
        }
        let count = Double(one.values.count)
        return sums.enumerated().map { $0.offset % 2 == 0 ? $0.element / count : pow($0.element / count, 0.25) }
    }

    /// libjxl's weights, in the order channel, scale, norm, map.
    static let weights: [Double] = [
        0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0, 0.0, 0.0004371155730107379, 0.0,
        1.1041726426657346, 0.00066284834129271, 0.00015231632783718752, 0.0, 0.0016406437456599754, 0.0,
        1.8422455520539298, 11.441172603757666, 0.0, 0.0007989109436015163, 0.000176816438078653, 0.0,
        1.8787594979546387, 10.94906990605142, 0.0, 0.0007289346991508072, 0.9677937080626833, 0.0,
        0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053, 0.0004550992113792063, 0.0, 0.0,
        0.0013648766163243398, 0.0, 0.0, 0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
        0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
        225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
        176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408, 0.0, 0.0, 0.0,
        34.77906344483772, 44.835625328877896, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0008680556573291698, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0004179171803251336, 0.0017290828234722833, 0.0, 0.0020827005846636437, 0.0, 0.0, 8.826982764996862,
        23.19243343998926, 0.0, 95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493,
        171.2667255897307, 0.9807858872435379, 0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537
    ]
}
