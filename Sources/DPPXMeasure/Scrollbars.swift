/// The scrollbars a page is measured with.
///
/// Phones and macOS draw overlay scrollbars that take no room, so the viewport width, `100vw`
/// and the width a page lays out in are one number: `sizes` are fitted there. Desktop browsers
/// with classic scrollbars (Windows, Linux, macOS with a mouse) lay a page out in the width
/// beside the scrollbar while `vw` and width media queries count the whole window, so a `sizes`
/// fitted without one says a few pixels more than such a box: harmless for an image the page
/// sizes (its natural width only caps it), a move for one that follows its natural width.
/// Checking a rewrite measures both, so that one is found.
public enum Scrollbars: String, Sendable, Hashable {
    /// None take room.
    case hidden
    /// Chromium's classic scrollbars (15 px), where the page overflows.
    case classic
}
