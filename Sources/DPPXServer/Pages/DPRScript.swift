import DPPXCore

/// `/_dppx/dpr.js`: remembers the screen's device pixel ratio in the `dpr` cookie and the
/// viewport's width in CSS px in the `vw` cookie (for fluid images), for browsers that send no
/// client hints (Firefox, Safari).
///
/// Pages include it with one tag in `<head>`: `<script src="/_dppx/dpr.js"></script>`. The
/// first page view cannot benefit (its images may be requested before the script runs); later
/// requests carry the cookie. It follows changes (a window dragged to another screen, zoom)
/// through a `resolution` media query, and the viewport's width on `resize`.
enum DPRScript {
    static let path = "/_dppx/dpr.js"

    static let source = """
    /* dppx: store window.devicePixelRatio in the "dpr" cookie and the viewport width in the "vw" cookie so the server can pick image variants. */
    (function () {
      function remember(name, value) {
        if (document.cookie.split(/; */).indexOf(name + "=" + value) < 0) {
          document.cookie = name + "=" + value + "; Path=/; Max-Age=31536000; SameSite=Lax" +
            (location.protocol === "https:" ? "; Secure" : "");
        }
      }
      function saveWidth() {
        var width = Math.round(document.documentElement.clientWidth || window.innerWidth || 0);
        if (width > 0) remember("\(ClientWidth.cookieName)", width);
      }
      var pending;
      window.addEventListener("resize", function () {
        clearTimeout(pending);
        pending = setTimeout(saveWidth, 250);
      });
      saveWidth();
      function save() {
        var dpr = Math.round((window.devicePixelRatio || 1) * 1000) / 1000;
        remember("\(DPRSource.cookieName)", dpr);
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
