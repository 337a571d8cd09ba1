import DPPXCore

/// `/_dppx/dpr.js`: remembers the screen's device pixel ratio in the `dpr` cookie, for
/// browsers that send no client hints (Firefox, Safari).
///
/// Pages include it with one tag in `<head>`: `<script src="/_dppx/dpr.js"></script>`. The
/// first page view cannot benefit (its images may be requested before the script runs); later
/// requests carry the cookie. It follows changes (a window dragged to another screen, zoom)
/// through a `resolution` media query.
enum DPRScript {
    static let path = "/_dppx/dpr.js"

    static let source = """
    /* dppx: store window.devicePixelRatio in the "dpr" cookie so the server can pick image variants. */
    (function () {
      function save() {
        var dpr = Math.round((window.devicePixelRatio || 1) * 1000) / 1000;
        if (document.cookie.split(/; */).indexOf("\(DPRSource.cookieName)=" + dpr) < 0) {
          document.cookie = "\(DPRSource.cookieName)=" + dpr + "; Path=/; Max-Age=31536000; SameSite=Lax" +
            (location.protocol === "https:" ? "; Secure" : "");
        }
        if (!window.matchMedia) return;
        var query = window.matchMedia("(resolution: " + dpr + "dppx)");
        var changed = function () {
          if (query.removeEventListener) query.removeEventListener("change", changed); else query.removeListener(changed);
          save();
        };
        if (query.addEventListener) query.addEventListener("change", changed); else query.addListener(changed);
      }
      save();
    })();

    """
}
