import Foundation
import PackagePlugin

/// Embeds a target's static files (`Assets/`) as Swift string constants at build time (`EmbeddedAssets`), so the
/// files stay the source, edited and validated as what they are, and the executable needs nothing beside it.
@main
struct EmbedAssets: BuildToolPlugin {
    /// Swift name and file, in `Assets/` of the target.
    static let assets = [
        ("openAPIDocument", "openapi.json"), ("consoleHTML", "console.html"),
        ("consoleScript", "console.js"), ("consoleStyle", "console.css"),
        ("demoHTML", "demo.html"), ("demoScript", "demo.js"), ("demoStyle", "demo.css"),
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let folder = module.directoryURL.appending(path: "Assets")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        let files = Self.assets.map { (name: $0.0, url: folder.appending(path: $0.1)) }
        return [.buildCommand(
            displayName: "Embedding \(files.map(\.url.lastPathComponent).joined(separator: ", "))",
            executable: try context.tool(named: "embed-assets").url,
            arguments: [output.path] + files.map { "\($0.name)=\($0.url.path)" },
            inputFiles: files.map(\.url),
            outputFiles: [output])]
    }
}
