import DPPXCore
import DPPXFiles
import DPPXMeasure
import DPPXRewrite
import Foundation

/// A page rewrite that knows the layout: the site's HTML pages are measured in headless
/// Chromium first (only those whose recorded layout no longer holds, `SiteMeasurement`), each
/// fluid `<img>` gets the exact `sizes` of its measured boxes, and every page the rewrite
/// changes is measured once more, as it would be written, before anything is written: a page
/// where a box moved, a background was painted at another size or the document's height
/// changed is left as it was and reported with what moved.
///
/// `dppx rewrite` runs both steps; `dppx build` measures before building (the widths a
/// master is built at follow its measured boxes, `LayoutLadders`) and rewrites after.
public struct MeasuredRewrite: Sendable {
    public let rewrite: SiteRewrite
    /// The Chromium to run; nil: found on PATH (`Browser.find`).
    public var browser: String?
    /// How long one page may take to load and be measured.
    public var timeout: Duration = .seconds(60)
    /// Folders under the root a measured page is never answered from (the masters':
    /// `PrivateFiles.mastersFolders`), as `dppx serve` is given them.
    public var privateFolders: [String] = []

    public init(rewrite: SiteRewrite, browser: String? = nil) {
        self.rewrite = rewrite
        self.browser = browser
    }

    /// What measuring did, for the one line that says so.
    public struct Report: Sendable {
        /// Pages measured, and pages whose recorded layout still held.
        public var measured: [String] = []
        public var unchanged: [String] = []
        /// Viewport widths measured, over all pages and both passes.
        public var widths = 0
        /// Pages measured again to check their rewrite.
        public var checked: [String] = []
        /// Pages left as they were because their rewrite moved a box (found now or recorded).
        public var restored: [RewriteFinding] = []
        /// Pages that could not be measured, each named with why (they are left as they were).
        public var failures: [MeasureError] = []
        /// What was wrong with the layout file as found: the pages concerned were measured again.
        public var warnings: [MeasureError] = []
        /// Pages measured as they stand although their scripts threw (a third-party script
        /// that is not there, a bug of the page's own), their load event never came or none of
        /// their stylesheets loaded.
        public var pageWarnings: [PageWarning] = []
        /// Set when no Chromium could be run: why, and how to install it. The rewrite then
        /// goes on from what the pages state, as without measuring.
        public var noBrowser: String?
        /// Whether the layout file was written.
        public var layoutWritten = false
        /// Seconds spent measuring.
        public var seconds = 0.0
        /// The widths the fluid masters are built at, from their measured boxes (`dppx build`).
        public var ladders: LayoutLadders.Summary?
    }

    /// The site's HTML pages below the root (what is measured), in the order given.
    public var htmlPages: [String] {
        rewrite.pages.filter { PageKind(path: $0) == .html }.compactMap(rewrite.relativePath(of:))
    }

    /// Where the layout file is: beside the first manifest under the root, else in the root.
    public func layoutPath() -> String { Self.layoutPath(root: rewrite.root) }

    /// Where the layout file of the site at `root` is: beside the first manifest under it (the
    /// root's own first), else in `root`. The one rule for measuring, the rewrite and what a
    /// page view costs.
    public static func layoutPath(root: String) -> String {
        let manifest = ManifestDiscovery.find(under: root).first
        return (manifest.map { ($0 as NSString).deletingLastPathComponent } ?? root) + "/" + LayoutFile.fileName
    }

