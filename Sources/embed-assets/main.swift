// The build tool behind the EmbedAssets plugin: writes a Swift file that holds each asset as a raw string literal,
// byte for byte, so the executable serves its static files (the OpenAPI document, the console) with nothing beside it.
//
//   embed-assets OUTPUT.swift NAME=FILE...
import Foundation

/// A multi-line raw string literal whose value is exactly `text`: enough `#`s that neither `"""#…` nor `\#…`
/// occurs in the text, and the newlines after the opening and before the closing delimiter, which are not part of
/// the value.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("embed-assets: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let output = arguments.first, arguments.count > 1 else { fail("usage: embed-assets OUTPUT.swift NAME=FILE...") }
var source = """
    // Generated at build time by the EmbedAssets plugin from Sources/VerifierService/Assets: do not edit.

    /// The service's static files, embedded so that the executable serves them with nothing beside it.
    enum EmbeddedAssets {

    """
for argument in arguments.dropFirst() {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { fail("\(argument) is not NAME=FILE") }
    guard let text = try? String(contentsOfFile: parts[1], encoding: .utf8) else { fail("cannot read \(parts[1]) as UTF-8") }
    // A Swift string literal turns CR LF into LF: keep the files' line ends LF so the value is the file.
    guard !text.contains("\r") else { fail("\(parts[1]) has carriage returns; use LF line ends") }
    source += "    /// `Assets/\(URL(fileURLWithPath: parts[1]).lastPathComponent)`.\n"
    source += "    static let \(parts[0]) = \(literal(text))\n"
}
source += "}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(output): \(error)")
}
