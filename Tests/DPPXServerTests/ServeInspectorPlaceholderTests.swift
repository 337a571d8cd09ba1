import DPPXCore
import DPPXServer
import Foundation
import Hummingbird
import Testing

@Suite("dppx serve's inspector shows placeholders")
struct ServeInspectorPlaceholderTests {
    @Test("each image's colour and preview are shown beside its variants; what is left out is said")
    func placeholders() async throws {
        let fixture = try ServerFixture()
        let path = fixture.root + "/" + Manifest.fileName
        var manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let preview = "data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAUAAEAcQERGIiP4HAA=="
        for index in manifest.images.indices {
            manifest.images[index].placeholder = manifest.images[index].densityIndependent
                ? .vector : ImagePlaceholder(color: "#3a6b8c", thumbHash: "AAAA", preview: preview)
        }
        try fixture.writeBytes(Manifest.fileName, manifest.encoded())
        try await fixture.server().test { client in
            let html = try await client.get("/_dppx/").text
            #expect(html.contains(#"<span class="swatch" style="background: #3a6b8c" title="average colour"></span> <code>#3a6b8c</code>"#))
            #expect(html.contains(#"<img class="preview" src="\#(preview)" alt="preview of images/hero.jpg""#))
            #expect(html.contains("vector master: no placeholder"))
        }
    }
}
