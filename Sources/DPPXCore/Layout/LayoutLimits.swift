import Foundation

/// The numbers a layout may hold: the ranges a browser's layout has, checked wherever a
/// measurement comes in (a measured page's report, `dppx-layout.json`), so that nothing after
/// that (`SizesFitter`, `SizesLength`, `BackgroundRanges`, `MeasuredLadder`) sees a number it
/// could trap or loop on.
///
/// A measured page is the site's own code and the layout file a file in the repository: both
/// are untrusted. A number outside these ranges is refused with where it was and what it is
/// (`LayoutLimits.Problem`), never clamped into a plausible but made-up measurement.
public enum LayoutLimits {
    /// Viewport widths and heights, CSS px: dppx measures from 320 to 2560 (checking from 29 px
    /// on phones' narrowest); a hundred thousand is beyond any screen.
    public static let viewports: ClosedRange<Double> = 1...100_000
    /// Box sizes, the widths an `<img>`'s content is painted at, positioning areas, painted
    /// sizes and page heights, CSS px. Chromium lays out in 1/64 px held in 32 bits: no box of a
    /// page is larger than 2^25 px.
    public static let lengths: ClosedRange<Double> = 0...33_554_432
    /// A box's left and top edges in the document, CSS px.
    public static let positions: ClosedRange<Double> = -33_554_432...33_554_432
    /// The painted size under which a background layer paints nothing a screen shows (Chromium's
    /// layout unit, 1/64 px): such a layer is not a layer to serve files for.
    public static let smallestPainted = 1.0 / 64
    /// A painted size of a layer that paints.
    public static let painted: ClosedRange<Double> = smallestPainted...lengths.upperBound
    /// The resolution of an `image-set()` option a checked layer was painted from, `dppx`:
    /// 1/65,536 to 1,024 (a rewrite writes a file's width over a painted width).
    public static let resolutions: ClosedRange<Double> = 1.0 / 65_536...1_024
    /// Samples of one occurrence (an `<img>`, a background layer): the ladder is 57 widths, each
    /// breakpoint refined to 1 px, so an occurrence has at most one sample per CSS px from 320 to
    /// 2560 (2241) plus the checking widths.
    public static let samplesPerOccurrence = 4096
    /// Byte offsets of an `<img>` tag in a page, element counts and layer indices.
    public static let counts: ClosedRange<Int> = 0...(1 << 32)
    /// Distinct computed styles a measured page may report (`ImageStyles`): an `<img>` and its
    /// holder have at most one each at each checking width.
    public static let styles = 8192
    /// Properties of one computed style: Chromium computes some 480.
    public static let propertiesPerStyle = 2048
    /// The longest property name (`-webkit-text-decorations-in-effect` is 35 characters).
    public static let propertyNameLength = 64
    /// The longest `unwrapped` reason the layout file records, in characters (a selector of at
    /// most 1,024 and a script's path).
    public static let reasonLength = 8192

    /// A number outside its range: where it is (`images.0.samples.3.width`, or a page report's
    /// `<img>` at offset 212) and what it is.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// Where the number is.
        public var field: String
        /// The number as read (`1e+20`, `nan`).
        public var value: String
        /// The range it should be in, in words.
        public var expected: String

        public init(field: String, value: String, expected: String) {
            self.field = field
            self.value = value
            self.expected = expected
        }

        public var description: String { "\(field) is \(value), but a layout has \(expected)" }
    }

    /// Throws when `value` is not finite or outside `range`.
    public static func check(_ value: Double, in range: ClosedRange<Double>, _ field: @autoclosure () -> String) throws(Problem) {
        guard value.isFinite, range.contains(value) else {
            throw Problem(field: field(), value: "\(value)", expected: expectation(range))
        }
    }

    /// Throws when `value` is outside `range`.
    public static func check(_ value: Int, in range: ClosedRange<Int>, _ field: @autoclosure () -> String) throws(Problem) {
        guard range.contains(value) else {
            throw Problem(field: field(), value: "\(value)", expected: "whole numbers from \(range.lowerBound) to \(range.upperBound)")
        }
    }

    /// `value` as an integer when it is a whole number in `range`; throws otherwise.
    public static func integer(_ value: Double, in range: ClosedRange<Int>, _ field: @autoclosure () -> String) throws(Problem) -> Int {
        guard value.isFinite, value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw Problem(field: field(), value: "\(value)", expected: "whole numbers from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(value)
    }

    /// Throws when a recorded reason is longer than `reasonLength` or holds a control character
    /// (it is printed as a finding).
    public static func checkReason(_ text: String, _ field: @autoclosure () -> String) throws(Problem) {
        guard text.count <= reasonLength, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem(field: field(), value: "\(text.count) characters", expected: "a reason of at most \(reasonLength) characters without control characters")
        }
    }

    /// Throws when a layer's nested conditions or image functions are more than a
    /// declaration has (8 conditions, 64 layers) or longer than a selector (1,024 bytes).
    static func checkDeclaration(_ layer: LayoutFile.Background, _ field: @autoclosure () -> String) throws(Problem) {
        let nested = layer.nested ?? [], images = layer.images ?? []
        guard nested.count <= 8, images.count <= 64, !(nested + images).contains(where: { $0.utf8.count > 1024 }) else {
            throw Problem(field: field(), value: "\(nested.count) nested conditions, \(images.count) image functions",
                          expected: "at most 8 conditions and 64 image functions of at most 1,024 bytes each")
        }
    }

    /// Throws when an occurrence has more samples than `samplesPerOccurrence`.
    public static func checkCount(_ count: Int, _ field: @autoclosure () -> String) throws(Problem) {
        guard count <= samplesPerOccurrence else {
            throw Problem(field: field(), value: "\(count) samples", expected: "at most \(samplesPerOccurrence) samples an occurrence")
        }
    }

    private static func expectation(_ range: ClosedRange<Double>) -> String {
        "finite CSS px from \(SizesLength.number(range.lowerBound)) to \(SizesLength.number(range.upperBound))"
    }
}