    /// The layout of the site's HTML pages, measuring those whose recorded layout no longer
    /// holds, with each image answered at `pixelSizes` (root-relative path to pixel size: a
    /// plain file at its master's size) and the markup an earlier rewrite wrote for `images`
    /// (the manifests on disk) turned off. Nil when nothing could be measured (no browser, or
    /// no page); pages that failed are in the report and out of the layout. Nothing is written.
    public func measure(pixelSizes: [String: PixelSize], images: SiteImages, report: inout Report) async -> LayoutFile? {
        let pages = htmlPages
        guard !pages.isEmpty else { return nil }
        let started = ContinuousClock.now
        defer { report.seconds += Self.seconds(since: started) }
        let responder = Self.untouchedResponder(root: rewrite.root, images: images, options: rewrite.options, pixelSizes: pixelSizes,
                                                privateFolders: privateFolders)
        let path = layoutPath()
        var measurement = SiteMeasurement(pages: pages, responder: responder, output: path)
        measurement.timeout = timeout
        measurement.writesLayoutFile = false
        let explicit = browser
        do {
            let outcome = try await measurement.run(browser: { () throws(MeasureError) in try Browser.find(explicit: explicit) })
            report.measured += outcome.measured
            report.unchanged += outcome.unchanged
            report.widths += outcome.widths
            report.failures += outcome.failures
            report.warnings += outcome.warnings
            report.pageWarnings += outcome.pageWarnings
            var layout = outcome.layout
            // A page measured again keeps the record of the sizes dppx wrote on it: they are
            // still dppx's to replace. So does a page that failed (it is left as it was), until
            // it is measured again.
            let previous = SiteMeasurement.read(path)
            func written(_ page: String) -> [String] { previous.pages[page]?.sizesWritten ?? previous.failed[page]?.sizesWritten ?? [] }
            for page in outcome.measured {
                layout.pages[page]?.sizesWritten = written(page)
            }
            for page in layout.failed.keys where !outcome.failedBefore.contains(page) {
                layout.failed[page]?.sizesWritten = written(page)
            }
            return layout
        } catch {
            if case .noBrowser(let message) = error { report.noBrowser = message } else { report.failures.append(error) }
            return nil
        }
    }

    /// Rewrites the pages with `layout` (nil: as without measuring), checks in the browser each
    /// HTML page whose rewrite changes it or a stylesheet it loads, leaves as they were the
    /// pages (and stylesheets) whose rewrite moved a box, then writes the pages and the layout
    /// file. With `check`, compares instead of writing, and checks nothing in the browser.
    /// `held`: the manifest a build just wrote, taken as given (`SiteManifestReader.Held`).
    public func rewritePages(with layout: LayoutFile?, report: inout Report, check: Bool = false,
                             held: SiteManifestReader.Held? = nil) async -> SiteRewrite.Outcome {
        guard var layout else {
            var outcome = rewrite.run(check: check, held: held)
            outcome.failures += report.failures.map { FileProblem(file: Self.pageName(of: $0), reason: Self.reason(of: $0)) }
            return outcome
        }
        let failed = Set(report.failures.compactMap { error -> String? in
            if case .page(let page, _) = error { return page } else { return nil }
        })
        var options = rewrite.options
        options.layout = layout
        let measured = SiteRewrite(root: rewrite.root, pages: rewrite.pages, output: rewrite.output, options: options)
        // Read once, after the build: the rewrite and the check both use them.
        let reading = SiteManifestReader.read(under: rewrite.root, held: held)
        var (changes, outcome) = measured.prepare(with: reading)
        outcome.failures += report.failures.map { FileProblem(file: Self.pageName(of: $0), reason: Self.reason(of: $0)) }
        // Pages not measured, or undone before and unchanged since, stay as they are.
        for index in changes.indices where changes[index].isHTML {
            let page = changes[index].relative
            if failed.contains(page) {
                changes[index].result = Self.unchanged(changes[index])
            } else if let reason = layout.pages[page]?.restored {
                changes[index].result = Self.unchanged(changes[index])
                report.restored.append(RewriteFinding(file: page, line: 1, message: "left as it was: its rewrite moved a box when it was checked (\(reason)); nothing it loads has changed since"))
            }
        }
        if !check {
            let measuringFailures = report.failures.count
            await checkInBrowser(&changes, images: SiteImages(reading.site), layout: &layout, report: &report)
            outcome.failures += report.failures[measuringFailures...].map { FileProblem(file: Self.pageName(of: $0), reason: Self.reason(of: $0)) }
        }
        // A page left as it was (not measured, undone) keeps its record: the sizes an earlier
        // run wrote on it are still dppx's.
        for index in changes.indices where changes[index].isHTML {
            let result = changes[index].result
            guard result.imagesRewritten > 0 || !result.sizesWritten.isEmpty else { continue }
            layout.pages[changes[index].relative]?.sizesWritten = result.sizesWritten
        }
        measured.write(changes, check: check, into: &outcome)
        outcome.findings += report.restored
        if !check {
            let bytes = SiteMeasurement.encoded(layout)
            do { report.layoutWritten = try AtomicFile.writeIfChanged(bytes, to: layoutPath()) } catch {
                outcome.failures.append(FileProblem(file: layoutPath(), reason: "cannot be written: \(error); the next run measures every page again"))
            }
        }
        return outcome
    }

