/// The name the development server (`DPPXServer`'s `DevelopmentSession`) still gives a
/// `SiteBuild`, the build each round of `dppx serve --watch` runs.
public typealias DevelopmentRound = SiteBuild
