/// The small HTML page sent with 404 and 400 responses: what was asked, why it failed, and
/// where to look next.
///
/// Built in rather than read from `Templates/`, so a missing or broken templates folder can
/// never turn a 404 into a 500.
struct ErrorPage {
    let status: Int
    let title: String
    let path: String
    let detail: String

    var html: String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(status) \(HTMLText.escape(title))</title>
        <style>
        body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; color: #222; }
        code { background: #f3f3f3; padding: 0 .25em; border-radius: 3px; word-break: break-all; }
        </style>
        </head>
        <body>
        <h1>\(status) \(HTMLText.escape(title))</h1>
        <p><code>\(HTMLText.escape(path))</code>: \(HTMLText.escape(detail))</p>
        <p><a href="/">Home</a> · <a href="/_dppx/">Images this server knows</a></p>
        </body>
        </html>

        """
    }
}