    /// Both steps, as `dppx rewrite` runs them: the images are the manifests' under the root.
    public func run(check: Bool = false) async -> (outcome: SiteRewrite.Outcome, report: Report) {
        var report = Report()
        let images = SiteImages(SiteManifestReader.read(under: rewrite.root).site)
        let layout = await measure(pixelSizes: images.pixelSizes, images: images, report: &report)
        let outcome = await rewritePages(with: layout, report: &report, check: check)
        return (outcome, report)
    }

    /// Measures every HTML page whose rewrite changes it or a stylesheet it loaded twice, the
    /// same way: as it would be written, and as it is untouched, and compares the two
    /// (`LayoutComparison`), without scrollbars taking room (as on phones) and with classic ones
    /// (as on desktop: `Scrollbars`). Both are measured at the ladder's checking widths, ascending, each
    /// once the page has settled there (its images' files picked for the width and loaded, as in
    /// a browser opened at that width), so what the page's own scripts do in that time is done
    /// on both sides.
    ///
    /// The written side keeps the `@media` blocks of `image-set()`s the rewrite wrote, and each
    /// background layer is compared by the master of the file it was painted from and the size
    /// it was painted at.
    ///
    /// An `<img>` whose box changed size depends on its natural width (a flex item sized by its
    /// content, a float), which its `sizes` sets: it is marked `unsized` in `layout`, the page
    /// rewritten without its `srcset` (left as the page wrote it, when its `sizes` is the page's
    /// own or a rule's) and checked again, at most `checkRounds` times. With
    /// `--picture`, each `<img>` a new `<picture>` holds is compared by its computed style and
    /// its holder's too (`StyleComparison`), and one whose style or box changed, or that a
    /// script of the page selects by its place among its parent's children
    /// (`ScriptSelectors`), is marked `unwrapped` and written with `srcset` only, the rest of
    /// the page checked again (a round more). A page that
    /// still moves (or whose backgrounds or height moved without any image) is left as it was,
    /// with the stylesheets it loads that the rewrite changed. A page that did not move is
    /// recorded in `layout` as written (so an unchanged site is not measured again), with the
    /// samples of its untouched measurement.
    private func checkInBrowser(_ changes: inout [SiteRewrite.PageChange], images: SiteImages, layout: inout LayoutFile,
                                report: inout Report) async {
        let started = ContinuousClock.now
        defer { report.seconds += Self.seconds(since: started) }
        let changed = Self.overlay(of: changes)
        guard !changed.isEmpty else { return }
        let pending = changes.filter { change in
            guard change.isHTML, let recorded = layout.pages[change.relative], recorded.restored == nil else { return false }
            return changed[change.relative] != nil || recorded.dependencies.contains { changed[$0] != nil }
        }.map(\.relative)
        guard !pending.isEmpty else { return }
        // One browser for every pass of the check.
        let explicit = browser
        let shared = SharedBrowser(executable: { () throws(MeasureError) in try Browser.find(explicit: explicit) })
        await check(&changes, pending: pending, changed: changed, images: images, layout: &layout, report: &report, in: shared)
        await shared.stop()
    }

