import DPPXTestSupport
import Foundation
import Testing

/// Every run leaves a site that can be deployed, and the first build is final: a site shaped
/// like the templates people adopt (its `dppx.toml` in the site's root, images beside the
/// pages, built in place; a script-sized slider, a lazy-loaded grid, a page whose third-party
/// script is missing, a measured CSS background) goes through `dppx build` three times with
/// nothing changed, and once more after an edit with the run killed between the build and the
/// rewrite. After every run each file a page or stylesheet names is on disk, and runs with
/// nothing changed write no file.
@Suite("Every run leaves a deployable site, and a second run writes nothing (end to end)",
       .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct DeployableRunsTests {
    static let stylesheet = """
    body { margin: 0; font-family: sans-serif; }
    .container { max-width: 1140px; margin: 0 auto; padding: 0 15px; }
    .hero { height: 300px; background: url(../images/hero.jpg) center / cover no-repeat; }
    .slider { overflow: hidden; }
    .slider-track { display: flex; }
    .slide img { display: block; width: 100%; height: auto; }
    .grid { display: grid; grid-template-columns: 1fr; gap: 20px; }
    @media (min-width: 768px) { .grid { grid-template-columns: repeat(3, 1fr); } }
    .grid img { width: 100%; height: auto; display: block; }
    .team img { max-width: 100%; height: auto; }
    .spacer { height: 1500px; }
    """

    /// Slick-like: each slide as wide as the slider, set by script at load and on resize.
    static let slider = """
    (function () {
      var slider = document.querySelector('.slider'), track = slider.querySelector('.slider-track');
      function layout() {
        var width = slider.clientWidth;
        track.style.width = (width * track.children.length) + 'px';
        for (var i = 0; i < track.children.length; i++) track.children[i].style.width = width + 'px';
      }
      layout();
      window.addEventListener('resize', layout);
    })();
    """

    static let head = #"<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="css/style.css">"#

    static let pages: [String: String] = [
        "index.html": head + """
        <script src="https://maps.googleapis.com/maps/api/js?key=KEY"></script>
        </head><body>
        <section class="hero"></section>
        <div class="slider"><div class="slider-track">
        <div class="slide"><img src="images/slides/slide1.jpg" alt="one"></div>
        <div class="slide"><img src="images/slides/slide2.jpg" alt="two"></div>
        </div></div>
        <div class="container"><div class="spacer"></div>
        <div class="grid">
        <img src="images/work/work1.jpg" alt="w1" loading="lazy">
        <img src="images/work/work2.jpg" alt="w2" loading="lazy">
        <img src="images/work/work3.jpg" alt="w3" loading="lazy">
        </div>
        <div class="team"><img src="images/team.jpg" alt="team"></div>
        <div id="map"></div></div>
        <script src="js/slider.js"></script>
        <script>var map = new google.maps.Map(document.getElementById('map'), {});</script>
        </body></html>

        """,
        "services.html": head + """
        </head><body><div class="container">
        <div class="grid">
        <img src="images/work/work1.jpg" alt="w1" loading="lazy">
        <img src="images/work/work2.jpg" alt="w2" loading="lazy">
        <img src="images/work/work3.jpg" alt="w3" loading="lazy">
        </div>
        <div class="team"><img src="images/team.jpg" alt="team"></div>
        </div></body></html>

        """,
    ]

    static let masters: [String: (width: Int, height: Int)] = [
        "slides/slide1.jpg": (1600, 700), "slides/slide2.jpg": (1600, 700),
        "work/work1.jpg": (1200, 800), "work/work2.jpg": (1200, 800), "work/work3.jpg": (1200, 800),
        "team.jpg": (800, 800), "hero.jpg": (2400, 1000),
    ]

    /// The site, its own root: pages, stylesheet and script beside `images/`, and a `dppx.toml`
    /// that builds the images in place and rewrites the pages and the stylesheet.
    static func makeSite() throws -> ScratchFolder {
        let site = ScratchFolder("dppx-deployable")
        for (index, (path, size)) in masters.sorted(by: { $0.key < $1.key }).enumerated() {
            try TestImages.write(site("images/" + path), width: size.width, height: size.height, seed: UInt64(index + 1))
        }
        try write(stylesheet, to: site("css/style.css"))
        try write(slider, to: site("js/slider.js"))
        for (page, text) in pages { try write(text, to: site(page)) }
        try write("""
            [build]
            source = "images"
            out = "images"
            [rewrite]
            pages = ["*.html", "css/*.css"]
            """, to: site("dppx.toml"))
        return site
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The pages, the stylesheet and the layout file, by path.
    static func siteFiles(_ site: ScratchFolder) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in ["index.html", "services.html", "css/style.css", "images/dppx-layout.json", "images/dppx-manifest.json"] {
            files[path] = try Data(contentsOf: URL(fileURLWithPath: site(path)))
        }
        return files
    }

    /// Every file the pages name is there, by our own reading and by `dppx rewrite --check`.
    static func expectDeployable(_ site: ScratchFolder, _ context: String) async throws {
        #expect(DeployableSite.missingFiles(under: site.path) == [], "\(context): pages name files that are not there")
        let check = try await DPPXBinary.run(["rewrite", "--check"], in: site.path)
        #expect(check.status == 0 && !check.stderr.contains("error:"), "\(context): dppx rewrite --check: \(check)")
    }

    @Test("three dppx build runs with nothing changed: the second and third write no file, every URL on every page exists after each, the pages the same bytes after each")
    func threeRuns() async throws {
        let site = try Self.makeSite()
        var contents: [[String: Data]] = []
        var snapshots: [[String: String]] = []
        for run in 1...3 {
            let result = try await DPPXBinary.run(["build"], in: site.path)
            #expect(result.status == 0, "run \(run): \(result)")
            if run == 1 {
                #expect(result.stderr.contains("index.html: measured as it stands after its scripts threw ReferenceError: google is not defined"),
                        "the missing third-party script is a warning, the page is measured: \(result)")
                #expect(result.stdout.contains("measured 2 pages"), "\(result)")
                #expect(!result.stderr.contains("unchanged pages"), "the first run names what it left alone itself: \(result)")
            } else {
                #expect(result.stdout.contains("0 built") && !result.stdout.contains("removed"), "run \(run): \(result)")
            }
            #expect(!FileManager.default.fileExists(atPath: site(".dppx-cache")), "the cache stays out of the site's root: \(result)")
            snapshots.append(DeployableSite.snapshot(of: site.path))
            try await Self.expectDeployable(site, "after run \(run)")
            contents.append(try Self.siteFiles(site))
        }
        #expect(DeployableSite.changes(from: snapshots[0], to: snapshots[1]) == [], "the second run writes no file")
        #expect(DeployableSite.changes(from: snapshots[1], to: snapshots[2]) == [], "the third run writes no file")
        #expect(contents[0] == contents[1] && contents[1] == contents[2], "pages, stylesheet, layout and manifest the same bytes after runs 1, 2 and 3")
        // The lazy grid and the team photo were given a srcset on both pages.
        let index = String(decoding: contents[0]["index.html"] ?? Data(), as: UTF8.self)
        let services = String(decoding: contents[0]["services.html"] ?? Data(), as: UTF8.self)
        for page in [index, services] {
            #expect(page.components(separatedBy: "srcset=").count - 1 >= 4, "\(page)")
        }
    }

    @Test("a run killed (SIGKILL) between the build and the rewrite leaves the pages' files on disk; the next run completes, the one after writes nothing")
    func killedBetweenBuildAndRewrite() async throws {
        let site = try Self.makeSite()
        let first = try await DPPXBinary.run(["build"], in: site.path)
        #expect(first.status == 0, "\(first)")
        // Two columns instead of three: the grid's measured ladder changes, so the build drops
        // the files the rewritten pages name until their rewrite.
        try Self.write(Self.stylesheet.replacingOccurrences(of: "repeat(3, 1fr)", with: "repeat(2, 1fr)"), to: site("css/style.css"))
        let manifest = site("images/dppx-manifest.json")
        let before = try Data(contentsOf: URL(fileURLWithPath: manifest))
        let process = try ChildProcess(DPPXBinary.path, ["build"], environment: ["XDG_CACHE_HOME": DPPXBinary.userCacheFolder], in: site.path)
        let killed = try await offPool { () -> Bool in
            let deadline = Date().addingTimeInterval(180)
            while Date() < deadline {
                if let now = try? Data(contentsOf: URL(fileURLWithPath: manifest)), now != before {
                    let family = Self.descendants(of: process.pid)
                    kill(process.pid, SIGKILL)
                    for pid in family { kill(pid, SIGKILL) }
                    _ = process.stop()
                    return true
                }
                if process.wait(timeout: 0.005) != nil { return false }
            }
            _ = process.stop()
            return false
        }
        #expect(killed, "the build wrote its manifest and was killed before it ended")
        #expect(DeployableSite.missingFiles(under: site.path) == [], "the pages as the killed run left them name files that are there")
        let next = try await DPPXBinary.run(["build"], in: site.path)
        #expect(next.status == 0, "\(next)")
        #expect(next.stdout.contains("removed"), "the files no page names any more go once the pages are rewritten: \(next)")
        try await Self.expectDeployable(site, "after the run that completed the job")
        let settled = DeployableSite.snapshot(of: site.path)
        let pages = try Self.siteFiles(site)
        let last = try await DPPXBinary.run(["build"], in: site.path)
        #expect(last.status == 0, "\(last)")
        #expect(DeployableSite.changes(from: settled, to: DeployableSite.snapshot(of: site.path)) == [], "then nothing is written")
        #expect(try Self.siteFiles(site) == pages)
        try await Self.expectDeployable(site, "after the last run")
    }

    /// Every process below `parent` (Chromium and its helpers).
    static func descendants(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parents: [pid_t: pid_t] = [:]
        for entry in entries {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let ppid = pid_t(fields[1]) { parents[pid] = ppid }
        }
        var found: [pid_t] = []
        var pending = [parent]
        while let next = pending.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            pending += children
        }
        return found
    }
}
