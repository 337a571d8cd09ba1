/// `/_dppx/live.js`, injected into HTML pages in dev mode only: listens to `/_dppx/events`,
/// reloads the page after a rebuild, and shows build errors in a bar at the bottom of the page
/// until a build succeeds.
enum LiveReloadScript {
    static let path = "/_dppx/live.js"
    static let eventsPath = "/_dppx/events"
    /// The tag inserted before `</body>`.
    static let tag = "<script src=\"\(path)\"></script>"

    static let source = """
    /* dppx dev mode: reload after each rebuild, and show build errors on the page. */
    (function () {
      var bar = null;
      function show(status) {
        if (status.succeeded) {
          if (bar) { bar.parentNode.removeChild(bar); bar = null; }
          return;
        }
        if (!bar) {
          bar = document.createElement("pre");
          bar.id = "dppx-build-errors";
          bar.setAttribute("role", "alert");
          bar.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;max-height:50vh;" +
            "overflow:auto;margin:0;padding:12px 16px;background:#a0001c;color:#fff;" +
            "font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap";
          document.documentElement.appendChild(bar);
        }
        var lines = ["dppx: build failed: " + status.summary];
        status.failures.forEach(function (failure) { lines.push(failure.file + ": " + failure.reason); });
        bar.textContent = lines.join("\\n");
      }
      var events = new EventSource("\(eventsPath)");
      events.addEventListener("status", function (event) { show(JSON.parse(event.data)); });
      events.addEventListener("reload", function () { location.reload(); });
    })();

    """

    /// `html` with `tag` before its last `</body>` (any case), or appended.
    static func inject(_ html: [UInt8]) -> [UInt8] {
        let tag = Array(Self.tag.utf8)
        let close = Array("</body".utf8)
        var index = html.count - close.count
        while index >= 0 {
            if zip(html[index..<(index + close.count)], close).allSatisfy({ ($0 >= 65 && $0 <= 90 ? $0 + 32 : $0) == $1 }) {
                return Array(html[..<index]) + tag + Array(html[index...])
            }
            index -= 1
        }
        return html + tag
    }
}