    /// `checkInBrowser`'s rounds in `shared`'s browser: `pending` the pages to check, `changed`
    /// what the rewrite changes.
    private func check(_ changes: inout [SiteRewrite.PageChange], pending: [String], changed: [String: [UInt8]],
                                images: SiteImages, layout: inout LayoutFile, report: inout Report, in shared: SharedBrowser) async {
        var pending = pending
        // Pages sized by script are checked as they were measured: each width once quiet.
        let settledPages = Set(pending.filter { layout.pages[$0]?.settled == true })
        let before: SiteMeasurement.Outcome
        do {
            before = try await checkingMeasurement(of: pending, responder: Self.untouchedResponder(
                root: rewrite.root, images: images, options: rewrite.options, pixelSizes: images.pixelSizes,
                privateFolders: privateFolders), images: images, settledPages: settledPages, in: shared)
        } catch {
            // The browser that measured the pages a moment ago is gone: nothing is written unchecked.
            report.failures.append(error)
            for index in changes.indices { changes[index].result = Self.unchanged(changes[index]) }
            return
        }
        report.widths += before.widths
        var undo = Set<String>()
        func fail(_ page: String) {
            undo.insert(page)
            undo.formUnion(layout.pages[page]?.dependencies.filter { changed[$0] != nil } ?? [])
        }
        for failure in before.failures {
            report.failures.append(failure)
            fail(Self.pageName(of: failure))
        }
        pending.removeAll { undo.contains($0) }
        let picture = rewrite.options.picture
        // The page as `layout` now says, rewritten again.
        func rewriteAgain(_ index: Int) {
            var options = rewrite.options
            options.layout = layout
            changes[index].result = PageRewriter(images: images, options: options).rewriteHTML(changes[index].original, at: changes[index].relative)
        }
        // The indices (among the page's measured `<img>` occurrences) of those its rewrite wraps in
        // a new <picture>.
        func wrappedImages(_ index: Int) -> Set<Int> {
            guard picture, let recorded = layout.pages[changes[index].relative] else { return [] }
            return Set(changes[index].result.wrapped.compactMap { offset in recorded.images.firstIndex { $0.offset == offset } })
        }
        // An image a script of the page selects by its place among its parent's children stays
        // where the script finds it: no measurement shows what the script then does.
        if picture {
            for page in pending {
                guard let named = before.styles[page]?.namedByScripts, !named.isEmpty,
                      let index = changes.firstIndex(where: { $0.relative == page }), let recorded = layout.pages[page] else { continue }
                let wrapped = wrappedImages(index)
                var marked = false
                for (offset, selector) in named {
                    guard let image = recorded.images.firstIndex(where: { $0.offset == offset }), wrapped.contains(image) else { continue }
                    layout.pages[page]?.images[image].unwrapped = "a script of the page selects it by its place among its parent's children (\(selector)), which a <picture> changes"
                    marked = true
                }
                if marked { rewriteAgain(index) }
            }
        }
        let rounds = picture ? Self.checkRounds + 1 : Self.checkRounds
        for round in 1...rounds where !pending.isEmpty {
            var written = SiteResponder(root: rewrite.root, imageSizes: images.pixelSizes, privateFolders: privateFolders,
                                        imageTagOffsets: { ImageTagOffsets.of($0) })
            written.overlay = Self.overlay(of: changes)
            written.baseURL = rewrite.options.baseURL
            let after: SiteMeasurement.Outcome
            do {
                after = try await checkingMeasurement(of: pending, responder: written, asWritten: true, images: images,
                                                      settledPages: settledPages, in: shared)
            } catch {
                report.failures.append(error)
                for index in changes.indices { changes[index].result = Self.unchanged(changes[index]) }
                return
            }
            report.widths += after.widths
            for failure in after.failures {
                report.failures.append(failure)
                fail(Self.pageName(of: failure))
            }
            // What moved on each page, with classic scrollbars too (`vw` counts the scrollbar
            // there, the layout does not).
            func differences(_ page: String, jitter: LayoutComparison.Jitter) -> (moved: [(index: Int, move: LayoutComparison.Move, drawn: String)], page: String?)? {
                guard let then = before.layout.pages[page], let now = after.layout.pages[page] else { return nil }
                let classic = before.classic[page].flatMap { then in after.classic[page].map { (then, $0) } }
                var moved = LayoutComparison.movedImages(before: then, after: now)
                for image in classic.map({ LayoutComparison.movedImages(before: $0.0, after: $0.1) }) ?? []
                where !moved.contains(where: { $0.index == image.index }) {
                    moved.append(image)
                }
                let pageMoved = LayoutComparison.pageDifference(before: then, after: now)
                    ?? classic.flatMap { LayoutComparison.pageDifference(before: $0.0, after: $0.1) }
                return (moved.filter { !jitter.images.contains($0.index) }, jitter.page ? nil : pageMoved)
            }
            // A difference the untouched page shows between two loads of its own (an animation,
            // content a script adds at a moment that varies, an image slow to load) is the page's
            // jitter, not the rewrite's doing: where something moved, the untouched page is loaded
            // once more, and what differs between its two loads is set aside.
            var jitter: [String: LayoutComparison.Jitter] = [:]
            var styleJitter: [String: [Int: Set<StyleComparison.Property>]] = [:]
            // With --picture: the images a new <picture> holds whose computed style, or their
            // holder's, changed (a selector that stops or starts matching).
            func styleChanges(_ page: String) -> [Int: StyleComparison.Change] {
                guard picture, let then = before.styles[page], let now = after.styles[page],
                      let index = changes.firstIndex(where: { $0.relative == page }) else { return [:] }
                let wrapped = wrappedImages(index)
                return StyleComparison.changes(before: then, after: now, setAside: styleJitter[page] ?? [:]).filter { wrapped.contains($0.key) }
            }
            let suspects = after.measured.filter { page in
                (differences(page, jitter: .none).map { !$0.moved.isEmpty || $0.page != nil } ?? false) || !styleChanges(page).isEmpty
            }
            if !suspects.isEmpty, let control = try? await checkingMeasurement(of: suspects, responder: Self.untouchedResponder(
                root: rewrite.root, images: images, options: rewrite.options, pixelSizes: images.pixelSizes,
                privateFolders: privateFolders), images: images, settledPages: settledPages, in: shared) {
                report.widths += control.widths
                for page in suspects {
                    guard let then = before.layout.pages[page], let again = control.layout.pages[page] else { continue }
                    var found = LayoutComparison.jitter(between: then, and: again)
                    if let thenClassic = before.classic[page], let againClassic = control.classic[page] {
                        found.formUnion(LayoutComparison.jitter(between: thenClassic, and: againClassic))
                    }
                    jitter[page] = found
                    if let thenStyles = before.styles[page], let againStyles = control.styles[page] {
                        styleJitter[page] = StyleComparison.jitter(between: thenStyles, and: againStyles)
                    }
                }
            }
            var again: [String] = []
            for page in after.measured {
                guard let recorded = layout.pages[page], let then = before.layout.pages[page], let now = after.layout.pages[page],
                      let index = changes.firstIndex(where: { $0.relative == page }),
                      let (moved, pageMoved) = differences(page, jitter: jitter[page] ?? .none) else { continue }
                let original = changes[index].original
                let line = { (offset: Int) in Self.line(of: offset, in: original) }
                let classic = before.classic[page].flatMap { then in after.classic[page].map { (then, $0) } }
                let wrapped = wrappedImages(index)
                let restyled = styleChanges(page)
                // The wrapped images to write without <picture>, and why: those whose style
                // changed or that were resized, else (nothing else explaining it) those displaced.
                var unwrap: [(index: Int, why: String)] = restyled.keys.sorted().map { ($0, restyled[$0]!.description) }
                for (image, move, what) in moved where wrapped.contains(image) && restyled[image] == nil && move == .resized {
                    unwrap.append((image, "its box changed in a <picture>: it was \(what)"))
                }
                if unwrap.isEmpty, !moved.contains(where: { $0.move == .resized }) {
                    for (image, _, what) in moved where wrapped.contains(image) {
                        unwrap.append((image, "its box moved in a <picture>: it was \(what)"))
                    }
                }
                if moved.isEmpty, pageMoved == nil, restyled.isEmpty {
                    if round == 1 { report.checked.append(page) }
                    // Kept: the untouched page's refined samples, under the rewritten page's offsets
                    // (the n-th <img> is the n-th) and what the rewritten page loaded, so the next
                    // run finds it unchanged and fits the same sizes from the same samples.
                    var kept = recorded
                    for image in kept.images.indices where image < now.images.count {
                        kept.images[image].offset = now.images[image].offset
                    }
                    kept.hash = now.hash
                    kept.dependencies = now.dependencies
                    layout.pages[page] = kept
                } else if !unwrap.isEmpty || moved.contains(where: { $0.move == .resized && !wrapped.contains($0.index) }), round < rounds {
                    if round == 1 { report.checked.append(page) }
                    // The wrapped ones are written without <picture>; the others resized follow
                    // their natural width: they keep it. (Boxes only displaced may be displaced
                    // by them, and are looked at again.)
                    for (image, why) in unwrap where image < recorded.images.count {
                        layout.pages[page]?.images[image].unwrapped = why
                    }
                    for (image, move, what) in moved where move == .resized && !wrapped.contains(image) && image < recorded.images.count {
                        layout.pages[page]?.images[image].unsized = what
                    }
                    rewriteAgain(index)
                    again.append(page)
                } else {
                    if round == 1 { report.checked.append(page) }
                    let pageJitter = jitter[page] ?? .none
                    let what = LayoutComparison.difference(before: then, after: now, lineOfOffset: line, setAside: pageJitter)
                        ?? classic.flatMap { LayoutComparison.difference(before: $0.0, after: $0.1, lineOfOffset: line, setAside: pageJitter) }
                            .map { $0 + " (with classic scrollbars)" }
                        ?? restyled.keys.sorted().first.map { image in
                            "its <img src=\"\(then.images[image].src)\"> (line \(line(then.images[image].offset))): \(restyled[image]!.description)"
                        }
                        ?? "its layout changed"
                    let culprits = [page] + recorded.dependencies.filter { changed[$0] != nil && $0 != page }
                    fail(page)
                    layout.pages[page]?.restored = what
                    report.restored.append(RewriteFinding(file: page, line: 1, message: "left as it was: rewritten, \(what)\(culprits.count > 1 ? "; " + culprits.dropFirst().joined(separator: ", ") + " left as it was too" : "")"))
                }
            }
            pending = again
        }
        for index in changes.indices where undo.contains(changes[index].relative) {
            changes[index].result = Self.unchanged(changes[index])
        }
    }

