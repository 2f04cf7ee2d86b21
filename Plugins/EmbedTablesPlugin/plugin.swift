import Foundation
import PackagePlugin

/// Embeds every `Localization/<lang>.lproj/Localizable.strings` table, and
/// the `Localizable.stringsdict` of plurals beside it, into the target as
/// generated Swift source, and generates `L10nKey` and `L10nPluralKey` from
/// the English tables' keys. The command re-runs whenever a table
/// changes, and the binary needs no resource bundle (L10N.md facts 2 and 4).
@main
struct EmbedTablesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let localization = context.package.directoryURL.appending(path: "Localization")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: localization.path)) ?? []
        var arguments: [String] = []
        var inputs: [URL] = []
        for folder in folders.sorted() where folder.hasSuffix(".lproj") {
            let table = localization.appending(path: folder).appending(path: "Localizable.strings")
            guard FileManager.default.fileExists(atPath: table.path) else { continue }
            let plurals = localization.appending(path: folder).appending(path: "Localizable.stringsdict")
            let hasPlurals = FileManager.default.fileExists(atPath: plurals.path)
            arguments += [String(folder.dropLast(".lproj".count)), table.path, hasPlurals ? plurals.path : "-"]
            inputs.append(table)
            if hasPlurals { inputs.append(plurals) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTables.swift")
        let keys = context.pluginWorkDirectoryURL.appending(path: "L10nKey.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(arguments.count / 3) languages' translation tables",
                executable: try context.tool(named: "EmbedTables").url,
                arguments: [output.path, keys.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output, keys]
            )
        ]
    }
}
