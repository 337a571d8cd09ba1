/// Something a rewrite left alone and why, with what to do: said on stderr by `dppx rewrite`.
public struct RewriteFinding: Hashable, Sendable, CustomStringConvertible {
    /// The page or stylesheet, relative to the root.
    public let file: String
    /// 1-based line of the tag or declaration.
    public let line: Int
    public let message: String
    /// The whole page was left unread (nested too deep): said on every run, as no run rewrites
    /// anything in it that would have said it before.
    public let isPageLeftUnread: Bool

    public var description: String { "\(file):\(line): \(message)" }

    public init(file: String, line: Int, message: String, isPageLeftUnread: Bool = false) {
        self.file = file
        self.line = line
        self.message = message
        self.isPageLeftUnread = isPageLeftUnread
    }

    /// The line `offset` is on in `bytes`.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == UInt8(ascii: "\n") { line += 1 }
        return line
    }
}

/// A page or stylesheet as rewritten, and what was left alone.
public struct RewriteResult: Sendable {
    public let bytes: [UInt8]
    public let findings: [RewriteFinding]
    /// Images that got (or kept up to date) their candidates.
    public let imagesRewritten: Int
    /// Of those, the fluid `<img>`s whose `sizes` was fitted to their measured boxes.
    public let imagesMadeExact: Int
    /// The measured `sizes` values written or kept (`LayoutFile.Page.sizesWritten`).
    public let sizesWritten: [String]
    /// The byte offsets (in the page as it was) of the `<img>` tags wrapped in a new `<picture>`.
    public let wrapped: [Int]

    public init(bytes: [UInt8], findings: [RewriteFinding], imagesRewritten: Int, imagesMadeExact: Int = 0, sizesWritten: [String] = [],
                wrapped: [Int] = []) {
        self.bytes = bytes
        self.findings = findings
        self.imagesRewritten = imagesRewritten
        self.imagesMadeExact = imagesMadeExact
        self.sizesWritten = sizesWritten
        self.wrapped = wrapped
    }
}
