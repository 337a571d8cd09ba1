import DPPXTestSupport
import Foundation

/// SSIMULACRA2 scores from PyPI's `ssimulacra2` (a separate implementation in NumPy and SciPy),
/// run in the test environment that `scripts/install-deps --test` makes.
enum IndependentScore {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The score of each `(reference, distorted)` pair of image files, in order.
    static func scores(_ pairs: [(reference: String, distorted: String)]) throws -> [Double] {
        let python = try TestVenv.python(importing: "ssimulacra2")
        let script = """
        import sys
        from ssimulacra2 import compute_ssimulacra2
        paths = sys.argv[1:]
        for reference, distorted in zip(paths[0::2], paths[1::2]):
            print(float(compute_ssimulacra2(reference, distorted)))
        """
        let result = try ChildProcess.run(python, ["-c", script] + pairs.flatMap { [$0.reference, $0.distorted] })
        guard result.status == 0 else {
            throw Failure(description: "ssimulacra2 failed (\(result.termination)) on \(pairs): \(result.stderr)")
        }
        let scores = result.stdout.split(separator: "\n").compactMap { Double($0) }
        guard scores.count == pairs.count else {
            throw Failure(description: "ssimulacra2 printed \(scores.count) scores for \(pairs.count) pairs")
        }
        return scores
    }

    static func score(reference: String, distorted: String) throws -> Double {
        try scores([(reference, distorted)])[0]
    }
}

/// A deterministic picture with what photos have and flat test patterns lack: a smooth sky,
/// a hard-edged disc, fine stripes, textured ground, and a little sensor grain.
enum ScenePicture {
    static func pixels(width: Int, height: Int, seed: UInt64 = 5) -> [UInt8] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let grain = Double(Int((state >> 59) & 15) - 8) * 0.5
                let u = Double(x) / Double(width), v = Double(y) / Double(height)
                var r: Double, g: Double, b: Double
                if v < 0.55 {
                    // Sky: a smooth vertical gradient.
                    r = 110 + 90 * v; g = 160 + 60 * v; b = 235 - 30 * v
                } else {
                    // Ground: texture at two scales.
                    let texture = 30 * sin(u * 90) * cos(v * 70) + 18 * sin((u + v) * 260)
                    r = 90 + texture + grain; g = 120 + texture * 0.8 + grain; b = 60 + texture * 0.5 + grain
                }
                // A disc with a hard edge.
                let dx = u - 0.3, dy = v - 0.35
                if dx * dx + dy * dy < 0.02 { r = 240; g = 200; b = 40 }
                // Fine soft stripes on the right (a fence, a fabric).
                if u > 0.75 && v > 0.1 && v < 0.5 {
                    let stripe = 130 + 70 * sin(Double(x) * 2 * Double.pi / 6)
                    r = stripe; g = stripe; b = stripe
                }
                let index = (y * width + x) * 3
                pixels[index] = UInt8(max(0, min(255, r + grain)))
                pixels[index + 1] = UInt8(max(0, min(255, g + grain)))
                pixels[index + 2] = UInt8(max(0, min(255, b + grain)))
            }
        }
        return pixels
    }

    /// `pixels` through a 3x3 box blur (edges clamped).
    static func blurred(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = pixels
        for y in 0..<height {
            for x in 0..<width {
                for band in 0..<3 {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let sx = min(width - 1, max(0, x + dx)), sy = min(height - 1, max(0, y + dy))
                            sum += Int(pixels[(sy * width + sx) * 3 + band])
                        }
                    }
                    out[(y * width + x) * 3 + band] = UInt8(sum / 9)
                }
            }
        }
        return out
    }

    /// `pixels` with deterministic noise of up to `amplitude` levels added.
    static func noisy(_ pixels: [UInt8], amplitude: Int, seed: UInt64 = 9) -> [UInt8] {
        var state = seed
        return pixels.map { value in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Int(state >> 33) % (2 * amplitude + 1) - amplitude
            return UInt8(max(0, min(255, Int(value) + noise)))
        }
    }
}
