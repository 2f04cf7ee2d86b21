import Foundation
import Testing

/// pm's version is written once (Sources/PMCLI/Process/Version.swift): `pm
/// --version`, the manual pages, the newest version CHANGELOG.md names and
/// the README's install lines all say the same.
@Suite struct VersionTests {
    @Test func everyPlaceSaysTheSameVersion() throws {
        let version = try PMBinary().run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(version)")
        let root = PMBinary.packageRoot
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) } ?? ""
        #expect(newest.hasPrefix(version + " ") || newest == version, "CHANGELOG.md's newest entry is '\(newest)'")
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("pm-\(version)-linux-x86_64.tar.gz") && readme.contains("pm_\(version)_amd64.deb"))
        for page in ["man/man1/pm.1", "man/fr/man1/pm.1", "man/ko/man1/pm.1"] {
            let text = try String(contentsOf: root.appendingPathComponent("Resources/" + page), encoding: .utf8)
            #expect(text.contains("\"pm \(version)\""), "\(page)")
        }
    }
}