    /// How many times a page is checked: once, and again after the images whose boxes follow
    /// their natural width are left without `sizes` (twice, for a second such image that only
    /// moves once the first keeps its width).
    static let checkRounds = 3

    /// `pages` measured at the ladder's checking widths, each after the page settles, without
    /// scrollbars taking room and with classic ones. `asWritten`: the written side, whose
    /// stylesheets keep the `@media` blocks of `image-set()`s the rewrite wrote (the untouched
    /// side drops dppx's, as measuring does). Each background layer is named by its master's
    /// plain file (`namedByMaster`), so a layer painted from `hero-800w.avif` compares with the
    /// untouched `hero.jpg`.
    private func checkingMeasurement(of pages: [String], responder: SiteResponder, asWritten: Bool = false, images: SiteImages,
                                     settledPages: Set<String>, in shared: SharedBrowser) async throws(MeasureError) -> SiteMeasurement.Outcome {
        var measurement = SiteMeasurement(pages: pages, responder: responder, output: layoutPath())
        measurement.timeout = timeout
        measurement.reusesRecorded = false
        measurement.writesLayoutFile = false
        measurement.checking = measurement.ladder.checking
        measurement.checksClassicScrollbars = true
        measurement.checksStyles = rewrite.options.picture
        measurement.measuresAsWritten = asWritten
        measurement.settledPages = settledPages
        var outcome = try await measurement.run(in: shared)
        for (page, layout) in outcome.layout.pages { outcome.layout.pages[page] = Self.namedByMaster(layout, images: images) }
        for (page, layout) in outcome.classic { outcome.classic[page] = Self.namedByMaster(layout, images: images) }
        return outcome
    }

