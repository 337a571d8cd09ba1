import Foundation

/// `EmbedTemplatesTool OUTPUT FOLDER FILE...`: writes OUTPUT, a Swift file holding each FILE
/// (relative to FOLDER) as a string literal, for the EmbedTemplates build plugin.
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: EmbedTemplatesTool OUTPUT FOLDER FILE...\n".utf8))
    exit(2)
}
let output = arguments[1]
let folder = arguments[2]

/// `text` as a Swift string literal that holds exactly its characters.
func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": result += "\\\\"
        case "\"": result += "\\\""
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            result += "\\u{\(String(scalar.value, radix: 16))}"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

var entries: [String] = []
for file in arguments.dropFirst(3) {
    guard let data = FileManager.default.contents(atPath: folder + "/" + file),
          let text = String(data: data, encoding: .utf8) else {
        FileHandle.standardError.write(Data("error: \(folder)/\(file) cannot be read as UTF-8 text\n".utf8))
        exit(1)
    }
    entries.append("        \(literal(file)): \(literal(text)),\n")
}
let source = """
// Generated at build time from Templates/ by the EmbedTemplates plugin. Do not edit.

/// dppx's default templates, by path relative to `Templates/`.
enum BuiltInTemplates {
    static let files: [String: String] = [
\(entries.isEmpty ? "        :\n" : entries.joined())    ]
}

"""
// Written only when it changes: SwiftPM runs this on every build (it relinks the tool each
// time), and a file rewritten with the same text recompiled the module that holds it, which in
// a release build is the whole of DPPXBuild and what links it (some 40 s).
let bytes = Data(source.utf8)
do {
    if FileManager.default.contents(atPath: output) != bytes {
        try bytes.write(to: URL(fileURLWithPath: output), options: .atomic)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(output): \(error)\n".utf8))
    exit(1)
}
