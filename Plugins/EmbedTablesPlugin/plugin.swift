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
        // The tool finds the languages itself, in the folder: a language
        // added as a folder is a change to the folder, which the build sees
        // (the list of commands a plugin makes is kept until the package's
        // sources change). Every table found now is an input too.
        var inputs: [URL] = [localization]
        for folder in folders.sorted() where folder.hasSuffix(".lproj") {
            let language = localization.appending(path: folder)
            inputs.append(language)
            for file in ["Localizable.strings", "Localizable.stringsdict"]
            where FileManager.default.fileExists(atPath: language.appending(path: file).path) {
                inputs.append(language.appending(path: file))
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTables.swift")
        let keys = context.pluginWorkDirectoryURL.appending(path: "L10nKey.swift")
        return [
            .buildCommand(
                displayName: "Embedding the translation tables of Localization/",
                executable: try context.tool(named: "EmbedTables").url,
                arguments: [output.path, keys.path, localization.path],
                inputFiles: inputs,
                outputFiles: [output, keys]
            )
        ]
    }
}