    /// `page` with each background layer's URL that of its image's plain file when it is a
    /// file of an image of the manifests (`/img/hero-800w.avif` is `/img/hero.jpg`'s): what a
    /// layer is compared by, whichever file a block's `image-set()` gave it.
    static func namedByMaster(_ page: LayoutFile.Page, images: SiteImages) -> LayoutFile.Page {
        var page = page
        for index in page.backgrounds.indices {
            let path = String(page.backgrounds[index].url.drop { $0 == "/" })
            if let match = images.match(path) { page.backgrounds[index].url = "/" + match.entry.image.path }
        }
        return page
    }

    /// The responder that shows the pages under `root` untouched: each image's plain file at
    /// `pixelSizes`, the `srcset` and `sizes` an earlier rewrite wrote for `images` turned off,
    /// and URLs under the site's base URL (`options.baseURL`) answered from the root.
    public static func untouchedResponder(root: String, images: SiteImages, options: RewriteOptions,
                                          pixelSizes: [String: PixelSize], privateFolders: [String] = []) -> SiteResponder {
        let marker = PageRewriter(images: images, options: options)
        var responder = SiteResponder(root: root, imageSizes: pixelSizes, privateFolders: privateFolders, marks: { bytes, path in
            let marks = marker.measurementMarks(bytes, at: path)
            return PageMarks(imageTags: marks.imageTags, disabledAttributes: marks.dppxAttributes, imageSources: marks.sources)
        })
        responder.baseURL = options.baseURL
        return responder
    }

    /// The pages and stylesheets as the rewrite would write them, by root-relative path.
    private static func overlay(of changes: [SiteRewrite.PageChange]) -> [String: [UInt8]] {
        Dictionary(changes.filter { $0.result.bytes != $0.original }.map { ($0.relative, $0.result.bytes) }, uniquingKeysWith: { a, _ in a })
    }

    /// `change` left as it was: its original bytes, no findings of its own.
    private static func unchanged(_ change: SiteRewrite.PageChange) -> RewriteResult {
        RewriteResult(bytes: change.original, findings: [], imagesRewritten: 0)
    }

    /// Why `error`'s page failed, without its name (a `FileProblem` names it).
    private static func reason(of error: MeasureError) -> String {
        if case .page(_, let message) = error { return "not measured: " + message }
        return error.description
    }

    private static func pageName(of error: MeasureError) -> String {
        if case .page(let page, _) = error { return page }
        return "Chromium"
    }

    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<min(max(0, offset), bytes.count)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
