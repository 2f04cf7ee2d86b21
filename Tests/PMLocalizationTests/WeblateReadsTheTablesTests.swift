import Foundation
import Testing

@testable import PMLocalization

/// Translation platforms read pm's tables: Weblate's own file-format library,
/// translate-toolkit (from PyPI, pinned), reads every `.strings` key as a
/// unit with its value and its comment as the translator's note, and every
/// `.stringsdict` plural as a plural with exactly the categories the
/// language's rules need; what it writes back, pm reads as it read the original.
@Suite struct WeblateReadsTheTablesTests {
    /// Where `.ci/run` and this test keep translate-toolkit, outside the clone.
    static let site = "/var/cache/pm-l10n-test/site"
    static let requirement = "translate-toolkit==3.20.4"
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let localization = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Localization")

    /// Runs `arguments` (through `env`), its output and errors into one text.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pm-weblate-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// translate-toolkit, installed from PyPI into `site` the first time.
    static func toolkitIsHere() throws -> Bool {
        let marker = site + "/translate_toolkit-3.20.4.dist-info"
        if FileManager.default.fileExists(atPath: marker) { return true }
        _ = try run(["python3", "-m", "pip", "install", "-q", "--target", site, requirement])
        return FileManager.default.fileExists(atPath: marker)
    }

    @Test func weblatesLibraryReadsEveryTableAsPmDoes() throws {
        guard try Self.toolkitIsHere() else {
            Issue.record("translate-toolkit is missing: python3 -m pip install --target \(Self.site) \(Self.requirement)")
            return
        }
        var expected: [String: Any] = [:]
        for language in TableSource.shippedLanguages {
            let strings = StringsTableParser.parse(bytes: try #require(TableSource.shippedBytes(for: language))).values
            var plurals: [String: [String: String]] = [:]
            for entry in StringsDictParser.parse(bytes: try #require(TableSource.shippedPluralBytes(for: language))).entries {
                for (key, value) in entry.suffixedForms {
                    plurals[entry.key, default: [:]][String(key.dropFirst(entry.key.count + 1))] = value
                }
            }
            expected[language] = [
                "strings": strings, "plurals": plurals, "categories": TableChecker.categories(for: language),
            ]
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pm-weblate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let expectedFile = work.appendingPathComponent("expected.json")
        try JSONSerialization.data(withJSONObject: expected).write(to: expectedFile)
        let script = Self.fixtures.appendingPathComponent("weblate/reads_tables.py").path
        let (status, output) = try Self.run(
            ["python3", script, Self.localization.path, expectedFile.path, work.path], environment: ["PYTHONPATH": Self.site])
        #expect(status == 0 && output.hasSuffix("ALL OK\n"), "\(output)")
        // What the platform writes back reads as the original did.
        for language in TableSource.shippedLanguages {
            let strings = StringsTableParser.parse(
                bytes: [UInt8](try Data(contentsOf: work.appendingPathComponent(language + ".strings"))))
            let original = StringsTableParser.parse(bytes: try #require(TableSource.shippedBytes(for: language)))
            #expect(strings.problems.isEmpty && strings.values == original.values, "\(language).strings written back")
            let plurals = StringsDictParser.parse(
                bytes: [UInt8](try Data(contentsOf: work.appendingPathComponent(language + ".stringsdict"))))
            let originalPlurals = StringsDictParser.parse(bytes: try #require(TableSource.shippedPluralBytes(for: language)))
            let forms = { (parsed: ParsedStringsDict) in
                Dictionary(parsed.entries.flatMap(\.suffixedForms).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            }
            #expect(plurals.problems.isEmpty, "\(language).stringsdict written back: \(plurals.problems)")
            #expect(forms(plurals) == forms(originalPlurals) && !forms(plurals).isEmpty, "\(language).stringsdict written back")
        }
    }
}
