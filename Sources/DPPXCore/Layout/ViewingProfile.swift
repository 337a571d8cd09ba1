/// A screen a page is viewed on: its viewport in CSS px and its device pixel ratio. The three
/// `standard` ones are what `dppx build` and `dppx rewrite` count a page view's image bytes at.
public struct ViewingProfile: Hashable, Sendable, Codable {
    public let name: String
    public let width: Double
    public let height: Double
    public let dpr: Double

    public init(name: String, width: Double, height: Double, dpr: Double) {
        self.name = name
        self.width = width
        self.height = height
        self.dpr = dpr
    }

    /// A recent phone: 375x812 at DPR 3.
    public static let phone = ViewingProfile(name: "phone", width: 375, height: 812, dpr: 3)
    /// A plain laptop screen: 1280x800 at DPR 1.
    public static let laptop = ViewingProfile(name: "laptop", width: 1280, height: 800, dpr: 1)
    /// A large Retina-class screen: 1920x1080 at DPR 2.
    public static let desktop = ViewingProfile(name: "desktop", width: 1920, height: 1080, dpr: 2)

    public static let standard: [ViewingProfile] = [phone, laptop, desktop]
}
