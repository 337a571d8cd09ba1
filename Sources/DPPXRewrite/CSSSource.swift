/// CSS to give `image-set()`s, and how what is added is written where it sits: a stylesheet
/// file, the text of a `<style>` element, or the declarations of a `style` attribute.
struct CSSSource {
    /// The CSS as the browser reads it.
    var text: [UInt8]
    /// Where `text` starts in the bytes the edits apply to.
    var offset = 0
    /// Whether `text` starts a line (a file does; a `<style>`'s text follows its tag).
    var startsLine = true
    /// Declarations without a block (a `style` attribute): the last one ends with the text.
    var isDeclarationList = false
    /// The quote of the CSS strings added.
    var quote: Character = "\""
    /// What added text becomes where it is written (escaped for an attribute).
    var escape: (String) -> String = { $0 }
}
