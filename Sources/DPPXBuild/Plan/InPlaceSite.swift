import DPPXCore

/// A build in place (SRC is OUT, as on a site that keeps its images beside its pages): which
/// image files are masters and which are dppx's own outputs, so a second build reads no
/// variant as a master and no build writes over or removes a master.
///
/// dppx's outputs are recognised two ways:
/// - by the last manifest: the variants it lists, less the masters' own files (the output at a
///   master's own name and density is the master itself, `ImagePlan.isMaster`), and by the
///   journal of what builds since wrote (`BuildJournal`: a build killed before writing its
///   manifest). These alone may be written over or removed (`owned`).
/// - by their names (in place, only a master has a plain name: `ImagePlan`): beside a master
///   `hero.jpg`, a file of the same stem with an `@Nx` density (`hero@1x.jpg`, `hero@2x.webp`)
///   or a width suffix (`hero-480w.jpg`) is a variant's name, and beside `logo@2x.png` so is a
///   lower density (`logo@1.5x.png`); never read as a master. One the manifest does not list (a
///   copy the site already had) is left alone and never written over.
public struct InPlaceSite: Sendable {
    /// Paths dppx wrote and may replace or remove.
    public let owned: Set<String>

    /// The variants `previous` lists, the files an earlier build retired but kept while a page
    /// named them (`retired`, from the cache) and the files `written` (the journal's), less the
    /// masters' own files.
    public init(previous: Manifest, retired: [String] = [], written: Set<String> = []) {
        let masters = Set(previous.images.map(\.source))
        owned = Set(previous.images.flatMap { $0.variants.map(\.path) } + retired).union(written).subtracting(masters)
    }

    /// The masters among the image files found: neither files the manifest lists nor named as
    /// another master's variants.
    public func masters(among found: [SourceFile]) -> [SourceFile] {
        let candidates = found.filter { !owned.contains($0.relativePath) }
        // Each family (folder and stem) has one master name: the plain one, else the densest.
        var stems: [String: Density] = [:]
        for file in candidates where file.name.widthCopyStem == nil {
            let key = file.name.directory + "/" + file.name.stem
            let density = file.name.declaredDensity ?? Self.plain
            stems[key] = max(stems[key] ?? density, density)
        }
        return candidates.filter { file in
            if let family = file.name.widthCopyStem {
                return stems[file.name.directory + "/" + family] == nil
            }
            let density = file.name.declaredDensity ?? Self.plain
            return stems[file.name.directory + "/" + file.name.stem] == density
        }
    }

    /// Above every density a name can state: a plain name is its family's master.
    private static let plain = Density(milli: Int.max)
}