extension LayoutLimits {
    /// Throws for the first number of `page` outside its range, or an occurrence with more than
    /// `samplesPerOccurrence` samples; `field` prefixes the names (`pages.index.html`).
    public static func check(_ page: LayoutFile.Page, field: String) throws(Problem) {
        try check(page.viewportHeight, in: viewports, "\(field).viewportHeight")
        if let emBreakpoints = page.emBreakpoints {
            try checkCount(emBreakpoints.count, "\(field).emBreakpoints")
            for (index, width) in emBreakpoints.enumerated() { try check(width, in: viewports, "\(field).emBreakpoints.\(index)") }
        }
        if let count = page.loadedElements { try check(count, in: counts, "\(field).loadedElements") }
        try checkCount(page.heights.count, "\(field).heights")
        for (index, height) in page.heights.enumerated() { try check(height, field: "\(field).heights.\(index)") }
        for (index, image) in page.images.enumerated() {
            let at = "\(field).images.\(index)"
            try check(image.offset, in: counts, "\(at).offset")
            if let unwrapped = image.unwrapped { try checkReason(unwrapped, "\(at).unwrapped") }
            try checkCount(image.samples.count, "\(at).samples")
            for (number, sample) in image.samples.enumerated() { try check(sample, field: "\(at).samples.\(number)") }
        }
        for (index, layer) in page.backgrounds.enumerated() {
            let at = "\(field).backgrounds.\(index)"
            try check(layer.layer, in: counts, "\(at).layer")
            try checkDeclaration(layer, at)
            try checkCount(layer.samples.count, "\(at).samples")
            for (number, sample) in layer.samples.enumerated() { try check(sample, field: "\(at).samples.\(number)") }
        }
    }

    /// An `<img>`'s box at one viewport.
    public static func check(_ sample: LayoutFile.Sample, field: String) throws(Problem) {
        try check(sample.viewport, in: viewports, "\(field).viewport")
        try check(sample.width, in: lengths, "\(field).width")
        try check(sample.height, in: lengths, "\(field).height")
        if let painted = sample.painted { try check(painted, in: lengths, "\(field).painted") }
        if let left = sample.left { try check(left, in: positions, "\(field).left") }
        if let top = sample.top { try check(top, in: positions, "\(field).top") }
    }

    /// A background layer at one viewport.
    public static func check(_ sample: LayoutFile.BackgroundSample, field: String) throws(Problem) {
        try check(sample.viewport, in: viewports, "\(field).viewport")
        try check(sample.areaWidth, in: lengths, "\(field).areaWidth")
        try check(sample.areaHeight, in: lengths, "\(field).areaHeight")
        try check(sample.paintedWidth, in: painted, "\(field).paintedWidth")
        try check(sample.paintedHeight, in: painted, "\(field).paintedHeight")
    }

    /// A page's height at one viewport.
    public static func check(_ height: LayoutFile.PageHeight, field: String) throws(Problem) {
        try check(height.viewport, in: viewports, "\(field).viewport")
        try check(height.height, in: lengths, "\(field).height")
    }
}

extension LayoutFile {
    /// A layout file as read: its pages whose numbers hold (`LayoutLimits`), and those left out
    /// with why (measured again by whoever reads it).
    public struct Checked: Sendable {
        public var layout: LayoutFile
        /// By page path: the first number out of range.
        public var refused: [String: LayoutLimits.Problem]
    }

    /// Reads `dppx-layout.json`: a file in the repository, so every page's numbers are checked
    /// (`LayoutLimits.check`). A file of another version reads as empty (every page is measured
    /// again); one that is not JSON of a layout throws what is wrong and where.
    public static func decode(_ bytes: some Collection<UInt8>) throws(LayoutFileError) -> Checked {
        let layout: LayoutFile
        do {
            layout = try JSONDecoder().decode(LayoutFile.self, from: Data(bytes))
        } catch {
            throw LayoutFileError(detail: Self.describe(error))
        }
        guard layout.version == currentVersion else { return Checked(layout: LayoutFile(), refused: [:]) }
        var checked = Checked(layout: layout, refused: [:])
        for (page, recorded) in layout.pages {
            do throws(LayoutLimits.Problem) {
                try LayoutLimits.check(recorded, field: "pages.\(page)")
            } catch {
                checked.layout.pages[page] = nil
                checked.refused[page] = error
            }
        }
        return checked
    }

    /// A decoding error as the place in the file and what is wrong there.
    private static func describe(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .dataCorrupted(let found)?, .keyNotFound(_, let found)?, .typeMismatch(_, let found)?, .valueNotFound(_, let found)?:
            context = found
        default:
            return "\(error)"
        }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}

/// A layout file that is not JSON of a layout: where, and what is wrong.
public struct LayoutFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var detail: String
    public var description: String { "is not a layout file dppx can read (\(detail))" }
}
