import DPPXCore
import Testing

/// The width an `<img>`'s content is painted at, from its content box, its `object-fit` and the
/// image's natural size: what its `sizes` and its files are fitted to.
@Suite("object-fit: the size an image's content is painted at")
struct ObjectFitTests {
    /// A 3:2 photo (1500x1000 CSS px) in a square 300 px card.
    static let card = (width: 300.0, height: 300.0)
    static let photo = (width: 1500.0, height: 1000.0)

    static func painted(_ fit: ObjectFit, box: (width: Double, height: Double) = card,
                        natural: (width: Double, height: Double)? = photo) -> [Double] {
        let size = fit.painted(box: box, natural: natural)
        return [size.width, size.height]
    }

    @Test("a 3:2 photo in a square card: cover paints it 1.5 times as wide as the card, contain as wide, fill over the box, none at its own size, scale-down as contain")
    func eachValue() {
        #expect(Self.painted(.cover) == [450, 300])
        #expect(Self.painted(.contain) == [300, 200])
        #expect(Self.painted(.fill) == [300, 300])
        #expect(Self.painted(.none) == [1500, 1000])
        #expect(Self.painted(.scaleDown) == [300, 200])
    }

    @Test("cover is the wider of the box's width and its height times the image's aspect ratio; contain the narrower")
    func coverAndContainByAspect() {
        for (box, natural) in [((300.0, 120.0), (1500.0, 1000.0)), ((200.0, 500.0), (1200.0, 800.0)), ((390.0, 390.0), (800.0, 1200.0))] {
            let aspect = natural.0 / natural.1
            let cover = Self.painted(.cover, box: box, natural: natural)[0]
            let contain = Self.painted(.contain, box: box, natural: natural)[0]
            #expect(abs(cover - max(box.0, box.1 * aspect)) < 1e-9, "\(box) \(natural)")
            #expect(abs(contain - min(box.0, box.1 * aspect)) < 1e-9, "\(box) \(natural)")
        }
    }

    @Test("scale-down of an image smaller than the box paints it at its own size, never enlarged")
    func scaleDownOfASmallImage() {
        #expect(Self.painted(.scaleDown, natural: (200, 100)) == [200, 100])
        #expect(Self.painted(.contain, natural: (200, 100)) == [300, 150])
    }

    @Test("without a natural size (none, zero, infinite) the content is taken as painted over the box; a box of NaN or negative sides is 0, never NaN")
    func noNaturalSize() {
        for fit in ObjectFit.allCases {
            #expect(Self.painted(fit, natural: nil) == [300, 300], "\(fit)")
            #expect(Self.painted(fit, natural: (0, 1000)) == [300, 300], "\(fit)")
            #expect(Self.painted(fit, natural: (.infinity, 1000)) == [300, 300], "\(fit)")
            let odd = fit.painted(box: (.nan, -4), natural: Self.photo)
            #expect(!odd.width.isNaN && !odd.height.isNaN && odd.width >= 0 && odd.height >= 0, "\(fit): \(odd)")
        }
    }

    @Test("computed values are read by name, anything else is not one")
    func computed() {
        #expect(ObjectFit(computed: "cover") == .cover)
        #expect(ObjectFit(computed: "scale-down") == .scaleDown)
        #expect(ObjectFit(computed: "COVER") == .cover)
        #expect(ObjectFit(computed: "inherit") == nil)
        #expect(ObjectFit(computed: "") == nil)
    }
}
