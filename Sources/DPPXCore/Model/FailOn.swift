/// How damaged a master may be and still be built (`--fail-on`, `[build] fail-on`), in
/// libvips's and sharp's words. Each level refuses what the ones before it refuse, and more:
///
/// - `none`: everything the decoder can read at all; a file cut short is built with its
///   missing part grey, as browsers show it.
/// - `truncated`: also refuses files that end before their image does.
/// - `error`: also refuses damage the decoder reports as an error. For JPEG this is the same
///   as `truncated`: libjpeg reports its other problems as warnings.
/// - `warning`: also refuses what libjpeg only warns about: "extraneous bytes before marker",
///   which cameras, phones and editors write into files every browser shows, and damaged
///   compressed data it recovers from by painting grey from the damage on.
public enum FailOn: String, CaseIterable, Sendable, Hashable {
    case none
    case truncated
    case error
    case warning

    /// Refuses truncated files, builds the quirks of real cameras (extraneous bytes): the
    /// wallpapers of Debian's ukui-wallpapers and gnome-backgrounds build at every level, and
    /// so does a camera's metadata (maker notes, padding, trailers); a JPEG with extraneous
    /// bytes is refused only at `warning`, a truncated one from `truncated` up.
    public static let `default` = FailOn.error

    /// `none`, `truncated`, `error` or `warning`, in any case.
    public init?(parsing text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// `none, truncated, error or warning`, for messages.
    public static let choices = "none, truncated, error or warning"
}
