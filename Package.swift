// swift-tools-version:6.0
import PackageDescription

/// dppx: density variants, density CSS/HTML and a DPR-aware server, on libvips.
///
/// Arrows point one way: dppx -> DPPXServer -> DPPXBuild -> DPPXImaging -> CVips, and
/// DPPXBuild -> DPPXRewrite (pages) -> CGumboGuard -> CGumbo; DPPXBuild and DPPXServer -> DPPXFiles (files);
/// DPPXBuild -> DPPXMeasure (layout measured in headless Chromium) -> DPPXFiles;
/// and every module may use DPPXCore, which uses nothing of ours and does no I/O.
let package = Package(
    name: "dppx",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "dppx", targets: ["dppx"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // libvips and libwebp, found through pkg-config (Debian and Homebrew alike).
        .systemLibrary(
            name: "CLibVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"]), .brew(["vips"])]
        ),
        .systemLibrary(
            name: "CLibWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        // libjxl and its thread pool: JPEG XL, including lossless recompression of a JPEG.
        .systemLibrary(
            name: "CLibJXL",
            pkgConfig: "libjxl",
            providers: [.apt(["libjxl-dev"]), .brew(["jpeg-xl"])]
        ),
        .systemLibrary(
            name: "CLibJXLThreads",
            pkgConfig: "libjxl_threads",
            providers: [.apt(["libjxl-dev"]), .brew(["jpeg-xl"])]
        ),
        // gumbo, the HTML5 parser the page rewriter reads pages with (source offsets included).
        .systemLibrary(
            name: "CGumbo",
            pkgConfig: "gumbo",
            providers: [.apt(["libgumbo-dev"]), .brew(["gumbo-parser"])]
        ),
        // gumbo parsed so that a failed assertion on hostile markup is a refusal, not an abort.
        .target(
            name: "CGumboGuard",
            dependencies: ["CGumbo"]
        ),
        // C: fixed-argument wrappers of libvips's variadic calls, and the pixel-buffer code.
        .target(
            name: "CVips",
            dependencies: ["CLibVips", "CLibWebP", "CLibJXL", "CLibJXLThreads"],
            // Optimised in debug builds too: the tests score thousands of images with the
            // SSIMULACRA2 kernel (ssimulacra2.c), which at -O0 was more than half of the unit
            // tests' CPU. (A root package may pass flags; dppx is no one's dependency.)
            cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]
        ),
        // Pure model: densities, names, sizes, manifest, hint parsing, variant choice, rendering. No I/O.
        .target(
            name: "DPPXCore",
            dependencies: [
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // Files over swift-system: stat, open folders, atomic and write-if-changed writes, path
        // containment, folder walks, manifest discovery and reading (SiteManifestReader). The only
        // module that imports the C library or uses FileManager for files.
        .target(
            name: "DPPXFiles",
            dependencies: [
                "DPPXCore",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // libvips: init once, images that free themselves, encoders, errors as Swift values.
        .target(
            name: "DPPXImaging",
            dependencies: ["CVips", "DPPXCore"]
        ),
        // Scan, plan, incremental cache, parallel execution, atomic writes, CSS/HTML files, and the
        // development loop (a ServiceLifecycle service) that build --watch and serve --watch run.
        // Templates/ is compiled in by the EmbedTemplates plugin: a copied binary needs no files.
        .target(
            name: "DPPXBuild",
            dependencies: [
                "DPPXImaging", "DPPXRewrite", "DPPXMeasure", "DPPXFiles", "DPPXCore",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["EmbedTemplates"]
        ),
        // Page rewriting: srcset and image-set() added to HTML and CSS from the manifests, every
        // other byte kept. Knows HTML and CSS, not images or HTTP.
        .target(
            name: "DPPXRewrite",
            dependencies: ["CGumbo", "CGumboGuard", "DPPXCore"]
        ),
        // Measuring pages in headless Chromium over the DevTools protocol (a pipe read on NIO),
        // the site answered from disk through request interception: no server, no socket.
        .target(
            name: "DPPXMeasure",
            dependencies: [
                "DPPXFiles", "DPPXCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["EmbedTemplatesTool"]),
        .executableTarget(name: "EmbedTemplatesTool", path: "Plugins/EmbedTemplatesTool"),
        // The server: one responder decides every answer (the /_dppx/ pages too) and one NIO
        // writer sends it, on NIO's bootstrap; from Hummingbird only its URI, media types and
        // connection limit.
        .target(
            name: "DPPXServer",
            dependencies: [
                "DPPXBuild", "DPPXRewrite", "DPPXFiles", "DPPXCore",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The thin command-line front end.
        .executableTarget(
            name: "dppx",
            dependencies: [
                "DPPXServer", "DPPXBuild", "DPPXRewrite", "DPPXMeasure", "DPPXFiles", "DPPXCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // Fixtures made with libvips at test time, and readers that check outputs pixel by pixel.
        .target(
            name: "DPPXTestSupport",
            dependencies: ["CVips", "DPPXImaging", "DPPXCore"],
            path: "Tests/Support"
        ),
        .testTarget(name: "DPPXCoreTests", dependencies: ["DPPXCore"], exclude: ["Golden"]),
        .testTarget(name: "DPPXRewriteTests", dependencies: ["DPPXRewrite", "DPPXCore", "CGumbo", "CGumboGuard"], exclude: ["Golden"]),
        .testTarget(name: "DPPXFilesTests", dependencies: ["DPPXFiles", "DPPXCore", "DPPXTestSupport"]),
        .testTarget(
            name: "DPPXBuildTests",
            dependencies: [
                "DPPXBuild", "DPPXFiles", "DPPXImaging", "DPPXCore", "DPPXRewrite", "DPPXTestSupport", "CVips",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "DPPXServerTests",
            dependencies: [
                "DPPXServer", "DPPXBuild", "DPPXRewrite", "DPPXFiles", "DPPXCore", "DPPXTestSupport",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "DPPXMeasureTests",
            dependencies: [
                "DPPXMeasure", "DPPXCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Runs the real dppx executable, make, and headless Chromium.
        .testTarget(
            name: "DPPXEndToEndTests",
            dependencies: ["DPPXImaging", "DPPXCore", "DPPXMeasure", "DPPXRewrite", "DPPXTestSupport"]
        ),
    ]
)
