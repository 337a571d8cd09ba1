/// A make depfile: "this output was made from these files", so
/// `-include site.css.d` makes `make` rerun `dppx css` when a master changes.
///
/// Like `cc -MP`, every prerequisite also gets an empty rule, so deleting a master does not
/// stop make with "No rule to make target".
public enum Depfile {
    /// The depfile text for `target` made from `prerequisites`.
    public static func text(target: String, prerequisites: [String]) -> String {
        text(targets: [target], prerequisites: prerequisites)
    }

    /// The depfile text for `targets`, each made from all of `prerequisites`.
    public static func text(targets: [String], prerequisites: [String]) -> String {
        var text = targets.map(escape).joined(separator: " ") + ":"
        for prerequisite in prerequisites { text += " \\\n  " + escape(prerequisite) }
        text += "\n"
        for prerequisite in prerequisites { text += "\n" + escape(prerequisite) + ":\n" }
        return text
    }

    /// Make's escapes: `\ ` for spaces, `\#` for `#`, `$$` for `$`.
    static func escape(_ path: String) -> String {
        var result = ""
        for character in path {
            switch character {
            case " ": result += "\\ "
            case "\t": result += "\\\t"
            case "#": result += "\\#"
            case "$": result += "$$"
            default: result.append(character)
            }
        }
        return result
    }
}
